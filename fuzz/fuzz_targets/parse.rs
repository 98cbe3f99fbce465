//! Arbitrary bytes never panic any parser, and every path agrees with the
//! scalar decoder on which ids are valid and what they hold; the same for
//! ULIDs' Crockford base32.
#![no_main]

use kuuid::engine::{Isa, base32_decode_with, decode_with};
use kuuid::{AnyKuuid, Kuuid};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The typed parsers: ok exactly when the reference says so.
    let any = AnyKuuid::parse_bytes(data);
    if let Ok(id) = &any {
        assert_eq!(id.as_bytes(), data);
    }
    if data.len() == 32 {
        assert_eq!(Kuuid::parse_bytes(data).is_ok(), any.is_ok());
    }
    // Bulk: the data as 32-byte records on every path.
    for stride in [32usize, 33] {
        let count = if data.len() >= 32 {
            (data.len() - 32) / stride + 1
        } else {
            0
        };
        let (mut p0, mut w0) = (vec![0u64; count], vec![0u32; 4 * count]);
        let n0 = decode_with(Isa::Scalar, data, stride, &mut p0, &mut w0).unwrap();
        for isa in Isa::available() {
            let (mut p, mut w) = (vec![0u64; count], vec![0u32; 4 * count]);
            let n = decode_with(isa, data, stride, &mut p, &mut w).unwrap();
            assert_eq!(n, n0, "{isa}");
            assert_eq!(p[..n], p0[..n0]);
            assert_eq!(w[..4 * n], w0[..4 * n0]);
        }
        let mut ids = vec![Kuuid::default(); count];
        match Kuuid::parse_many(data, stride, &mut ids) {
            Ok(()) => assert_eq!(n0, count),
            Err(e) => assert_eq!(e.index, n0),
        }
    }
    // Lines: every non-blank line is yielded, good or bad.
    let lines = kuuid::parse_lines(data).count();
    let expect = data
        .split(|&b| b == b'\n')
        .filter(|l| !l.trim_ascii().is_empty())
        .count();
    assert_eq!(lines, expect);
    // ULIDs: read exactly when the text is 26 characters of Crockford's
    // base32 (either case) starting 0-7, and written back as read.
    let crockford =
        |b: &u8| b.is_ascii_digit() || (b.is_ascii_alphabetic() && !b"ILOUilou".contains(b));
    let valid = data.len() == 26 && data.iter().all(crockford) && data[0] <= b'7';
    match kuuid::Ulid::parse_bytes(data) {
        Ok(id) => {
            assert!(valid);
            assert_eq!(id.text_bytes()[..], data.to_ascii_uppercase()[..]);
        }
        Err(_) => assert!(!valid),
    }
    // ULIDs in bulk: the data as 26- and 27-byte records, either case or
    // small letters only, on every path as on scalar; `parse_many` stops
    // where the engine does.
    for stride in [26usize, 27] {
        let count = data.len().checked_sub(26).map_or(0, |n| n / stride + 1);
        for lower_only in [false, true] {
            let mut want = vec![[0u8; 16]; count];
            let n0 = base32_decode_with(Isa::Scalar, data, stride, &mut want, lower_only).unwrap();
            for isa in Isa::available() {
                let mut got = vec![[0u8; 16]; count];
                let n = base32_decode_with(isa, data, stride, &mut got, lower_only).unwrap();
                assert_eq!(n, n0, "base32 decode on {isa}");
                assert_eq!(got[..n], want[..n0], "base32 decode on {isa}");
            }
            if !lower_only {
                let mut ids = vec![kuuid::Ulid::MIN; count];
                match kuuid::Ulid::parse_many(data, stride, &mut ids) {
                    Ok(()) => assert_eq!(n0, count),
                    Err(e) => assert_eq!(e.index, n0),
                }
            }
        }
    }
});
