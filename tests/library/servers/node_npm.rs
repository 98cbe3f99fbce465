//! Against npm kuuid itself, run by node: for a spread of timestamps, every
//! npm function's id must have the prefix and length ours has, and random
//! groups our strict parser accepts. `.ci/run` installs the package and sets
//! `KUUID_NPM_DIR` to the folder holding its `node_modules`; without it the
//! test installs it with npm into `target/tmp` (`tests/support/server.rs`),
//! and without node or npm it says why and passes.

use std::io::Write;

use kuuid::{AnyKuuid, Timestamp};

/// npm's functions, with ours for the same timestamp (prefix, length).
fn ours(name: &str, ms: u64) -> (String, usize) {
    let t = Timestamp::from_millis(ms);
    let id: AnyKuuid = match name {
        "id" => kuuid::id_at(t).unwrap().into(),
        "idms" => kuuid::idms_at(t).unwrap().into(),
        "idr" => kuuid::idr_at(t).unwrap().into(),
        "idmsr" => kuuid::idmsr_at(t).unwrap().into(),
        "ids" => kuuid::ids_at(t).unwrap().into(),
        "idsr" => kuuid::idsr_at(t).unwrap().into(),
        "prefix" => return (kuuid::prefix_at(t).unwrap().to_string(), 8),
        "prefixms" => return (kuuid::prefixms_at(t).unwrap().to_string(), 8),
        "prefixReverse" => return (kuuid::prefix_reverse_at(t).unwrap().to_string(), 8),
        "prefixReverseMs" => return (kuuid::prefix_reverse_ms_at(t).unwrap().to_string(), 8),
        other => panic!("no such npm function {other}"),
    };
    (id.prefix().to_string(), id.as_str().len())
}

const FUNCTIONS: [&str; 10] = [
    "id",
    "idms",
    "idr",
    "idmsr",
    "ids",
    "idsr",
    "prefix",
    "prefixms",
    "prefixReverse",
    "prefixReverseMs",
];

#[test]
fn every_npm_function_matches_at_a_spread_of_times() {
    let Some(dir) = crate::server::address("KUUID_NPM_DIR") else {
        return;
    };
    // 1 ms (npm reads 0 as "now"), second boundaries, and a pseudo-random
    // spread up to the year 2200 with millisecond parts.
    let mut times = vec![1u64, 999, 1000, 1_514_764_800_000, 1_514_764_800_123];
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..200 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        times.push(1 + x % 7_258_118_400_000);
    }
    let script = r#"
        const k = require('kuuid');
        const fns = process.argv[1].split(',');
        let input = '';
        process.stdin.on('data', d => input += d);
        process.stdin.on('end', () => {
            for (const t of input.trim().split('\n').map(Number)) {
                for (const f of fns) console.log(f + ' ' + t + ' ' + k[f](t));
            }
        });
    "#;
    let node_path = std::path::Path::new(&dir).join("node_modules");
    let Some(mut child) =
        crate::server::node(&["-e", script, &FUNCTIONS.join(",")], Some(&node_path))
    else {
        return;
    };
    let list: String = times.iter().map(|t| format!("{t}\n")).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(list.as_bytes())
        .unwrap();
    let out = crate::child::output(child);
    assert!(out.status.success(), "node failed: {:?}", out.status);
    let text = String::from_utf8(out.stdout).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let mut parts = line.split(' ');
        let (name, t, theirs) = (
            parts.next().unwrap(),
            parts.next().unwrap().parse::<u64>().unwrap(),
            parts.next().unwrap(),
        );
        let (prefix, len) = ours(name, t);
        assert_eq!(&theirs[..8], prefix, "{name}({t}): npm {theirs}");
        assert_eq!(theirs.len(), len, "{name}({t}): npm {theirs}");
        if len > 8 {
            AnyKuuid::parse_bytes(theirs.as_bytes())
                .unwrap_or_else(|e| panic!("{name}({t}): npm's {theirs} does not parse: {e}"));
        }
        checked += 1;
    }
    assert_eq!(checked, times.len() * FUNCTIONS.len());
}
