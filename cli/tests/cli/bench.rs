//! `kuuid bench`: every row is there and positive, `--json` is one
//! document that `--baseline` reads back, and a bad baseline is one line
//! and exit 2.

use serde_json::Value;

use crate::common;
use common::{kuuid, stderr};

/// A small, fast run as JSON.
fn json(extra: &[&str]) -> Value {
    let mut args = vec![
        "bench",
        "--quick",
        "--json",
        "-n",
        "2000",
        "--rounds",
        "1",
        "--threads",
        "2",
    ];
    args.extend(extra);
    let o = kuuid(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A small, fast run's table, on `threads` threads, next to the saved
/// `baseline` run (written to a temporary file) where one is given.
fn table(threads: &str, baseline: Option<&Value>) -> String {
    let path =
        std::env::temp_dir().join(format!("kuuid-bench-{}-{threads}.json", std::process::id()));
    let mut args = vec![
        "bench",
        "--quick",
        "-n",
        "2000",
        "--rounds",
        "1",
        "--threads",
        threads,
    ];
    if let Some(doc) = baseline {
        std::fs::write(&path, serde_json::to_vec(doc).unwrap()).unwrap();
        args.extend(["--baseline", path.to_str().unwrap()]);
    }
    let o = kuuid(&args);
    let _ = std::fs::remove_file(&path);
    assert!(o.status.success(), "{}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

fn names(doc: &Value) -> Vec<String> {
    doc["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn json_has_the_header_and_every_figure() {
    let doc = json(&[]);
    assert_eq!(doc["schema"], "kuuid-bench/1");
    let h = &doc["header"];
    for key in ["kuuid_version", "cpu", "engine_path", "target"] {
        assert!(!h[key].as_str().unwrap().is_empty(), "{key}");
    }
    assert!(h["cores"].as_u64().unwrap() >= 1);
    // The run's date, to the second, as `kuuid inspect` would read it.
    let date = h["date"].as_str().unwrap();
    let t: kuuid::Timestamp = date.parse().unwrap();
    assert!(
        t <= kuuid::Timestamp::now() && t.as_millis().is_multiple_of(1000),
        "{date}"
    );
    if cfg!(all(target_arch = "x86_64", target_os = "linux")) {
        for key in ["family", "model"] {
            assert!(h[key].as_u64().is_some(), "{key}: {h}");
        }
        assert!(!h["vendor"].as_str().unwrap().is_empty());
    }
    let names = names(&doc);
    let has = |n: &str| names.iter().any(|x| x == n);
    for isa in kuuid::engine::Isa::available() {
        assert!(has(&format!("decode/{isa}")), "{names:?}");
        assert!(
            names.iter().any(|n| n.starts_with(&format!("fill/{isa}/"))),
            "{names:?}"
        );
    }
    for n in [
        "limit/store/l2",
        "limit/store/dram",
        "clock/millis",
        "v7/single",
        "objectid/bulk-text",
        "ulid/single",
        "ulid/bulk-text",
        "ulid/parse_many",
        "ksuid/bulk-text",
        "couch/sequential",
    ] {
        assert!(has(n), "{n} missing: {names:?}");
    }
    // Thread rows name the process's path.
    let path = h["engine_path"].as_str().unwrap();
    for t in ["fill/1", "fill/2", "id/2"] {
        let n = format!("threads/{path}/{t}");
        assert!(has(&n), "{n} missing: {names:?}");
    }
    for f in doc["figures"].as_array().unwrap() {
        let (min, med, max) = (
            f["ns_min"].as_f64().unwrap(),
            f["ns_median"].as_f64().unwrap(),
            f["ns_max"].as_f64().unwrap(),
        );
        assert!(0.0 < min && min <= med && med <= max, "{f}");
        // Per-id rows on one thread carry their ratio to the 32-byte store;
        // thread rows their scaling.
        let threads = f["name"].as_str().unwrap().starts_with("threads/");
        let per_id = f["per"].as_str() == Some("id");
        assert_eq!(f["vs_store"].is_number(), per_id && !threads, "{f}");
        assert_eq!(f["scaling"].is_number(), threads, "{f}");
    }
}

#[test]
fn one_path_only_with_isa() {
    let doc = json(&["--isa", "scalar"]);
    for name in names(&doc) {
        let is_path_row = [
            "fill/",
            "lines/",
            "decode/",
            "parse_many/",
            "id/",
            "id+ticker/",
        ]
        .iter()
        .any(|p| name.starts_with(p));
        assert!(!is_path_row || name.contains("scalar"), "{name}");
    }
    // The whole run takes the path: the header, id() and the thread rows.
    assert_eq!(doc["header"]["engine_path"], "scalar");
    let names = names(&doc);
    assert!(names.iter().any(|n| n == "id/scalar"), "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("threads/scalar/fill/")),
        "{names:?}"
    );
    // -n is capped where the buffers still fit in memory.
    let o = kuuid(&["bench", "-n", "268435456"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("4194304"), "{}", stderr(&o));
    let o = kuuid(&["bench", "--isa", "mmx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--isa"), "{}", stderr(&o));
}

#[test]
fn a_baseline_is_read_back_next_to_each_figure() {
    let mut doc = json(&[]);
    // A run saved before the header had them is read back too.
    for key in ["vendor", "family", "model", "date"] {
        doc["header"].as_object_mut().unwrap().remove(key);
    }
    let out = table("2", Some(&doc));
    assert!(
        out.contains("baseline ns") && out.contains("speed-up"),
        "{out}"
    );
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("fill/")).collect();
    assert!(!rows.is_empty());
    for row in rows {
        // The last three columns (a noise mark aside): the baseline's ns,
        // the speed-up, and the speed-up in cycles (both runs measured
        // their clock).
        let cols: Vec<&str> = row.split_whitespace().filter(|c| *c != "*").collect();
        let cycles_x: f64 = cols[cols.len() - 1].parse().unwrap();
        let speed_up: f64 = cols[cols.len() - 2].parse().unwrap();
        let base: f64 = cols[cols.len() - 3].parse().unwrap();
        assert!(speed_up > 0.0 && base > 0.0 && cycles_x > 0.0, "{row}");
    }
    // Two runs alike in -n, rounds and mode: no difference is reported
    // (but the clock, whose reading moves on a loaded machine).
    assert!(
        !out.lines()
            .any(|l| l.starts_with("baseline differs: ") && !l.contains("clock")),
        "{out}"
    );
}

/// Issue 64, item 5: a baseline unlike this run says how, one line each.
#[test]
fn a_baseline_unlike_this_run_says_how() {
    let mut doc = json(&[]);
    let h = doc["header"].as_object_mut().unwrap();
    h.insert("quick".into(), false.into());
    h.insert("ids_per_round".into(), 65536.into());
    h.insert("rounds".into(), 41.into());
    h.remove("ghz");
    let out = table("1", Some(&doc));
    for says in [
        "baseline differs: --quick here, a full run there",
        "baseline differs: -n 2000 here, 65536 there",
        "baseline differs: 1 rounds here, 41 there",
        "baseline differs: the baseline measured no clock",
    ] {
        assert!(out.contains(says), "{says}: {out}");
    }
}

#[test]
fn a_bad_baseline_is_one_line_and_exit_2() {
    let dir = std::env::temp_dir();
    let pid = std::process::id();
    let write = |name: &str, text: &str| {
        let p = dir.join(format!("kuuid-bad-{pid}-{name}"));
        std::fs::write(&p, text).unwrap();
        p
    };
    let cases = [
        (
            dir.join(format!("kuuid-missing-{pid}.json")),
            "No such file",
        ),
        (write("text", "not json at all"), "not JSON"),
        (
            write("other", r#"{"schema":"other/2","figures":[]}"#),
            "not a kuuid bench report",
        ),
        (write("none", r#"{"figures":[]}"#), "schema missing"),
        (
            write("shape", r#"{"schema":"kuuid-bench/1","figures":7}"#),
            "--baseline",
        ),
    ];
    for (path, what) in &cases {
        let o = kuuid(&["bench", "--quick", "--baseline", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{what}");
        let err = stderr(&o);
        assert!(
            err.contains(what) && err.contains("--baseline"),
            "{what}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(o.stdout.is_empty());
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn the_table_has_a_positive_figure_on_every_row() {
    let out = table("1", None);
    let rows: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("figure"))
        .skip(1)
        .take_while(|l| !l.starts_with("* "))
        .collect();
    assert!(rows.len() > 10, "{out}");
    for row in rows {
        // ns/item, min, max, cycles: positive, min <= median <= max. (The
        // name field is 34 wide and may hold a space: `... x8`.)
        let col = |i: usize| -> f64 {
            row[34..]
                .split_whitespace()
                .nth(i)
                .unwrap()
                .parse()
                .unwrap()
        };
        let (ns, min, max, cycles) = (col(1), col(2), col(3), col(4));
        assert!(ns > 0.0 && min <= ns && ns <= max && cycles > 0.0, "{row}");
    }
    // Issue 64, items 1 and 4: the clock, the caches and the load.
    for line in [
        "clock: ",
        "load: ",
        " at the start, ",
        "steal over the run: ",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
}

/// Issue 64, items 1 and 4: the JSON has the measured clock, the caches,
/// the load and the steal, and every figure its cycles.
#[test]
fn json_has_the_clock_the_load_and_the_cycles() {
    let doc = json(&[]);
    let h = &doc["header"];
    let ghz = h["ghz"].as_f64().unwrap();
    assert!((0.3..10.0).contains(&ghz), "{ghz}");
    assert!(
        h["load_start"].as_array().is_some() && h["load_end"].as_array().is_some(),
        "{h}"
    );
    assert!(h["steal_pct"].as_f64().is_some(), "{h}");
    assert!(h["caches"].as_array().is_some_and(|c| !c.is_empty()), "{h}");
    assert!(
        h["rustc"].as_str().is_some_and(|r| r.starts_with("rustc ")),
        "{h}"
    );
    for f in doc["figures"].as_array().unwrap() {
        let cycles = f["cycles"].as_f64().unwrap();
        let ns = f["ns_median"].as_f64().unwrap();
        assert!((cycles / ns / ghz - 1.0).abs() < 1e-9, "{f}");
    }
}

/// Issue 64, items 2 and 3: `--repeat 2` is two whole passes, each figure
/// with the spread between them; the store floors are one a cache level,
/// their buffers sized from the caches and said in the header.
#[test]
fn repeat_passes_and_floors_by_cache_level() {
    let doc = json(&["--repeat", "2", "--isa", "scalar"]);
    let h = &doc["header"];
    assert_eq!(h["repeat"], 2, "{h}");
    let floors = h["floor_bytes"].as_array().unwrap();
    let levels: Vec<&str> = floors.iter().map(|f| f[0].as_str().unwrap()).collect();
    assert_eq!(levels, ["l1", "l2", "l3", "dram"], "{h}");
    let bytes: Vec<u64> = floors.iter().map(|f| f[1].as_u64().unwrap()).collect();
    assert!(bytes.windows(2).all(|w| w[0] < w[1]), "{bytes:?}");
    let names = names(&doc);
    for level in levels {
        assert!(names.contains(&format!("limit/store/{level}")), "{names:?}");
    }
    for f in doc["figures"].as_array().unwrap() {
        assert!(f["pass_spread"].as_f64().is_some_and(|s| s >= 0.0), "{f}");
    }
}
