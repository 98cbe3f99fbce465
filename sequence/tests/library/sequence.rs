//! Sequences leasing blocks: uniqueness and per-thread order across
//! threads and block switches, the prefetch thread, exhaustion as a typed
//! error, sharded counters that stay in their ranges, and rendering.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use kuuid_sequence::render::{self, RenderError};
use kuuid_sequence::{
    BlockSource, Counter, CounterStore, Error, MemoryCounters, Sequence, ShardedCounter,
};
use proptest::prelude::*;

/// Mints `per_thread` values on each of `threads` threads; each thread's
/// values in order.
fn mint_on_threads<S: BlockSource>(
    seq: &Arc<Sequence<S>>,
    threads: usize,
    per_thread: usize,
) -> Vec<Vec<u64>> {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| s.spawn(|| (0..per_thread).map(|_| seq.next().unwrap()).collect()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn assert_unique_and_each_increasing(runs: &[Vec<u64>]) {
    let mut seen = HashSet::new();
    for run in runs {
        assert!(
            run.windows(2).all(|w| w[0] < w[1]),
            "a thread's values went down"
        );
        for &v in run {
            assert!(seen.insert(v), "{v} handed out twice");
        }
    }
}

#[test]
fn threads_get_unique_values_each_in_order_across_many_blocks() {
    for block in [1, 7, 100, 1000, 4096] {
        let seq = Arc::new(Sequence::new(Counter::new(MemoryCounters::new(), "n"), block).unwrap());
        let runs = mint_on_threads(&seq, 4, 20_000);
        assert_unique_and_each_increasing(&runs);
        // Burned values stay few: a run per thread (at most half a block),
        // the blocks in flight, and the run of a thread preempted between
        // drawing its ticket and reading its block while three blocks went
        // by (the ring keeps four). On a loaded machine those preemptions
        // are common with small blocks, so the bound only catches waste
        // that runs away.
        let max = runs.iter().flatten().max().unwrap();
        assert!(*max < 2 * 80_000 + 3 * block, "block {block}: max {max}");
    }
}

#[test]
fn fill_hands_out_the_same_kind_of_values() {
    let seq = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 1000).unwrap();
    let a = seq.next().unwrap();
    let mut v = vec![0u64; 5000];
    seq.fill(&mut v).unwrap();
    let b = seq.next().unwrap();
    assert!(a < v[0] && v.windows(2).all(|w| w[0] < w[1]) && v[4999] < b);
}

/// Counts leases and notes the thread that made each.
struct Watched {
    counter: Counter<MemoryCounters>,
    leases: AtomicU64,
    threads: Mutex<Vec<String>>,
}

impl BlockSource for Watched {
    fn lease(&self, len: u64) -> Result<u64, Error> {
        self.leases.fetch_add(1, Ordering::Relaxed);
        let name = std::thread::current().name().unwrap_or("").to_owned();
        self.threads.lock().unwrap().push(name);
        self.counter.lease(len)
    }
}

#[test]
fn the_next_block_is_leased_in_the_background_before_it_is_needed() {
    let watched = Arc::new(Watched {
        counter: Counter::new(MemoryCounters::new(), "n"),
        leases: AtomicU64::new(0),
        threads: Mutex::new(Vec::new()),
    });
    // Blocks of 100, each taken whole by the thread: taking one asks for
    // the next. The consumer then waits until the prefetch thread has
    // started that lease (a consumer doing real work between values gives
    // it that time; a sleep here failed when a loaded machine left the
    // prefetch thread unscheduled for its length). Needing the block
    // before the lease ends is fine: the consumer then waits for the
    // installers' lock and finds the block installed.
    let seq = Sequence::new(watched.clone(), 100).unwrap();
    let patience = std::time::Instant::now() + std::time::Duration::from_secs(60);
    for i in 0..400u64 {
        seq.next().unwrap();
        if i % 100 == 0 {
            // Block i / 100 taken (the first leased inline): the next one's
            // lease is the (i / 100 + 2)-th.
            while watched.leases.load(Ordering::Relaxed) < i / 100 + 2 {
                assert!(std::time::Instant::now() < patience, "no prefetch in 60 s");
                std::thread::yield_now();
            }
        }
    }
    let threads = watched.threads.lock().unwrap().clone();
    assert!(threads.len() >= 4, "{threads:?}");
    assert_eq!(threads[0], std::thread::current().name().unwrap());
    assert!(
        threads[1..].iter().all(|t| t == "kuuid-sequence-prefetch"),
        "{threads:?}"
    );
}

#[test]
fn a_used_up_counter_is_a_typed_error_and_stays_one() {
    let seq = Sequence::new(
        Counter::new(MemoryCounters::new(), "n").up_to(1 + 3 * 64),
        64,
    )
    .unwrap();
    let mut got = Vec::new();
    let err = loop {
        match seq.next() {
            Ok(v) => got.push(v),
            Err(e) => break e,
        }
    };
    assert_eq!(got, (1..=192).collect::<Vec<_>>());
    assert!(
        matches!(
            err,
            Error::Exhausted {
                len: 64,
                limit: 193,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("\"n\""), "{err}");
    assert!(matches!(seq.next(), Err(Error::Exhausted { .. })));
}

#[test]
fn lengths_the_store_cannot_hold_are_refused() {
    let c = Counter::new(MemoryCounters::new(), "n");
    assert!(matches!(c.lease(0), Err(Error::Length { .. })));
    assert!(matches!(
        Sequence::new(Counter::new(MemoryCounters::new(), "n"), 0),
        Err(Error::Length { .. })
    ));
    // The longest block is a trillion values (2^40), and it works.
    let longest = Sequence::new(Counter::new(MemoryCounters::new(), "n"), 1 << 40).unwrap();
    assert_eq!(longest.next().unwrap(), 1);
    assert!(matches!(
        Sequence::new(Counter::new(MemoryCounters::new(), "n"), (1 << 40) + 1),
        Err(Error::Length { max, .. }) if max == 1 << 40
    ));
    assert!(ShardedCounter::new(MemoryCounters::new(), "s", 0, 10).is_err());
    assert!(ShardedCounter::new(MemoryCounters::new(), "s", 3, u64::MAX / 2).is_err());
    let s = ShardedCounter::new(MemoryCounters::new(), "s", 3, 10).unwrap();
    assert!(matches!(s.lease(11), Err(Error::Length { .. })));
}

/// Shard rows stay inside their own ranges until every one is used up,
/// then leasing fails; no value is handed out twice.
fn sharded_counters_keep_to_their_ranges(store: impl CounterStore, name: &str) {
    let (shards, range, len) = (4u64, 1000u64, 100u64);
    let s = ShardedCounter::new(store, name, shards, range).unwrap();
    let mut firsts = Vec::new();
    let err = loop {
        match s.lease(len) {
            Ok(first) => firsts.push(first),
            Err(e) => break e,
        }
    };
    assert!(matches!(err, Error::Exhausted { .. }), "{err}");
    // Every row owns `range` values: 10 blocks each.
    assert_eq!(firsts.len(), 40);
    let mut values = HashSet::new();
    let mut used = vec![0u64; shards as usize];
    for first in firsts {
        let k = s.shard_of(first).unwrap();
        assert_eq!(
            s.shard_of(first + len - 1).unwrap(),
            k,
            "block at {first} crosses a range"
        );
        used[k as usize] += 1;
        assert!((first..first + len).all(|v| values.insert(v)));
    }
    assert_eq!(used, [10, 10, 10, 10]);
}

#[test]
fn sharded_counters_in_memory() {
    sharded_counters_keep_to_their_ranges(MemoryCounters::new(), "s");
}

#[test]
fn sharded_rows_are_picked_at_random() {
    let s = ShardedCounter::new(MemoryCounters::new(), "s", 8, 1 << 30).unwrap();
    let rows: HashSet<u64> = (0..200)
        .map(|_| s.shard_of(s.lease(1).unwrap()).unwrap())
        .collect();
    assert_eq!(rows.len(), 8);
}

proptest! {
    #[test]
    fn decimal_round_trips_and_refuses_what_does_not_fit(v in any::<u64>(), width in 1usize..=20) {
        let mut buf = [0u8; 20];
        let fits = width == 20 || v < 10u64.pow(width as u32);
        match render::encode_decimal(v, width, &mut buf) {
            Ok(text) => {
                prop_assert!(fits);
                prop_assert_eq!(text.len(), width);
                prop_assert_eq!(&*text, format!("{v:0width$}"));
                prop_assert_eq!(render::decode_decimal(text, width).unwrap(), v);
            }
            Err(e) => {
                prop_assert!(!fits);
                prop_assert_eq!(e, RenderError::TooWide { value: v, width });
            }
        }
    }

    #[test]
    fn base62_round_trips_and_sorts_as_the_numbers(a in any::<u64>(), b in any::<u64>()) {
        let (mut x, mut y) = ([0u8; 11], [0u8; 11]);
        let (ta, tb) = (render::encode_base62(a, &mut x).to_owned(), render::encode_base62(b, &mut y).to_owned());
        prop_assert_eq!(render::decode_base62(&ta).unwrap(), a);
        prop_assert_eq!(ta.cmp(&tb), a.cmp(&b));
        // An independent conversion: repeated division.
        let mut v = a;
        let mut digits = Vec::new();
        for _ in 0..11 {
            digits.push(kuuid::engine::ALPHABET[(v % 62) as usize]);
            v /= 62;
        }
        digits.reverse();
        prop_assert_eq!(ta.as_bytes(), &digits[..]);
    }
}

#[test]
fn bad_text_is_a_typed_error() {
    assert_eq!(
        render::decode_base62("0000000000"),
        Err(RenderError::Length {
            expected: &[render::BASE62_LEN],
            found: 10
        })
    );
    assert_eq!(
        render::decode_base62("00000-00000"),
        Err(RenderError::InvalidByte {
            index: 5,
            byte: b'-'
        })
    );
    assert_eq!(
        render::decode_base62("zzzzzzzzzzz"),
        Err(RenderError::Overflow)
    );
    assert_eq!(
        render::decode_decimal("99999999999999999999", 20),
        Err(RenderError::Overflow)
    );
    assert_eq!(
        render::encode_decimal(1, 0, &mut [0u8; 4]),
        Err(RenderError::Width(0))
    );
    assert_eq!(
        render::encode_decimal(1, 12, &mut [0u8; 4]),
        Err(RenderError::BufferTooSmall {
            needed: 12,
            found: 4
        })
    );
    // One wording for a short buffer, here and in `kuuid::Error`.
    assert_eq!(
        render::encode_decimal(1, 12, &mut [0u8; 4])
            .unwrap_err()
            .to_string(),
        "buffer of 4 bytes is too small, 12 needed"
    );
    assert_eq!(
        kuuid::id()
            .encode_to(&mut [0u8; 31])
            .unwrap_err()
            .to_string(),
        "buffer of 31 bytes is too small, 32 needed"
    );
    for width in 1..=render::MAX_DECIMAL_WIDTH {
        let text = "1".repeat(width + 1);
        let err = render::decode_decimal(&text, width).unwrap_err();
        assert!(
            matches!(err, RenderError::Length { expected: [w], found }
                     if *w == width && found == width + 1),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!("length is {} bytes, expected {width}", width + 1)
        );
    }
}
