//! No error of the PostgreSQL store shows a secret (issue 54): a password,
//! `sslpassword`, or the value of a key the store does not know, in either
//! form of the connection string, plain or percent-encoded, whole or split
//! by a misplaced space, `/` or `?`. Every message is searched, through
//! `Display`, `Debug` and every `source()`.
#![cfg(feature = "postgres")]

use kuuid_sequence::PostgresCounters;

/// The secret, and pieces of it a misparse could set apart.
const SECRET: &str = "hunter2secret";
const PIECES: [&str; 3] = ["hunter2", "secret", "%73ecret"];

/// Connection strings the store refuses before connecting, each holding
/// the secret (or pieces of it) where a user might put it.
const REFUSED: &[&str] = &[
    // The trial's: a misspelled key.
    "host=127.0.0.1 user=u pasword=hunter2secret dbname=x",
    "host=127.0.0.1 user=u sslpassword=hunter2secret dbname=x",
    "host=127.0.0.1 user=u password=hunter2secret pasword=hunter2secret",
    "host=127.0.0.1 user=u password='hunter2secret",
    "host=127.0.0.1 user=u password=hunter2 secret",
    "host=127.0.0.1 user=u password=hunter2secret port=notaport",
    "postgresql://u@127.0.0.1/x?pasword=hunter2secret",
    "postgresql://u@127.0.0.1/x?pasword=hunter2%73ecret",
    "postgresql://u@127.0.0.1/x?sslpassword=hunter2secret",
    "postgresql://u:hunter2secret%zz@127.0.0.1/x",
    "postgresql://u:hunter2secret%ff@127.0.0.1/x",
    "postgresql://u@127.0.0.1/x?hunter2secret",
    // A `/` or `?` in a password not %-encoded moves its pieces elsewhere.
    "postgresql://u:hunter2/secret@127.0.0.1/x",
    "postgresql://u:hunter2?secret@127.0.0.1/x",
    "postgresql://u:hunter2secret@[::1/x",
    "postgresql://u:hunter2secret@127.0.0.1:54x32/x",
];

/// Every text an error shows: its `Display`, its `Debug`, and theirs of
/// each `source()`.
fn every_text(e: &(dyn std::error::Error + 'static)) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = Some(e);
    while let Some(e) = cur {
        out.push(e.to_string());
        out.push(format!("{e:?}"));
        cur = e.source();
    }
    out
}

#[test]
fn no_refusal_shows_a_secret() {
    for text in REFUSED {
        assert!(
            PIECES.iter().filter(|p| text.contains(*p)).count() >= 2,
            "{text}: holds no secret"
        );
        let err = PostgresCounters::connect(text).expect_err(text);
        for shown in every_text(&err) {
            for piece in PIECES {
                assert!(
                    !shown.contains(piece),
                    "{text:?} gave an error showing {piece:?}: {shown}"
                );
            }
        }
    }
}

/// The refusal still says what is wrong: the key, where it is a name. (So
/// `password=hunter2 secret=x` names the key `secret`, as libpq does: by
/// the grammar it is a key, and only its value is kept back.)
#[test]
fn a_misspelled_key_is_named_without_its_value() {
    let err = PostgresCounters::connect(REFUSED[0]).unwrap_err();
    let shown = err.to_string();
    assert!(shown.contains("unknown key \"pasword\""), "{shown}");
    assert!(shown.contains("its value not shown"), "{shown}");
}

/// A connect that fails at the server (here a loopback port that accepts
/// and never answers) shows no password either.
#[test]
fn a_failed_connect_shows_no_password() {
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let text = format!(
        "host=127.0.0.1 port={port} user=u password={SECRET} connect_timeout=2 sslmode=disable"
    );
    let err = PostgresCounters::connect_with_timeout(&text, std::time::Duration::from_secs(1))
        .unwrap_err();
    for shown in every_text(&err) {
        assert!(!shown.contains(SECRET), "{shown}");
    }
}
