//! The bounds both order benches time (`order.rs` against its peers,
//! `instructions.rs` for the gate), so the two measure the same work; and
//! that `tests/allocations.rs` checks allocate nothing.

use kuuid::order::{key_between, n_keys_between};

/// Bounds a list editor meets: neighbours in a list of 200 items built by
/// appends, then inserts in random places (keys of 2 to 7 characters),
/// and both open ends.
pub fn typical_pairs() -> Vec<(Option<String>, Option<String>)> {
    let mut list: Vec<String> = n_keys_between(None, None, 200)
        .unwrap()
        .into_iter()
        .map(|k| k.into_string())
        .collect();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..300 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let i = 1 + (x % (list.len() as u64 - 1)) as usize;
        let k = key_between(Some(&list[i - 1]), Some(&list[i])).unwrap();
        list.insert(i, k.into_string());
    }
    let mut pairs: Vec<(Option<String>, Option<String>)> = list
        .windows(2)
        .map(|w| (Some(w[0].clone()), Some(w[1].clone())))
        .collect();
    pairs.push((list.last().cloned(), None));
    pairs.push((None, list.first().cloned()));
    assert!(list.iter().all(|k| k.len() < 8));
    pairs
}
