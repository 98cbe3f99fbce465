//! The B-tree effect, measured: N rows keyed by each kind of id into SQLite
//! (bundled, a `WITHOUT ROWID` table in a file) and, given a URL, into
//! PostgreSQL. Per key kind: inserts per second per batch as the table
//! grows, the final size, and "the 100 newest rows" from the primary key
//! against a secondary index on a timestamp column.
//!
//! ```sh
//! cargo bench --bench btree -- --rows 200000 --out "$PWD/target/btree" \
//!     [--pg "host=/tmp/pg user=kuuid dbname=postgres"] [--batch 10000]
//! ```
//!
//! Writes `btree.md` (the tables), one SVG plot and one CSV of the curves
//! per database into `--out` (the workspace's `target/btree` by default; a
//! relative path is relative to `benches/`, where cargo runs a bench),
//! prints the tables, and shows a progress bar on stderr when it is a
//! terminal.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use kuuid::{Kuuid, ObjectId, Uuid7};
use plotters::prelude::*;

/// The key kinds, in the order the tables list them.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Integer,
    Kuuid,
    KuuidMs,
    KuuidMonotonic,
    V7Text,
    V7Binary,
    ObjectId,
    V4Text,
}

const KINDS: [Kind; 8] = [
    Kind::Integer,
    Kind::Kuuid,
    Kind::KuuidMs,
    Kind::KuuidMonotonic,
    Kind::V7Text,
    Kind::V7Binary,
    Kind::ObjectId,
    Kind::V4Text,
];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Integer => "integer sequence",
            Kind::Kuuid => "kuuid (s)",
            Kind::KuuidMs => "kuuid (ms)",
            Kind::KuuidMonotonic => "kuuid (ms, monotonic)",
            Kind::V7Text => "UUIDv7 text",
            Kind::V7Binary => "UUIDv7 binary",
            Kind::ObjectId => "ObjectId binary",
            Kind::V4Text => "UUIDv4 text",
        }
    }
}

thread_local! {
    /// Strictly increasing millisecond kuuids: ids of one millisecond in
    /// mint order too.
    static MONOTONIC: std::cell::RefCell<kuuid::Generator> = std::cell::RefCell::new(
        kuuid::Generator::secure().with_layout(kuuid::Layout::MILLIS).monotonic(),
    );
}

/// One batch of keys of a kind, minted now (row numbers from `first`).
enum Keys {
    Int(Vec<i64>),
    Text(Vec<String>),
    Kuuid(Vec<Kuuid>),
    V7(Vec<Uuid7>),
    Oid(Vec<ObjectId>),
}

fn mint(kind: Kind, first: u64, n: usize) -> Keys {
    match kind {
        Kind::Integer => Keys::Int((0..n as i64).map(|i| first as i64 + i + 1).collect()),
        Kind::Kuuid => Keys::Kuuid((0..n).map(|_| kuuid::id()).collect()),
        Kind::KuuidMs => Keys::Kuuid((0..n).map(|_| kuuid::idms()).collect()),
        Kind::KuuidMonotonic => {
            MONOTONIC.with_borrow_mut(|g| Keys::Kuuid((0..n).map(|_| g.generate()).collect()))
        }
        Kind::V7Text => Keys::Text((0..n).map(|_| kuuid::v7().to_string()).collect()),
        Kind::V7Binary => {
            let mut ids = vec![Uuid7::MIN; n];
            kuuid::fill_v7(&mut ids);
            Keys::V7(ids)
        }
        Kind::ObjectId => Keys::Oid((0..n).map(|_| kuuid::object_id()).collect()),
        Kind::V4Text => Keys::Text((0..n).map(|_| uuid::Uuid::new_v4().to_string()).collect()),
    }
}

/// What one run of one kind measured.
struct Run {
    kind: Kind,
    /// (rows in the table before the batch, inserts per second in it).
    curve: Vec<(u64, f64)>,
    total: Duration,
    bytes: u64,
    by_key: Duration,
    by_ts: Duration,
    /// Whether `ORDER BY id DESC LIMIT 100` returned the 100 newest rows.
    key_is_newest: bool,
}

impl Run {
    /// A finished run of either database: what `load` timed, the table's
    /// size, and what `newest_100` timed and found.
    fn new(
        kind: Kind,
        (curve, total): (Vec<(u64, f64)>, Duration),
        bytes: i64,
        (by_key, by_ts, key_is_newest): (Duration, Duration, bool),
    ) -> Run {
        Run {
            kind,
            curve,
            total,
            bytes: bytes as u64,
            by_key,
            by_ts,
            key_is_newest,
        }
    }
}

struct Args {
    rows: u64,
    batch: u64,
    out: PathBuf,
    pg: Option<String>,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        rows: 200_000,
        batch: 10_000,
        // The workspace's target/: cargo runs a bench in its package's
        // directory (benches/), so a relative --out is relative to that.
        out: Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/btree"),
        pg: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--rows" => a.rows = value()?.parse().map_err(|e| format!("--rows: {e}"))?,
            "--batch" => a.batch = value()?.parse().map_err(|e| format!("--batch: {e}"))?,
            "--out" => a.out = PathBuf::from(value()?),
            "--pg" => a.pg = Some(value()?),
            // What `cargo bench` passes every bench target.
            "--bench" => {}
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if a.rows == 0 || a.batch == 0 {
        return Err("--rows and --batch must be at least 1".into());
    }
    Ok(a)
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("btree: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(&a) {
        // The whole chain: a database error's text is in its source.
        let mut msg = e.to_string();
        let mut cause = e.source();
        while let Some(c) = cause {
            msg += &format!(": {c}");
            cause = c.source();
        }
        eprintln!("btree: {msg}");
        std::process::exit(1);
    }
}

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn run(a: &Args) -> Res<()> {
    std::fs::create_dir_all(&a.out)?;
    let databases = 1 + u64::from(a.pg.is_some());
    let bar = ProgressBar::new(a.rows * KINDS.len() as u64 * databases);
    bar.set_style(ProgressStyle::with_template(
        "{msg:>28} [{bar:40}] {pos}/{len} rows ({per_sec}, {eta} left)",
    )?);
    let start = Instant::now();
    let mut report = format!(
        "# B-tree effect: {} rows per key kind, batches of {}\n\n",
        a.rows, a.batch
    );
    let mut sqlite = Vec::new();
    for kind in KINDS {
        bar.set_message(format!("SQLite {}", kind.name()));
        sqlite.push(sqlite_run(kind, a, &bar)?);
    }
    report += &table(
        "SQLite (bundled, WITHOUT ROWID, WAL, synchronous=NORMAL)",
        &sqlite,
    );
    plot(
        &a.out.join("btree-sqlite.svg"),
        "SQLite: inserts/s as the table grows",
        &sqlite,
    )?;
    csv(&a.out.join("btree-sqlite.csv"), &sqlite)?;
    if let Some(url) = &a.pg {
        let mut pg = Vec::new();
        for kind in KINDS {
            bar.set_message(format!("PostgreSQL {}", kind.name()));
            pg.push(pg_run(kind, a, url, &bar)?);
        }
        report += &table("PostgreSQL (text keys COLLATE \"C\")", &pg);
        plot(
            &a.out.join("btree-postgres.svg"),
            "PostgreSQL: inserts/s as the table grows",
            &pg,
        )?;
        csv(&a.out.join("btree-postgres.csv"), &pg)?;
    }
    bar.finish_and_clear();
    let _ = writeln!(report, "Run time: {:.1} s.", start.elapsed().as_secs_f64());
    std::fs::write(a.out.join("btree.md"), &report)?;
    print!("{report}");
    Ok(())
}

/// The markdown table of a database's runs.
fn table(title: &str, runs: &[Run]) -> String {
    let floor = runs[0].total.as_secs_f64();
    let mut t = format!(
        "## {title}\n\n| key | inserts/s (all) | first batch | last batch | time vs integer | size | newest 100 by key | by ts index | key gives the newest |\n|---|---|---|---|---|---|---|---|---|\n"
    );
    for r in runs {
        let rate = |x: f64| format!("{:.0}k", x / 1000.0);
        let all = r.curve.iter().map(|c| c.1).sum::<f64>() / r.curve.len() as f64;
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} | {:.2}x | {:.1} MiB | {:.0} µs | {:.0} µs | {} |",
            r.kind.name(),
            rate(all),
            rate(r.curve[0].1),
            rate(r.curve[r.curve.len() - 1].1),
            r.total.as_secs_f64() / floor,
            r.bytes as f64 / (1 << 20) as f64,
            r.by_key.as_secs_f64() * 1e6,
            r.by_ts.as_secs_f64() * 1e6,
            if r.key_is_newest { "yes" } else { "no" },
        );
    }
    t.push('\n');
    t
}

/// Inserts per second against rows already in the table, a line per kind.
fn plot(path: &Path, title: &str, runs: &[Run]) -> Res<()> {
    let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let x_max = runs
        .iter()
        .flat_map(|r| r.curve.last())
        .map(|c| c.0)
        .max()
        .unwrap_or(1) as f64;
    let y_max = runs
        .iter()
        .flat_map(|r| &r.curve)
        .map(|c| c.1)
        .fold(1.0, f64::max)
        * 1.45; // headroom above the lines for the legend
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("rows in the table")
        .y_desc("inserts per second")
        .x_label_formatter(&|x| human(*x))
        .y_label_formatter(&|y| human(*y))
        .draw()?;
    for (i, r) in runs.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                r.curve.iter().map(|&(x, y)| (x as f64, y)),
                color.stroke_width(2),
            ))?
            .label(r.kind.name())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    root.present()?;
    Ok(())
}

/// 1500000 as "1.5M", 20000 as "20k".
fn human(v: f64) -> String {
    match v {
        v if v >= 1e6 => format!("{:.1}M", v / 1e6),
        v if v >= 1e3 => format!("{:.0}k", v / 1e3),
        v => format!("{v:.0}"),
    }
}

/// The curves as CSV (key, rows before the batch, inserts per second), to
/// plot them again elsewhere.
fn csv(path: &Path, runs: &[Run]) -> Res<()> {
    let mut out = String::from("key,rows,inserts_per_s\n");
    for r in runs {
        for (rows, rate) in &r.curve {
            let _ = writeln!(out, "{},{rows},{rate:.0}", r.kind.name());
        }
    }
    std::fs::write(path, out)?;
    Ok(())
}

/// Loads `a.rows` rows of `kind` in batches through `insert` (keys and
/// their timestamps, minted before each batch's clock starts): inserts per
/// second of each batch against the rows before it, and the wall time of
/// the whole load (minting included).
fn load(
    kind: Kind,
    a: &Args,
    bar: &ProgressBar,
    mut insert: impl FnMut(&Keys, &Vec<i64>) -> Res<()>,
) -> Res<(Vec<(u64, f64)>, Duration)> {
    let mut curve = Vec::new();
    let mut done = 0u64;
    let started = Instant::now();
    while done < a.rows {
        let n = a.batch.min(a.rows - done) as usize;
        let keys = mint(kind, done, n);
        let ts: Vec<i64> = (0..n as i64).map(|i| done as i64 + i).collect();
        let s = Instant::now();
        insert(&keys, &ts)?;
        curve.push((done, n as f64 / s.elapsed().as_secs_f64()));
        done += n as u64;
        bar.inc(n as u64);
    }
    Ok((curve, started.elapsed()))
}

/// Removes a SQLite database and its WAL files.
fn remove_db_files(path: &Path) {
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}

/// "The 100 newest rows" of `table` from its primary key and from its
/// timestamp index (`query` runs SQL returning `ts`): the median time of
/// each over 21 runs, and whether the key's rows are the newest 100.
fn newest_100(
    table: &str,
    mut query: impl FnMut(&str) -> Res<Vec<i64>>,
) -> Res<(Duration, Duration, bool)> {
    let by_key_sql = format!("SELECT ts FROM {table} ORDER BY id DESC LIMIT 100");
    let by_ts_sql = format!("SELECT ts FROM {table} ORDER BY ts DESC LIMIT 100");
    let truth = query(&by_ts_sql)?;
    let mut got = query(&by_key_sql)?;
    got.sort_unstable_by(|x, y| y.cmp(x));
    let by_key = median_time(21, || query(&by_key_sql).map(drop))?;
    let by_ts = median_time(21, || query(&by_ts_sql).map(drop))?;
    Ok((by_key, by_ts, got == truth))
}

/// The median of `runs` timings of `f`.
fn median_time(runs: usize, mut f: impl FnMut() -> Res<()>) -> Res<Duration> {
    let mut t = Vec::with_capacity(runs);
    for _ in 0..runs {
        let s = Instant::now();
        f()?;
        t.push(s.elapsed());
    }
    t.sort();
    Ok(t[runs / 2])
}

fn sqlite_run(kind: Kind, a: &Args, bar: &ProgressBar) -> Res<Run> {
    let path = a.out.join(format!("btree-{kind:?}.sqlite"));
    remove_db_files(&path);
    let db = rusqlite::Connection::open(&path)?;
    db.execute_batch("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")?;
    let key_type = match kind {
        Kind::Integer => "INTEGER",
        Kind::V7Binary | Kind::ObjectId => "BLOB",
        _ => "TEXT",
    };
    db.execute_batch(&format!(
        "CREATE TABLE t (id {key_type} PRIMARY KEY, ts INTEGER NOT NULL, body BLOB NOT NULL) WITHOUT ROWID"
    ))?;
    let loaded = load(kind, a, bar, |keys, ts| {
        let tx = db.unchecked_transaction()?;
        {
            let mut st = tx.prepare_cached("INSERT INTO t VALUES (?1, ?2, zeroblob(64))")?;
            for (i, ts) in ts.iter().enumerate() {
                match keys {
                    Keys::Int(k) => st.execute(rusqlite::params![k[i], ts])?,
                    Keys::Text(k) => st.execute(rusqlite::params![k[i], ts])?,
                    Keys::Kuuid(k) => st.execute(rusqlite::params![k[i], ts])?,
                    Keys::V7(k) => st.execute(rusqlite::params![k[i], ts])?,
                    Keys::Oid(k) => st.execute(rusqlite::params![k[i], ts])?,
                };
            }
        }
        tx.commit()?;
        Ok(())
    })?;
    db.execute_batch("CREATE INDEX t_ts ON t(ts); PRAGMA wal_checkpoint(TRUNCATE);")?;
    let bytes: i64 = db.query_row(
        "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
        [],
        |r| r.get(0),
    )?;
    let newest_ts = |sql: &str| -> Res<Vec<i64>> {
        let mut st = db.prepare_cached(sql)?;
        let rows = st.query_map([], |r| r.get::<_, i64>(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    };
    let newest = newest_100("t", newest_ts)?;
    drop(db);
    remove_db_files(&path);
    Ok(Run::new(kind, loaded, bytes, newest))
}

fn pg_run(kind: Kind, a: &Args, url: &str, bar: &ProgressBar) -> Res<Run> {
    let mut db = postgres::Client::connect(url, postgres::NoTls)?;
    let key_type = match kind {
        Kind::Integer => "bigint",
        Kind::V7Binary => "uuid",
        Kind::ObjectId => "bytea",
        _ => "text COLLATE \"C\"",
    };
    let array_type = match kind {
        Kind::Integer => "bigint[]",
        Kind::V7Binary => "uuid[]",
        Kind::ObjectId => "bytea[]",
        _ => "text[]",
    };
    db.batch_execute(&format!(
        "DROP TABLE IF EXISTS btree_t;
         CREATE TABLE btree_t (id {key_type} PRIMARY KEY, ts bigint NOT NULL, body bytea NOT NULL)"
    ))?;
    let insert = db.prepare(&format!(
        "INSERT INTO btree_t SELECT k, t, '\\x{}'::bytea FROM unnest($1::{array_type}, $2::bigint[]) AS u(k, t)",
        "00".repeat(64)
    ))?;
    let loaded = load(kind, a, bar, |keys, ts| {
        let mut tx = db.transaction()?;
        match keys {
            Keys::Int(k) => tx.execute(&insert, &[k, ts])?,
            Keys::Text(k) => tx.execute(&insert, &[k, ts])?,
            Keys::Kuuid(k) => tx.execute(&insert, &[k, ts])?,
            Keys::V7(k) => tx.execute(&insert, &[k, ts])?,
            Keys::Oid(k) => tx.execute(&insert, &[k, ts])?,
        };
        tx.commit()?;
        Ok(())
    })?;
    db.batch_execute("CREATE INDEX btree_t_ts ON btree_t(ts)")?;
    // A statement of its own: VACUUM refuses a multi-statement batch.
    db.batch_execute("VACUUM ANALYZE btree_t")?;
    let bytes: i64 = db
        .query_one(
            "SELECT pg_relation_size('btree_t') + pg_indexes_size('btree_t')",
            &[],
        )?
        .get(0);
    let newest = newest_100("btree_t", |sql: &str| -> Res<Vec<i64>> {
        Ok(db.query(sql, &[])?.iter().map(|r| r.get(0)).collect())
    })?;
    db.batch_execute("DROP TABLE btree_t")?;
    Ok(Run::new(kind, loaded, bytes, newest))
}
