//! Order keys against npm `fractional-indexing` 4.0.0 itself, run by node:
//! 10^5 random operation sequences (appends, prepends, inserts between
//! random neighbours, n-key inserts), random pairs of keys over every head,
//! and long runs that carry across heads; every key npm returns must be the
//! key we return for the same bounds. `.ci/run` installs the package next
//! to npm kuuid (`KUUID_NPM_DIR`); without it the test installs both with
//! npm into `target/tmp`, and without node or npm it says why and passes.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use kuuid::order::{OrderKey, key_between, n_keys_between};

/// One call: bounds (`None` is npm's `null`) and a count (1 is
/// `generateKeyBetween`, more is `generateNKeysBetween`).
struct Op {
    a: Option<String>,
    b: Option<String>,
    n: usize,
}

impl Op {
    fn ours(&self) -> Vec<String> {
        let (a, b) = (self.a.as_deref(), self.b.as_deref());
        let keys = if self.n == 1 {
            vec![key_between(a, b).unwrap()]
        } else {
            n_keys_between(a, b, self.n).unwrap()
        };
        keys.into_iter().map(OrderKey::into_string).collect()
    }

    fn line(&self) -> String {
        format!(
            "{} {} {}\n",
            self.a.as_deref().unwrap_or("-"),
            self.b.as_deref().unwrap_or("-"),
            self.n
        )
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEQUENCES: usize = 100_000;
const OPS_PER_SEQUENCE: usize = 8;

/// Operations on a list that grows by our own answers: each op's bounds
/// are neighbours in the list as we see it, and npm is asked the same.
fn sequences(rng: &mut Rng, ops: &mut Vec<(Op, Vec<String>)>) {
    for _ in 0..SEQUENCES {
        let mut list: Vec<String> = Vec::new();
        for _ in 0..OPS_PER_SEQUENCE {
            let n = if rng.below(4) == 0 {
                2 + rng.below(11)
            } else {
                1
            };
            let (at, a, b) = if list.is_empty() {
                (0, None, None)
            } else {
                match rng.below(3) {
                    0 => (list.len(), list.last().cloned(), None),
                    1 => (0, None, list.first().cloned()),
                    _ => {
                        let i = rng.below(list.len() + 1);
                        let a = i.checked_sub(1).map(|j| list[j].clone());
                        (i, a, list.get(i).cloned())
                    }
                }
            };
            let op = Op { a, b, n };
            let keys = op.ours();
            list.splice(at..at, keys.iter().cloned());
            ops.push((op, keys));
        }
    }
}

/// A random valid key: any head, its integer digits, a fraction of 0 to 4
/// digits not ending in `0`.
fn random_key(rng: &mut Rng) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    loop {
        let head = DIGITS[10 + rng.below(52)];
        let int_len = if head >= b'a' {
            usize::from(head - b'a') + 2
        } else {
            usize::from(b'Z' - head) + 2
        };
        let mut key = vec![head];
        // Mostly small digits and many zeros and z's, where carries happen.
        for _ in 1..int_len + rng.below(5) {
            key.push(match rng.below(4) {
                0 => b'0',
                1 => b'z',
                _ => DIGITS[rng.below(62)],
            });
        }
        let key = String::from_utf8(key).unwrap();
        if OrderKey::parse(&key).is_ok() {
            return key;
        }
    }
}

fn pairs(rng: &mut Rng, ops: &mut Vec<(Op, Vec<String>)>) {
    for _ in 0..20_000 {
        let (x, y) = (random_key(rng), random_key(rng));
        let (a, b) = if x < y { (x, y) } else { (y, x) };
        let candidates = [
            (Some(a.clone()), Some(b.clone()), 1),
            (Some(a.clone()), None, 1),
            (None, Some(b.clone()), 1),
            (Some(a.clone()), Some(b.clone()), 5),
        ];
        for (a, b, n) in candidates {
            if a.is_some() && a == b {
                continue;
            }
            let op = Op { a, b, n };
            let keys = op.ours();
            ops.push((op, keys));
        }
    }
}

/// Runs long enough to carry across heads, from both open ends, and
/// repeated bisection of one gap (keys grow to about 170 characters).
fn long_runs(ops: &mut Vec<(Op, Vec<String>)>) {
    let largest = format!("z{}", "z".repeat(26));
    let above_smallest = format!("A{}1", "0".repeat(26));
    for (a, b, n) in [
        (None, None, 5_000),
        (None, Some("a0".to_string()), 5_000),
        (Some("Zz".to_string()), Some("a1".to_string()), 3_000),
        (Some(largest.clone()), None, 100),
        (None, Some(above_smallest), 100),
    ] {
        let op = Op { a, b, n };
        let keys = op.ours();
        ops.push((op, keys));
    }
    let (mut lo, mut hi) = ("a0".to_string(), "a1".to_string());
    for i in 0..1_000 {
        let op = Op {
            a: Some(lo.clone()),
            b: Some(hi.clone()),
            n: 1,
        };
        let keys = op.ours();
        if i % 2 == 0 {
            hi = keys[0].clone();
        } else {
            lo = keys[0].clone();
        }
        ops.push((op, keys));
    }
}

#[test]
fn every_key_matches_npm_fractional_indexing() {
    let Some(dir) = crate::server::address("KUUID_NPM_DIR") else {
        return;
    };
    let module = Path::new(&dir).join("node_modules/fractional-indexing/src/index.js");
    if !module.exists() {
        crate::server::skip(format_args!(
            "{} is missing; .ci/run installs fractional-indexing@4.0.0",
            module.display()
        ));
        return;
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut ops = Vec::new();
    sequences(&mut rng, &mut ops);
    pairs(&mut rng, &mut ops);
    long_runs(&mut ops);

    // Every line in, one line out: the keys joined by spaces, or the error.
    let script = r#"
        import(process.argv[1]).then(m => {
            const out = [];
            let input = '';
            process.stdin.on('data', d => input += d);
            process.stdin.on('end', () => {
                for (const line of input.split('\n')) {
                    if (!line) continue;
                    const [a, b, n] = line.split(' ');
                    const lo = a === '-' ? null : a, hi = b === '-' ? null : b;
                    try {
                        out.push(n === '1' ? m.generateKeyBetween(lo, hi)
                                           : m.generateNKeysBetween(lo, hi, Number(n)).join(' '));
                    } catch (e) {
                        out.push('ERR ' + e.message);
                    }
                }
                process.stdout.write(out.join('\n') + '\n');
            });
        });
    "#;
    let Some(mut child) = crate::server::node(&["-e", script, module.to_str().unwrap()], None)
    else {
        return;
    };
    let input: String = ops.iter().map(|(op, _)| op.line()).collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let reader = BufReader::new(child.stdout.take().unwrap());
    let child = crate::child::Watched::new(child);
    let mut keys = 0;
    let mut lines = 0;
    for (line, (op, ours)) in reader.lines().zip(&ops) {
        let theirs = line.unwrap();
        assert_eq!(
            theirs,
            ours.join(" "),
            "npm and kuuid differ for {}",
            op.line().trim_end()
        );
        keys += ours.len();
        lines += 1;
    }
    writer.join().unwrap().unwrap();
    assert!(child.wait().success(), "node failed");
    assert_eq!(
        lines,
        ops.len(),
        "node answered {lines} of {} calls",
        ops.len()
    );
    assert!(keys > 1_000_000, "{keys} keys compared");
}
