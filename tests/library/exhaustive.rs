//! The scalar engine against a naive `% 62` reference for every `u32`.
//! Takes seconds with the optimized test profile (Cargo.toml). Decoding every `u32` back, on every path
//! including scalar, is in `tests/library/engine_paths.rs`.

use kuuid::engine::scalar::encode_group;
use kuuid::engine::{ALPHABET, MAX_GROUP};

/// The naive reference: repeated `% 62`, most significant digit first.
fn naive(mut x: u32) -> [u8; 6] {
    let mut out = [b'0'; 6];
    for slot in out.iter_mut().rev() {
        *slot = ALPHABET[(x % 62) as usize];
        x /= 62;
    }
    out
}

/// Checks `lo..=hi` and returns the number of values checked.
fn check_range(lo: u32, hi: u32, step: u32) -> u64 {
    let mut n = 0;
    let mut buf = [0u8; 6];
    let mut x = lo;
    loop {
        encode_group(x, &mut buf);
        assert_eq!(buf, naive(x), "encode({x})");
        n += 1;
        match x.checked_add(step) {
            Some(next) if next <= hi => x = next,
            _ => return n,
        }
    }
}

#[test]
fn every_u32_encodes_like_naive_base62() {
    // Every value (the test profile is optimized, see Cargo.toml).
    let step = 1;
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(8)) as u32;
    let chunk = u32::MAX / threads;
    let total: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let lo = t * chunk;
                let hi = if t + 1 == threads {
                    u32::MAX
                } else {
                    lo + chunk - 1
                };
                // Align each thread's start to the step so the union is the strided set.
                let lo = lo.div_ceil(step) * step;
                s.spawn(move || check_range(lo, hi, step))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let expected = if step == 1 {
        1u64 << 32
    } else {
        u64::from(u32::MAX / step) + 1
    };
    assert_eq!(total, expected);
}

#[test]
fn group_boundaries() {
    assert_eq!(&naive(u32::MAX), b"4gfFC3");
    assert_eq!(MAX_GROUP, u64::from(u32::MAX));
    for ok in ["000000", "000001", "4gfFC2", "4gfFC3", "3zzzzz"] {
        let text = format!("00000000{ok}");
        assert!(kuuid::Kuuid1::parse_bytes(text.as_bytes()).is_ok(), "{ok}");
    }
    for bad in [
        "4gfFC4", "4gfFCz", "4gfFD0", "4zzzzz", "500000", "zzzzzz", "Z00000",
    ] {
        let text = format!("00000000{bad}");
        assert_eq!(
            kuuid::Kuuid1::parse_bytes(text.as_bytes()),
            Err(kuuid::ParseError::GroupOverflow { index: 8 }),
            "{bad}"
        );
    }
}
