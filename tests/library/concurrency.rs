//! Uniqueness across threads, a birthday-count control that proves the
//! duplicate check (and the randomness) works, and clock steps under load.

use kuuid::clock::{ManualClock, MonotonicClock, Seen};
use kuuid::{Generator, Kuuid, Layout};

/// Ids per thread: 10^7 (the figure; the test profile is
/// optimized, see Cargo.toml).
const PER_THREAD: usize = 10_000_000;

/// A 64-bit fingerprint of an id's random part.
fn fingerprint(id: &Kuuid) -> u64 {
    let b = id.as_bytes();
    let w = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
    (w(8) ^ w(16).rotate_left(21) ^ w(24).rotate_left(43)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[test]
fn two_threads_mint_without_a_duplicate() {
    let per_thread: Vec<Vec<Kuuid>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| s.spawn(|| (0..PER_THREAD).map(|_| kuuid::id()).collect::<Vec<_>>()))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let all: Vec<&Kuuid> = per_thread.iter().flatten().collect();
    assert_eq!(all.len(), 2 * PER_THREAD);
    let mut fps: Vec<u64> = all.iter().map(|id| fingerprint(id)).collect();
    fps.sort_unstable();
    let clashes: Vec<u64> = fps
        .windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .collect();
    // A fingerprint clash is confirmed (or cleared) on the full ids.
    for fp in clashes {
        let same: Vec<&&Kuuid> = all.iter().filter(|id| fingerprint(id) == fp).collect();
        for (i, a) in same.iter().enumerate() {
            for b in &same[i + 1..] {
                assert_ne!(a, b, "duplicate id");
            }
        }
    }
}

/// Pairs of equal values among `v` (a run of r equal values is r(r-1)/2 pairs).
fn colliding_pairs(mut v: Vec<u32>) -> u64 {
    v.sort_unstable();
    let mut pairs = 0u64;
    let mut run = 1u64;
    for w in v.windows(2) {
        if w[0] == w[1] {
            run += 1;
        } else {
            pairs += run * (run - 1) / 2;
            run = 1;
        }
    }
    pairs + run * (run - 1) / 2
}

/// Keep only 32 random bits of 10^6 ids: the birthday bound predicts
/// n(n-1)/2 / 2^32 = 116.4 colliding pairs (Poisson, sd 10.8). Seeing that
/// number proves the duplicate counting works and the words are uniform;
/// far fewer or far more would mean a broken counter or a biased RNG.
#[test]
fn reduced_entropy_shows_the_predicted_birthday_count() {
    const N: usize = 1_000_000;
    let expected = (N as f64) * (N as f64 - 1.0) / 2.0 / 2f64.powi(32);
    for mut g in [Generator::secure(), Generator::fast()] {
        let mut ids = vec![Kuuid::default(); N];
        g.fill(&mut ids);
        for group in 0..4 {
            let words: Vec<u32> = ids.iter().map(|id| id.random_words()[group]).collect();
            let pairs = colliding_pairs(words) as f64;
            let sd = expected.sqrt();
            assert!(
                (pairs - expected).abs() < 6.0 * sd,
                "{}: group {group}: {pairs} colliding pairs, expected {expected:.1}",
                g.rng_name()
            );
        }
        // The full 128 bits: none.
        let mut strs: Vec<&str> = ids.iter().map(|i| i.as_str()).collect();
        strs.sort_unstable();
        strs.dedup();
        assert_eq!(strs.len(), N);
    }
}

/// Two threads read the process-style clock and mint prefixes while the wall
/// clock steps back an hour and later forward: no thread's prefixes ever
/// decrease, and none goes below what any thread had before the step.
#[test]
fn prefixes_never_decrease_when_the_clock_steps_back() {
    let start = 1_800_000_000_000u64;
    let clock = MonotonicClock::new(ManualClock::new(start));
    let stop = std::sync::atomic::AtomicBool::new(false);
    let step_done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        let minters: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut seen = Seen::default();
                    let mut last = String::new();
                    let mut after_step = Vec::new();
                    let mut n = 0u64;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        for layout in [Layout::SECONDS, Layout::MILLIS] {
                            let units = if layout == Layout::SECONDS {
                                clock.secs(&mut seen) * 1000
                            } else {
                                clock.millis(&mut seen)
                            };
                            let id =
                                Kuuid::from_parts(layout.prefix(units).unwrap(), &[1, 2, 3, 4])
                                    .unwrap();
                            if layout == Layout::SECONDS {
                                assert!(id.as_str() >= last.as_str(), "{id} after {last}");
                                last = id.as_str().to_owned();
                                if step_done.load(std::sync::atomic::Ordering::Relaxed) {
                                    after_step.push(id.timestamp(layout).as_secs());
                                }
                            }
                        }
                        n += 1;
                    }
                    (n, after_step)
                })
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(20));
        clock.source().set(start + 1500);
        std::thread::sleep(std::time::Duration::from_millis(20));
        clock.source().set(start + 1500 - 3_600_000); // an hour back
        step_done.store(true, std::sync::atomic::Ordering::Relaxed);
        std::thread::sleep(std::time::Duration::from_millis(30));
        clock.source().set(start + 2500); // caught up and past
        std::thread::sleep(std::time::Duration::from_millis(20));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for m in minters {
            let (n, after) = m.join().unwrap();
            assert!(n > 100, "the minters ran");
            assert!(!after.is_empty());
            // Nothing minted after the step went below the pre-step second.
            assert!(
                after.iter().all(|&s| s >= (start + 1500) / 1000),
                "{after:?}"
            );
            assert_eq!(*after.last().unwrap(), (start + 2500) / 1000);
        }
    });
    // The milliseconds side held too: a newcomer sees the newest.
    let mut seen = Seen::default();
    clock.source().set(0);
    assert_eq!(clock.millis(&mut seen), start + 2500);
}
