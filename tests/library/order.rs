//! Order keys' properties: every key made between two keys is valid,
//! strictly between them and at most two bytes longer than the longer
//! bound; owned keys compare and hash as their text; the buffer forms
//! equal the `Vec` forms; `rebalance` spaces its keys evenly at the
//! shortest length; and the jitter's collision rate is `2^-bits`.

use std::collections::HashMap;

use kuuid::order::{
    KeyBuf, OrderError, OrderKey, OrderKeyError, key_between, key_between_jittered, n_keys_between,
    n_keys_between_into, n_keys_between_jittered, n_keys_between_part_into, rebalance,
};
use proptest::prelude::*;

const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Any valid key: a head, its integer digits, a fraction of up to 6 digits
/// (zeros and `z`s often, where carries happen).
fn key() -> impl Strategy<Value = String> {
    let digit = prop_oneof![Just(b'0'), Just(b'z'), (0..62usize).prop_map(|d| DIGITS[d])];
    (
        0..52usize,
        prop::collection::vec(digit.clone(), 26),
        prop::collection::vec(digit, 0..6),
    )
        .prop_filter_map("a valid key", |(h, int, frac)| {
            let head = DIGITS[10 + h];
            let len = if head >= b'a' {
                usize::from(head - b'a') + 1
            } else {
                usize::from(b'Z' - head) + 1
            };
            let mut key = vec![head];
            key.extend_from_slice(&int[..len]);
            key.extend_from_slice(&frac);
            let key = String::from_utf8(key).unwrap();
            OrderKey::parse(&key).is_ok().then_some(key)
        })
}

fn bounds() -> impl Strategy<Value = (Option<String>, Option<String>)> {
    (prop::option::of(key()), prop::option::of(key())).prop_filter_map(
        "ascending",
        |(a, b)| match (a, b) {
            (Some(a), Some(b)) if a == b => None,
            (Some(a), Some(b)) if a > b => Some((Some(b), Some(a))),
            pair => Some(pair),
        },
    )
}

fn inside(a: &Option<String>, b: &Option<String>, k: &str) -> bool {
    a.as_deref().is_none_or(|a| a < k) && b.as_deref().is_none_or(|b| k < b)
}

proptest! {
    #[test]
    fn a_key_between_is_valid_and_strictly_inside((a, b) in bounds()) {
        let k = key_between(a.as_deref(), b.as_deref()).unwrap();
        prop_assert!(OrderKey::parse(k.as_str()).is_ok());
        prop_assert!(inside(&a, &b, k.as_str()), "{a:?} {k} {b:?}");
        // The bound key_between relies on to write short keys in place.
        let longest = a.as_ref().map_or(0, String::len).max(b.as_ref().map_or(0, String::len));
        prop_assert!(k.as_str().len() <= longest + 2, "{a:?} {k} {b:?}");
    }

    #[test]
    fn owned_keys_order_and_compare_as_their_text(x in key(), y in key()) {
        let (kx, ky) = (OrderKey::parse(&x).unwrap(), OrderKey::parse(&y).unwrap());
        prop_assert_eq!(kx.cmp(&ky), x.cmp(&y));
        prop_assert_eq!(kx == ky, x == y);
        prop_assert_eq!(kx.as_str(), x.as_str());
        prop_assert_eq!(kx.clone().into_string(), x.clone());
        let mut set = std::collections::HashSet::new();
        set.insert(kx);
        prop_assert!(set.contains(x.as_str()));
    }

    #[test]
    fn n_keys_ascend_inside_and_match_the_buffer_form((a, b) in bounds(), n in 0..40usize) {
        let keys = n_keys_between(a.as_deref(), b.as_deref(), n).unwrap();
        prop_assert_eq!(keys.len(), n);
        for k in &keys {
            prop_assert!(OrderKey::parse(k.as_str()).is_ok());
            prop_assert!(inside(&a, &b, k.as_str()));
        }
        prop_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        let mut buf = KeyBuf::new();
        buf_first_holds_junk(&mut buf);
        n_keys_between_into(a.as_deref(), b.as_deref(), n, &mut buf).unwrap();
        let from_buf: Vec<&str> = buf.iter().skip(1).map(|k| k.as_str()).collect();
        let from_vec: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
        prop_assert_eq!(from_buf, from_vec);
    }

    /// Any split of the `n` keys into parts gives them all, in order: the
    /// batches `kuuid between` writes are one call's keys (the parts' ends
    /// fall anywhere, the halves of the bisection among them).
    #[test]
    fn parts_of_n_keys_are_the_n_keys((a, b) in bounds(), n in 0..300usize, cuts in prop::collection::vec(0..300usize, 0..6)) {
        let all = n_keys_between(a.as_deref(), b.as_deref(), n).unwrap();
        let mut ends: Vec<usize> = cuts.into_iter().map(|c| c.min(n)).chain([n]).collect();
        ends.sort_unstable();
        let mut buf = KeyBuf::new();
        let mut from = 0;
        for end in ends {
            n_keys_between_part_into(a.as_deref(), b.as_deref(), n, from..end, &mut buf).unwrap();
            from = end;
        }
        let parts: Vec<&str> = buf.iter().map(|k| k.as_str()).collect();
        let whole: Vec<&str> = all.iter().map(|k| k.as_str()).collect();
        prop_assert_eq!(parts, whole);
        // Past the end: nothing.
        let before = buf.len();
        n_keys_between_part_into(a.as_deref(), b.as_deref(), n, n..n + 5, &mut buf).unwrap();
        prop_assert_eq!(buf.len(), before);
    }

    /// Parts from an open end start at their place by arithmetic (no key
    /// before them made): across head changes and near the ends of the
    /// integers they are still the keys one call makes.
    #[test]
    fn parts_from_an_open_end_across_heads_are_the_keys(
        start in prop::sample::select(vec![
            "a0", "a1", "az", "b00", "bzz", "c000", "Zz", "Z0", "Y00", "Yzz", "X000",
            "a0V", "Z0V", "zzzzzzzzzzzzzzzzzzzzzzzzzzy", "zzzzzzzzzzzzzzzzzzzzzzzzzzz",
            "A00000000000000000000000005", "A000000000000000000000000zz", "B0000000000000000000000000",
        ]),
        below in any::<bool>(),
        n in 1..5000usize,
        from in 0..5000usize,
        len in 0..70usize,
    ) {
        let (a, b) = if below { (None, Some(start)) } else { (Some(start), None) };
        let all = n_keys_between(a, b, n).unwrap();
        let from = from.min(n);
        let to = (from + len).min(n);
        let mut buf = KeyBuf::new();
        n_keys_between_part_into(a, b, n, from..to, &mut buf).unwrap();
        let part: Vec<&str> = buf.iter().map(|k| k.as_str()).collect();
        let want: Vec<&str> = all[from..to].iter().map(|k| k.as_str()).collect();
        prop_assert_eq!(part, want);
    }

    #[test]
    fn jittered_keys_stay_inside((a, b) in bounds(), bits in 0..=64u32, n in 1..10usize) {
        let k = key_between_jittered(a.as_deref(), b.as_deref(), bits).unwrap();
        prop_assert!(OrderKey::parse(k.as_str()).is_ok());
        prop_assert!(inside(&a, &b, k.as_str()));
        let keys = n_keys_between_jittered(a.as_deref(), b.as_deref(), n, bits).unwrap();
        prop_assert!(keys.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(keys.iter().all(|k| inside(&a, &b, k.as_str())));
    }
}

/// The buffer appends: a key already there stays first.
fn buf_first_holds_junk(buf: &mut KeyBuf) {
    n_keys_between_into(None, None, 1, buf).unwrap();
}

/// Base62 value of a rebalanced key's digits.
fn value(key: &str) -> u128 {
    key.bytes().skip(1).fold(0, |v, d| {
        v * 62 + DIGITS.iter().position(|&x| x == d).unwrap() as u128
    })
}

/// Open-ended runs step as `key_between` does one key at a time (npm's
/// definition), from integers of every length (2 to 27 bytes: both sides
/// of the 16-byte fast path) whose digits sit next to the alphabet's
/// jumps (`9`/`A`, `Z`/`a`) and its ends, so that runs of 130 keys cross
/// carries.
#[test]
fn open_ended_runs_step_as_single_keys_do() {
    const N: usize = 130;
    for len in 2..=27u8 {
        for (up, lasts) in [(true, b"89YZyz"), (false, b"1AB0ab")] {
            let head = if up { b'a' + len - 2 } else { b'Z' - (len - 2) };
            for &last in lasts {
                for &before in &[b'0', b'z', last] {
                    let mut start = vec![head];
                    if len > 2 {
                        start.resize(usize::from(len) - 2, if up { b'0' } else { b'z' });
                        start.push(before);
                    }
                    start.push(last);
                    let start = String::from_utf8(start).unwrap();
                    let start = start.as_str();
                    let (mut one_by_one, mut k) = (Vec::new(), start.to_owned());
                    for _ in 0..N {
                        k = if up {
                            key_between(Some(&k), None)
                        } else {
                            key_between(None, Some(&k))
                        }
                        .unwrap()
                        .into_string();
                        one_by_one.push(k.clone());
                    }
                    let run = if up {
                        n_keys_between(Some(start), None, N)
                    } else {
                        one_by_one.reverse();
                        n_keys_between(None, Some(start), N)
                    }
                    .unwrap();
                    let run: Vec<String> = run.into_iter().map(OrderKey::into_string).collect();
                    assert_eq!(run, one_by_one, "from {start}, up: {up}");
                }
            }
        }
    }
}

#[test]
fn rebalance_spaces_evenly_at_the_shortest_length() {
    for n in [1usize, 2, 3, 61, 62, 63, 100, 1000, 3844, 3845, 100_000] {
        let keys = rebalance(n).unwrap();
        assert_eq!(keys.len(), n);
        let len = keys[0].as_str().len();
        assert!(
            keys.iter().all(|k| k.as_str().len() == len),
            "n={n}: one length"
        );
        // Shortest: the integers one digit shorter number fewer than n.
        let capacity = 62u128.pow(len as u32 - 1);
        assert!(
            capacity >= n as u128 && (len == 2 || capacity / 62 < n as u128),
            "n={n}"
        );
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        // Evenly: every gap is within one of capacity / n, and so are the
        // two ends (half a gap each).
        let values: Vec<u128> = keys.iter().map(|k| value(k.as_str())).collect();
        let step = capacity / n as u128;
        for w in values.windows(2) {
            let gap = w[1] - w[0];
            assert!(
                gap == step || gap == step + 1,
                "n={n}: gap {gap}, step {step}"
            );
        }
        assert!(
            values[0] <= step.div_ceil(2),
            "n={n}: first at {}",
            values[0]
        );
        assert!(
            capacity - 1 - values[n - 1] <= step.div_ceil(2) + 1,
            "n={n}"
        );
    }
    assert!(rebalance(0).unwrap().is_empty());
}

/// Two replicas jittering between the same neighbours with 8 bits collide
/// about once in 256 pairs, and the 256 keys come up equally often.
#[test]
fn jitter_collides_at_two_to_the_minus_bits() {
    let draws = 100_000;
    let mut counts: HashMap<String, u64> = HashMap::new();
    let mut keys = Vec::with_capacity(draws);
    for _ in 0..draws {
        let k = key_between_jittered(Some("a0"), Some("a1"), 8)
            .unwrap()
            .into_string();
        *counts.entry(k.clone()).or_default() += 1;
        keys.push(k);
    }
    assert_eq!(counts.len(), 256, "every one of 2^8 keys comes up");
    // Chi-square over 256 cells (255 degrees of freedom: mean 255, sd 22.6).
    let expected = draws as f64 / 256.0;
    let chi2: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 255.0 + 6.0 * 22.6, "chi-square {chi2:.1}");
    // Pairs of independent replicas: collisions ~ Binomial(pairs, 1/256).
    let pairs = draws / 2;
    let collisions = keys.chunks(2).filter(|p| p[0] == p[1]).count() as f64;
    let mean = pairs as f64 / 256.0;
    let sd = (pairs as f64 * (1.0 / 256.0) * (255.0 / 256.0)).sqrt();
    assert!(
        (collisions - mean).abs() < 6.0 * sd,
        "{collisions} collisions in {pairs} pairs, expected {mean:.0}"
    );
}

#[test]
fn bad_bounds_are_typed_errors() {
    assert_eq!(
        key_between(Some("a1"), Some("a0")),
        Err(OrderError::NotAscending)
    );
    assert_eq!(
        key_between(Some("a0 "), None),
        Err(OrderError::Lower(OrderKeyError::InvalidByte {
            index: 2,
            byte: b' '
        }))
    );
    assert_eq!(
        n_keys_between(None, Some("a00"), 2),
        Err(OrderError::Upper(OrderKeyError::TrailingZero { index: 2 }))
    );
    assert_eq!(
        key_between_jittered(None, None, 65),
        Err(OrderError::JitterBits { found: 65 })
    );
}
