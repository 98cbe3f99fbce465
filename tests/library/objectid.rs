//! MongoDB ObjectId: the specification's test plan (timestamps read as
//! unsigned 32-bit seconds; the counter wrap is a unit test in
//! `src/formats/objectid/state.rs`), text and parsing, and uniqueness across
//! threads.

use std::collections::HashSet;

use kuuid::{ObjectId, ObjectIdParseError};

/// The spec's four timestamps and the dates they must read back as.
#[test]
fn timestamps_are_unsigned_32_bit_seconds() {
    for (secs, date) in [
        (0x0000_0000u32, "1970-01-01T00:00:00Z"),
        (0x7FFF_FFFF, "2038-01-19T03:14:07Z"),
        (0x8000_0000, "2038-01-19T03:14:08Z"),
        (0xFFFF_FFFF, "2106-02-07T06:28:15Z"),
    ] {
        let mut bytes = [0u8; 12];
        bytes[..4].copy_from_slice(&secs.to_be_bytes());
        assert_eq!(ObjectId::from_bytes(bytes).timestamp().to_string(), date);
        // Minted at that time, the same seconds land in the first 4 bytes.
        let id = kuuid::object_id_at(date).unwrap();
        assert_eq!(id.as_bytes()[..4], secs.to_be_bytes());
        assert_eq!(id.timestamp().to_string(), date);
    }
    assert!(matches!(
        kuuid::object_id_at("2106-02-07T06:28:16Z"),
        Err(kuuid::TimeError::OutOfRange {
            field: kuuid::TimeField::ObjectId,
            ..
        })
    ));
}

/// Successive ids of one fill: the counter adds 1 within each claimed block
/// of 256 (the word is shared, so other threads' claims may fall between
/// blocks), the process value stays, and the text is 24 lowercase hex that
/// parses back.
#[test]
fn counter_adds_one_and_text_round_trips() {
    let mut ids = vec![ObjectId::default(); 1000];
    kuuid::fill_object_id(&mut ids);
    let counter = |id: &ObjectId| {
        let b = id.as_bytes();
        u32::from_be_bytes([0, b[9], b[10], b[11]])
    };
    for w in ids.chunks(256).flat_map(|c| c.windows(2)) {
        let same_value = w[0].as_bytes()[4..9] == w[1].as_bytes()[4..9];
        let next = (counter(&w[0]) + 1) & 0xFF_FFFF;
        assert!(same_value && counter(&w[1]) == next || counter(&w[1]) == 0);
    }
    for id in &ids {
        let text = id.to_string();
        assert_eq!(text.len(), 24);
        assert!(
            text.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        assert_eq!(text.parse::<ObjectId>(), Ok(*id));
        assert_eq!(text.to_uppercase().parse::<ObjectId>(), Ok(*id));
    }
    assert_eq!(
        "0123456789abcdef0123456g".parse::<ObjectId>(),
        Err(ObjectIdParseError::InvalidByte {
            index: 23,
            byte: b'g'
        })
    );
    assert_eq!(
        "0123".parse::<ObjectId>(),
        Err(ObjectIdParseError::Length {
            expected: &[24],
            found: 4
        })
    );
}

/// Two threads, 10^6 ids each (single and bulk), one counter: no repeats.
#[test]
fn two_threads_never_repeat() {
    const N: usize = 1_000_000;
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| (0..N).map(|_| kuuid::object_id()).collect::<Vec<_>>());
        let b = s.spawn(|| {
            let mut ids = vec![ObjectId::default(); N];
            kuuid::fill_object_id(&mut ids);
            ids
        });
        (a.join().unwrap(), b.join().unwrap())
    });
    let all: HashSet<ObjectId> = a.iter().chain(&b).copied().collect();
    assert_eq!(all.len(), 2 * N);
}
