//! kuuid-sequence's errors: each cause said once in a report (kuuid's rule,
//! `tests/support/report.rs`), and every error of kuuid's calls carried by
//! `?` into this crate's `Error` with its message whole.

use kuuid_sequence::Error;

use crate::report::{ChainedError, says_each_cause_once as check};

/// A store's error with its driver's cause, a render error, a retry's
/// insert error, and a kuuid error carried: one message each, every cause
/// once.
#[test]
fn a_report_says_each_cause_once() {
    let driver = std::io::Error::other("db error");
    let chained = Error::Store(Box::new(std::io::Error::other(ChainedError(
        "PostgreSQL at h:5432",
        driver,
    ))));
    check(&chained);
    assert!(chained.to_string().ends_with("db error"), "{chained}");
    let render = kuuid_sequence::render::encode_decimal(1000, 2, &mut [0u8; 20]).unwrap_err();
    check(&Error::from(render));
    let retry: kuuid_sequence::retry::RetryError<std::io::Error> =
        kuuid_sequence::retry::RetryError::Insert(std::io::Error::other(ChainedError(
            "insert",
            std::io::Error::other("disk full"),
        )));
    check(&retry);
    check(&Error::from(kuuid::id_at("not a time").unwrap_err()));
}

/// kuuid's errors and this crate's own convert into `Error` (so `?`
/// carries them), each printed as it prints itself, each in its variant.
#[test]
fn every_error_converts_into_the_crates_error() {
    fn into<E: Into<Error> + std::fmt::Display>(e: E) -> (String, Error) {
        (e.to_string(), e.into())
    }
    let cases = [
        into(kuuid::id_at("1969-12-31T23:59:59Z").unwrap_err()),
        into("0".parse::<kuuid::Kuuid>().unwrap_err()),
        into("nope".parse::<kuuid::Uuid7>().unwrap_err()),
        into("0".parse::<kuuid::ObjectId>().unwrap_err()),
        into("avx1024".parse::<kuuid::engine::Isa>().unwrap_err()),
        into(kuuid::Error::InvertedRange),
        into("sharded 4".parse::<kuuid_sequence::Sharding>().unwrap_err()),
        into(kuuid_sequence::render::encode_decimal(1000, 2, &mut [0u8; 20]).unwrap_err()),
    ];
    for (text, e) in &cases {
        assert!(
            e.to_string().ends_with(text.as_str()),
            "{e} does not carry {text:?}"
        );
    }
    for (_, e) in &cases[..6] {
        assert!(matches!(e, Error::Id(_)), "{e:?} is not Error::Id");
    }
    assert!(matches!(cases[6].1, Error::ShardingText(_)));
    assert!(matches!(cases[7].1, Error::Render(_)));
}
