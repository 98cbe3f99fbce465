//! Every `u32`, on every engine path this CPU runs, scalar included,
//! against an odometer: each encodes every word to the same six digits.
//! (Decoding is checked against scalar at every group boundary, on every
//! single-byte change and on random batches: `engine_paths.rs`.)
//!
//! The odometer is the reference because it shares nothing with the
//! engine's multiply-high pair encoder: the digits of `x + 1` are those of
//! `x` with the last digit stepped and the carry passed left. A naive
//! `% 62` loop sets it at the start of each chunk (and so checks it there).
//! One pass serves every path (the words and the reference are made once),
//! in chunks that stay in the L2 cache. The test profile is optimized
//! (Cargo.toml); this is still the longest test (about a minute on 2 vCPUs
//! of an AMD Zen 3, the scalar encoder the largest part, once a word), so
//! the README's command leaves it to CI's `exhaustive` step (`--ignored`).

use kuuid::engine::{ALPHABET, Isa, MAX_GROUP, encode_with};

/// The naive reference: repeated `% 62`, most significant digit first.
fn naive(mut x: u32) -> [u8; 6] {
    let mut out = [b'0'; 6];
    for slot in out.iter_mut().rev() {
        *slot = ALPHABET[(x % 62) as usize];
        x /= 62;
    }
    out
}

/// Six base62 digits that count up by one.
struct Odometer {
    digits: [u8; 6],
    /// Their ASCII, digit `i` in byte `i`: kept in a register, as byte
    /// stores to an array that is then read whole would stall each step.
    text: u64,
}

impl Odometer {
    fn at(x: u32) -> Self {
        let text = naive(x);
        let digits = text.map(|c| ALPHABET.iter().position(|&a| a == c).unwrap() as u8);
        let mut bytes = [0; 8];
        bytes[..6].copy_from_slice(&text);
        let text = u64::from_le_bytes(bytes);
        Odometer { digits, text }
    }

    fn text(&self) -> [u8; 6] {
        let bytes = self.text.to_le_bytes();
        [bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5]]
    }

    /// Writes the six digits to `out` from the register, in two stores.
    #[inline(always)]
    fn write(&self, out: &mut [u8; 6]) {
        out[..4].copy_from_slice(&(self.text as u32).to_le_bytes());
        out[4..].copy_from_slice(&((self.text >> 32) as u16).to_le_bytes());
    }

    #[inline(always)]
    fn step(&mut self) {
        for i in (0..6).rev() {
            let carry = self.digits[i] == 61;
            self.digits[i] = if carry { 0 } else { self.digits[i] + 1 };
            let byte = u64::from(ALPHABET[usize::from(self.digits[i])]);
            self.text = self.text & !(0xFF << (8 * i)) | byte << (8 * i);
            if !carry {
                return;
            }
        }
    }
}

const PREFIX: &[u8; 8] = b"001eVnWK";
/// 4096 words: 1024 ids, 32 KiB of text a buffer.
const CHUNK: usize = 1 << 12;
/// Half a 32-id block: see [`encodes_like`].
const ROTATE: usize = 16;

/// Panics naming the first id of `got` that differs from `want`.
fn first_difference(isa: Isa, words: &[u32], got: &[u8], want: &[u8]) -> ! {
    let i = got.iter().zip(want).position(|(a, b)| a != b).unwrap_or(0);
    let id = i / 32;
    panic!(
        "{isa} differs from the odometer at id {id} (words {:?}): {:?} vs {:?}",
        &words[4 * id..4 * id + 4],
        String::from_utf8_lossy(&got[32 * id..32 * id + 32]),
        String::from_utf8_lossy(&want[32 * id..32 * id + 32]),
    );
}

/// `isa` encodes `words` (4 a 32-byte id) as `want` says. A kernel may hand
/// some places of its block to other code (sse41 gives the last quarter of
/// each 32 ids to the scalar table): the whole chunk, then the chunk
/// without its first ROTATE ids, puts every word at a place of each kind.
/// Scalar has no block (every place is the same code): one pass, which
/// takes a fifth off this test, the longest of the README's command.
fn encodes_like(isa: Isa, words: &[u32], want: &[u8], got: &mut [u8]) {
    let ids = words.len() / 4;
    let skips: &[usize] = if isa == Isa::Scalar {
        &[0]
    } else {
        &[0, ROTATE]
    };
    for &skip in skips {
        let (w, n) = (&words[4 * skip..], ids - skip);
        encode_with(isa, PREFIX, w, 4, got, 32, n).unwrap();
        if got[..32 * n] != want[32 * skip..] {
            first_difference(isa, w, &got[..32 * n], &want[32 * skip..]);
        }
    }
}

#[test]
#[ignore = "2^32 words a path, about a minute of 2 cores: CI's exhaustive step runs it \
            (cargo test --all-features --test library -- --ignored exhaustive::)"]
fn every_u32_on_every_path_counts_like_an_odometer() {
    let paths = Isa::available();
    assert!(paths.contains(&Isa::Scalar));
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(8));
    let chunks = (1usize << 32) / CHUNK;
    let done: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let paths = &paths;
                s.spawn(move || {
                    let mut words = vec![0u32; CHUNK];
                    let mut want = vec![0u8; CHUNK / 4 * 32];
                    let mut got = want.clone();
                    let mut checked = 0;
                    for c in (t..chunks).step_by(threads) {
                        let start = (c * CHUNK) as u32;
                        let mut odometer = Odometer::at(start);
                        for (k, w) in words.iter_mut().enumerate() {
                            *w = start + k as u32;
                        }
                        for text in want.chunks_exact_mut(32) {
                            text[..8].copy_from_slice(PREFIX);
                            for g in 0..4 {
                                odometer
                                    .write((&mut text[8 + 6 * g..14 + 6 * g]).try_into().unwrap());
                                odometer.step();
                            }
                        }
                        // The odometer kept count over the chunk.
                        if let Some(next) = start.checked_add(CHUNK as u32) {
                            assert_eq!(odometer.text(), naive(next), "odometer at {next}");
                        }
                        for &isa in paths {
                            encodes_like(isa, &words, &want, &mut got);
                        }
                        checked += CHUNK;
                    }
                    checked
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(done, 1 << 32);
}

#[test]
fn the_odometer_counts_like_division_across_every_carry() {
    // Each carry depth, and the top of the range.
    for x in [
        0,
        60,
        61,
        62,
        3843,
        3844,
        238_327,
        14_776_335,
        916_132_831,
        u32::MAX - 70,
    ] {
        let mut odometer = Odometer::at(x);
        for y in x..x.saturating_add(70) {
            assert_eq!(odometer.text(), naive(y), "{y}");
            odometer.step();
        }
    }
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
