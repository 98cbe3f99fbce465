//! KSUIDs against svix-ksuid (0.10), compiled in: the same text for every
//! value, the same reading of every text both accept; and what each
//! refuses. npm ksuid is in `servers/node_ksuid.rs`.

use kuuid::{Ksuid, KsuidParseError};
use svix_ksuid::KsuidLike;

fn values() -> Vec<[u8; 20]> {
    let mut v = vec![[0u8; 20], [0xff; 20]];
    for bit in 0..160 {
        let mut b = [0u8; 20];
        b[19 - bit / 8] = 1 << (bit % 8);
        v.push(b);
        let mut m = [0xffu8; 20];
        m[19 - bit / 8] ^= 1 << (bit % 8);
        v.push(m);
    }
    let mut x = 0x2545_F491_4F6C_DD1D_u64;
    for _ in 0..2000 {
        let mut b = [0u8; 20];
        for byte in &mut b {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *byte = x as u8;
        }
        v.push(b);
    }
    v
}

#[test]
fn the_same_text_for_every_value() {
    let values = values();
    for b in &values {
        let ours = Ksuid::from_bytes(*b);
        let theirs = svix_ksuid::Ksuid::from_bytes(*b);
        assert_eq!(ours.to_string(), theirs.to_string(), "{b:?}");
        let back: svix_ksuid::Ksuid = ours.to_string().parse().unwrap();
        assert_eq!(back.bytes(), b);
        assert_eq!(
            ours.timestamp().as_millis() / 1000,
            u64::try_from(theirs.timestamp_seconds()).unwrap()
        );
    }
    eprintln!("svix-ksuid: {} values, the same text", values.len());
}

/// Every byte at every position of a few texts: both read what both
/// accept alike; where only one accepts, it is ours refusing a text svix
/// reads (counted and shown).
#[test]
fn both_read_every_text_alike() {
    let (mut alike, mut only_theirs) = (0, Vec::new());
    for b in values().iter().take(12) {
        let text = Ksuid::from_bytes(*b).to_string().into_bytes();
        for i in 0..27 {
            for c in 0..=127u8 {
                let mut t = text.clone();
                t[i] = c;
                let s = std::str::from_utf8(&t).unwrap();
                let ours = Ksuid::parse_bytes(&t);
                let theirs = s.parse::<svix_ksuid::Ksuid>();
                match (ours, theirs) {
                    (Ok(a), Ok(b)) => assert_eq!(a.as_bytes(), b.bytes(), "{s}"),
                    (Err(_), Err(_)) => {}
                    (Err(e), Ok(_)) => only_theirs.push(format!("{s}: {e}")),
                    (Ok(_), Err(e)) => panic!("{s}: svix refuses ({e:?}), ours reads"),
                }
                alike += 1;
            }
        }
    }
    eprintln!(
        "svix-ksuid: {alike} texts judged, {} read by svix only (first: {:?})",
        only_theirs.len(),
        only_theirs.first()
    );
}

#[test]
fn errors_say_what_and_where() {
    let e = "0ujtsYcgvSTl8PAuAdqWYSMnLO-".parse::<Ksuid>().unwrap_err();
    assert_eq!(
        e,
        KsuidParseError::InvalidByte {
            index: 26,
            byte: b'-'
        }
    );
    assert!(e.to_string().contains("index 26"), "{e}");
    assert_eq!(
        "aWgEPTl1tmebfsQzFP4bxwgy80W".parse::<Ksuid>(),
        Err(KsuidParseError::Overflow)
    );
    assert!(matches!(
        kuuid::ksuid_at("2014-05-13T16:53:19Z"),
        Err(kuuid::TimeError::BeforeStart { .. })
    ));
    let last = kuuid::ksuid_at("2150-06-19T23:21:35Z").unwrap();
    assert_eq!(last.as_bytes()[..4], [0xff; 4]);
    let e = kuuid::ksuid_at("2150-06-19T23:21:36Z").unwrap_err();
    assert!(e.to_string().contains("2150-06-19T23:21:35Z"), "{e}");
}

#[test]
fn minted_ksuids_carry_the_clock() {
    let before = kuuid::Timestamp::now().as_millis() / 1000;
    let mut ids = vec![Ksuid::MIN; 1000];
    kuuid::fill_ksuid(&mut ids);
    ids.push(kuuid::ksuid());
    let after = kuuid::Timestamp::now().as_millis() / 1000;
    let mut seen = std::collections::HashSet::new();
    for id in &ids {
        let s = id.timestamp().as_millis() / 1000;
        // The coarse clock: up to a tick behind the precise one.
        assert!(
            before - 1 <= s && s <= after,
            "{s} not in {before}..={after}"
        );
        assert!(seen.insert(id.payload()));
        let theirs: svix_ksuid::Ksuid = id.to_string().parse().unwrap();
        assert_eq!(theirs.bytes(), id.as_bytes());
    }
}
