//! Order keys: any bytes as two bounds never panic; for valid `a < b` the
//! key made is valid and strictly between, so are `n` keys (ascending) and
//! jittered keys; a key parses back to the text it was read from.
#![no_main]

use kuuid::order::{OrderKey, OrderKeyRef, key_between, key_between_jittered, n_keys_between};
use libfuzzer_sys::fuzz_target;

fn inside(a: Option<&str>, b: Option<&str>, k: &str) -> bool {
    a.is_none_or(|a| a < k) && b.is_none_or(|b| k < b)
}

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    // Bounds split at the first 0xFF; an empty side is an open end.
    let (a, b) = match rest.iter().position(|&x| x == 0xFF) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let (Ok(a), Ok(b)) = (std::str::from_utf8(a), std::str::from_utf8(b)) else {
        return;
    };
    for text in [a, b] {
        if let Ok(k) = OrderKey::parse(text) {
            assert_eq!(k.to_string(), text);
            assert_eq!(OrderKeyRef::parse(text).unwrap().as_str(), text);
        }
    }
    let (a, b) = ((!a.is_empty()).then_some(a), (!b.is_empty()).then_some(b));
    let valid = |s: Option<&str>| s.is_none_or(|s| OrderKey::parse(s).is_ok());
    let reversed = matches!((a, b), (Some(x), Some(y)) if x >= y);
    match key_between(a, b) {
        Ok(k) => {
            assert!(valid(a) && valid(b) && !reversed);
            assert!(OrderKey::parse(k.as_str()).is_ok(), "{k}");
            assert!(inside(a, b, k.as_str()), "{a:?} {k} {b:?}");
        }
        Err(_) => {
            assert!(!valid(a) || !valid(b) || reversed);
            return;
        }
    }
    let keys = n_keys_between(a, b, usize::from(n % 32)).unwrap();
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
    assert!(keys.iter().all(|k| inside(a, b, k.as_str())));
    let jittered = key_between_jittered(a, b, u32::from(n % 65)).unwrap();
    assert!(OrderKey::parse(jittered.as_str()).is_ok());
    assert!(inside(a, b, jittered.as_str()));
});
