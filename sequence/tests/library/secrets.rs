//! No error of the PostgreSQL store shows a secret (issue 54): a password,
//! `sslpassword`, or the value of a key the store does not know, in either
//! form of the connection string, plain or percent-encoded, whole or split
//! by a misplaced space, `/` or `?`, or taken as the value of a key left
//! empty before it (issue 63). Every message is searched, through
//! `Display`, `Debug` and every `source()`.
#![cfg(feature = "postgres")]

use kuuid_sequence::PostgresCounters;

/// The secret, and pieces of it a misparse could set apart.
const SECRET: &str = "hunter2secret";
const PIECES: [&str; 4] = ["hunter2", "secret", "%73ecret", "31337"];

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
    // Issue 63: a key with an empty value takes the next pair as its value
    // (libpq skips blanks after `=`), and every message about that key
    // (sslmode's, the host in every error, a file's path, the user the
    // server names) would show it.
    "host=127.0.0.1 user=u sslmode= password=hunter2secret",
    "host= password=hunter2secret user=u",
    "host=127.0.0.1 user=u sslrootcert= password=hunter2secret",
    "host=127.0.0.1 user= password=hunter2secret",
    "host=127.0.0.1 user=u dbname= password=hunter2secret",
    "host=127.0.0.1 user=u sslmode= sslpassword=hunter2secret",
    // A password's second word after a space or `&`, and a password's
    // first piece read as a port (`/` unescaped).
    "host=127.0.0.1 user=u password=hunter2 secret=x",
    "postgresql://u@127.0.0.1/x?password=hunter2&secret=x",
    "postgresql://app:31337/hunter2secret@127.0.0.1/x",
];

/// libpq's connection keywords (its documentation's "Parameter Key
/// Words"): each, left empty before the password, must not carry it into
/// a message.
const LIBPQ_KEYS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "passfile",
    "require_auth",
    "channel_binding",
    "connect_timeout",
    "client_encoding",
    "options",
    "application_name",
    "fallback_application_name",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_count",
    "tcp_user_timeout",
    "replication",
    "gssencmode",
    "sslmode",
    "requiressl",
    "sslnegotiation",
    "sslcompression",
    "sslcert",
    "sslkey",
    "sslpassword",
    "sslcertmode",
    "sslrootcert",
    "sslcrl",
    "sslcrldir",
    "sslsni",
    "requirepeer",
    "ssl_min_protocol_version",
    "ssl_max_protocol_version",
    "krbsrvname",
    "gsslib",
    "gssdelegation",
    "service",
    "target_session_attrs",
    "load_balance_hosts",
];

#[test]
fn no_key_left_empty_carries_the_password_into_a_message() {
    let mut tried = 0;
    for key in LIBPQ_KEYS {
        for secret_key in ["password", "sslpassword"] {
            let text = format!("host=127.0.0.1 user=u {key}= {secret_key}={SECRET} dbname=x");
            let err = PostgresCounters::connect(&text).expect_err(&text);
            for shown in every_text(&err) {
                assert!(!shown.contains("hunter2"), "{text:?}: {shown}");
            }
            tried += 1;
        }
    }
    assert_eq!(tried, 2 * LIBPQ_KEYS.len());
}

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

/// The refusal still says what is wrong: the key, where it is a name and
/// cannot be a piece of a password (`password=hunter2 secret=x` names
/// neither `secret` nor anything else: by the grammar it is a key, but it
/// may be the password's second word).
#[test]
fn a_misspelled_key_is_named_without_its_value() {
    let err = PostgresCounters::connect(REFUSED[0]).unwrap_err();
    let shown = err.to_string();
    assert!(shown.contains("unknown key \"pasword\""), "{shown}");
    assert!(shown.contains("its value not shown"), "{shown}");
    let text = "host=127.0.0.1 user=u sslmode= password=hunter2secret";
    let shown = PostgresCounters::connect(text).unwrap_err().to_string();
    assert!(shown.contains("value of \"sslmode\" reads as"), "{shown}");
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
