//! The fork token's word under every interleaving loom explores: in a new
//! child (the word reads 0) all threads settle on one token, and a reseed
//! racing with readers never shows 0 or an older token again.
#![cfg(loom)]

use kuuid::__loom::{replace_token, token_of};
use loom::sync::Arc;
use loom::sync::atomic::AtomicU64;
use loom::thread;

/// Two threads and the main thread of a fresh child each find the word at 0
/// and offer their own token: all three get the same one, and it is the
/// word's.
#[test]
fn a_child_settles_on_one_token() {
    loom::model(|| {
        let word = Arc::new(AtomicU64::new(0));
        let handles: Vec<_> = [11u64, 22]
            .into_iter()
            .map(|fresh| {
                let word = word.clone();
                thread::spawn(move || token_of(&*word, || fresh))
            })
            .collect();
        let mine = token_of(&*word, || 33);
        let theirs: Vec<u64> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert!([11, 22, 33].contains(&mine));
        assert!(theirs.iter().all(|&t| t == mine), "{mine} vs {theirs:?}");
        assert_eq!(token_of(&*word, || 44), mine, "settled for good");
    });
}

/// Two reseeds race with a reader: the reader never sees 0, never sees the
/// old token after a new one, and afterwards the old token is gone.
#[test]
fn reseeds_move_the_token_for_good() {
    loom::model(|| {
        let word = Arc::new(AtomicU64::new(7));
        let reseeders: Vec<_> = [100u64, 200]
            .into_iter()
            .map(|fresh| {
                let word = word.clone();
                thread::spawn(move || replace_token(&*word, || fresh))
            })
            .collect();
        let a = token_of(&*word, || 0);
        let b = token_of(&*word, || 0);
        assert!(a != 0 && b != 0);
        assert!(!(a != 7 && b == 7), "went back to the old token");
        for r in reseeders {
            r.join().unwrap();
        }
        let last = token_of(&*word, || 0);
        assert!(last == 100 || last == 200, "old token survived: {last}");
    });
}
