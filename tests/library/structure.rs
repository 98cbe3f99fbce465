//! The layering rules, checked on the source: the engine is the ground floor
//! and imports nothing above it, and only the top-level functions reach the
//! per-thread state (before the fix, `engine` took `MAX_LEN` from `id.rs`
//! and `layout.rs` called into `local`, which put 9 modules in one cycle).

use std::path::Path;

fn source(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Asserts that every `crate::` path in the code (not the comments) of the
/// files under `dir` starts with one of `allowed`.
fn imports_only(dir: &str, min_files: usize, allowed: &[&str]) {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut files);
    assert!(files.len() >= min_files, "{dir}: {} files", files.len());
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            for (at, _) in code.match_indices("crate::") {
                assert!(
                    allowed.iter().any(|a| code[at..].starts_with(a)),
                    "{}:{}: {line}",
                    f.display(),
                    i + 1
                );
            }
        }
    }
}

#[test]
fn the_engine_imports_only_itself() {
    imports_only("src/engine", 4, &["crate::engine"]);
}

#[test]
fn only_the_top_reaches_the_thread_state() {
    for file in [
        "src/kuuid/layout.rs",
        "src/kuuid/id/mod.rs",
        "src/kuuid/id/any.rs",
        "src/kuuid/id/random.rs",
        "src/kuuid/lines.rs",
        "src/kuuid/range.rs",
        "src/kuuid/monotonic.rs",
        "src/parse/mod.rs",
        "src/parse/hex.rs",
        "src/time/mod.rs",
        "src/time/error.rs",
        "src/generator/mod.rs",
        "src/generator/ahead.rs",
        "src/generator/io.rs",
        "src/generator/mint.rs",
        "src/clock.rs",
        "src/rng/mod.rs",
        "src/sys/mod.rs",
        "src/sys/clock.rs",
        "src/sys/process_words.rs",
        "src/sys/test_clock.rs",
    ] {
        assert!(
            !source(file).contains("local::"),
            "{file} reaches crate::local"
        );
    }
}

/// The error vocabulary (`src/error/`) sits below every module whose errors
/// it holds, so the umbrella `kuuid::Error` can name them all without an
/// import running back up: it imports only the layers under it (before,
/// `OrderError` and the CouchDB errors lived in `order` and `formats`, which
/// import the per-thread state, which imports the generator, which returns
/// `kuuid::Error`).
#[test]
fn the_error_vocabulary_imports_only_lower_layers() {
    imports_only(
        "src/error",
        3,
        &[
            "crate::error",
            "crate::engine",
            "crate::parse",
            "crate::time",
        ],
    );
}

/// Every intrinsic lives under `src/engine/` (ISA, then algorithm: the
/// base62 and hex codecs, the AES-CTR and xoshiro kernels, ChaCha's rows,
/// the order keys' digit check), as the design note has it: no
/// `std::arch`/`core::arch` path (but the feature-detection macros) and
/// no `_mm` intrinsic in the code of any other file.
#[test]
fn every_intrinsic_lives_under_the_engine() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(files.len() > 50, "{} files", files.len());
    let engine = root.join("src/engine");
    let mut outside = 0;
    for f in files.iter().filter(|f| !f.starts_with(&engine)) {
        outside += 1;
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            // CPU feature detection is no intrinsic: callers may ask.
            let code = line
                .split("//")
                .next()
                .unwrap()
                .replace("std::arch::is_", "is_");
            let intrinsic = [
                "std::arch",
                "core::arch",
                "_mm_",
                "_mm256_",
                "_mm512_",
                "vld1q",
                "vaeseq",
            ]
            .iter()
            .find(|t| code.contains(*t));
            assert!(
                intrinsic.is_none(),
                "{}:{}: {line} (SIMD belongs under src/engine/)",
                f.display(),
                i + 1
            );
        }
    }
    assert!(outside > 40, "{outside} files outside the engine");
}

/// The B-tree charts drawn in the rendered guides are the repository's
/// SVGs: each `docs/*.svg.b64` (the `data:` URI `src/lib.rs` puts in the
/// databases guide) is its SVG in base64. After redrawing a chart:
/// `base64 -w0 docs/btree-sqlite.svg > docs/btree-sqlite.svg.b64`.
#[test]
fn the_rendered_charts_are_the_svgs() {
    fn base64(bytes: &[u8]) -> String {
        const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
            for i in 0..4 {
                out.push(if i <= chunk.len() {
                    char::from(ABC[(n >> (18 - 6 * i) & 63) as usize])
                } else {
                    '='
                });
            }
        }
        out
    }
    assert_eq!(base64(b"Ma"), "TWE=");
    assert_eq!(base64(b"Man!"), "TWFuIQ==");
    for chart in ["btree-sqlite", "btree-postgres"] {
        let svg =
            std::fs::read(format!("{}/docs/{chart}.svg", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let b64 = source(&format!("docs/{chart}.svg.b64"));
        assert!(
            b64 == base64(&svg),
            "docs/{chart}.svg.b64 is not docs/{chart}.svg: base64 -w0 docs/{chart}.svg > docs/{chart}.svg.b64"
        );
    }
}

/// No source file of the workspace's crates (kuuid, kuuid-sequence, the
/// CLI) runs over 500 lines before its tests (`#[cfg(test)]`, or
/// `#[cfg(all(test, ...))]`): a longer one holds more than one concept.
#[test]
fn no_source_file_is_over_500_lines_before_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "sequence/src", "cli/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 140, "{} files", files.len());
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            let before = text
                .lines()
                .position(|l| l.starts_with("#[cfg(test)]") || l.starts_with("#[cfg(all(test"))
                .unwrap_or_else(|| text.lines().count());
            (before > 500).then(|| format!("{}: {before}", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "over 500 lines before the tests: {long:?}");
}
