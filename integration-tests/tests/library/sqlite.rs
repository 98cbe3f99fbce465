//! Ids in a real SQLite (bundled, in memory) through the `rusqlite`
//! feature: every type round-trips, `ORDER BY` on the key is mint order
//! under SQLite's default `BINARY` collation (and not under `NOCASE`), and
//! a value that is not an id comes back as a typed error.

use kuuid::{AnyKuuid, Kuuid, ObjectId, ShortKuuid, Simple, Uuid7};
use rusqlite::Connection;
use rusqlite::types::{FromSql, FromSqlError, ValueRef};

fn db() -> Connection {
    Connection::open_in_memory().unwrap()
}

/// Every row's first column of `sql`.
fn column<T: FromSql>(db: &Connection, sql: &str) -> Vec<T> {
    let mut st = db.prepare(sql).unwrap();
    st.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Mints `n` kuuids in strictly increasing order (monotonic generator).
fn ordered_kuuids(n: usize) -> Vec<Kuuid> {
    let mut g = kuuid::Generator::secure().monotonic();
    (0..n).map(|_| g.generate()).collect()
}

#[test]
fn every_id_type_round_trips() {
    let db = db();
    db.execute_batch("CREATE TABLE t (k TEXT, s TEXT, a TEXT, v BLOB, vs TEXT, o BLOB) STRICT")
        .unwrap();
    let (k, s, a) = (kuuid::id(), kuuid::ids(), AnyKuuid::from(kuuid::id()));
    let (v, o) = (kuuid::v7(), kuuid::object_id());
    db.execute(
        "INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        rusqlite::params![k, s, a, v, v.simple(), o],
    )
    .unwrap();
    let row: (Kuuid, ShortKuuid, AnyKuuid, Uuid7, Simple, ObjectId) = db
        .query_row("SELECT k, s, a, v, vs, o FROM t", [], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })
        .unwrap();
    assert_eq!(row, (k, s, a, v, v.simple(), o));
    // The stored forms: text for kuuids and Simple, 16 and 12 bytes for
    // Uuid7 and ObjectId.
    let forms: (String, i64, String, i64) = db
        .query_row(
            "SELECT typeof(k) || typeof(v) || typeof(o), length(v), vs, length(o) FROM t",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(
        forms,
        ("textblobblob".to_owned(), 16, v.simple().to_string(), 12)
    );
    // UUIDv7 and ObjectId also read from their text.
    let from_text: (Uuid7, ObjectId) = db
        .query_row("SELECT ?1, ?2", [v.to_string(), o.to_string()], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(from_text, (v, o));
}

/// A `WITHOUT ROWID` table keyed by each id kind: `ORDER BY` the key is
/// the order they were minted in, and `ORDER BY key DESC LIMIT 100` is the
/// 100 newest.
#[test]
fn the_key_order_is_mint_order() {
    let db = db();
    db.execute_batch(
        "CREATE TABLE k (id TEXT PRIMARY KEY) WITHOUT ROWID;
         CREATE TABLE v (id BLOB PRIMARY KEY) WITHOUT ROWID;
         CREATE TABLE o (id BLOB PRIMARY KEY) WITHOUT ROWID;",
    )
    .unwrap();
    let n = 5000;
    let ks = ordered_kuuids(n);
    let mut vs = vec![Uuid7::MIN; n];
    kuuid::fill_v7(&mut vs);
    let mut os = vec![ObjectId::default(); n];
    kuuid::fill_object_id(&mut os);
    // Inserted in a shuffled order, so the index does the sorting.
    let shuffled = |len: usize| {
        let mut idx: Vec<usize> = (0..len).collect();
        idx.sort_by_key(|&i| (i * 7919) % len);
        idx
    };
    for i in shuffled(n) {
        db.execute("INSERT INTO k VALUES (?1)", [ks[i]]).unwrap();
        db.execute("INSERT INTO v VALUES (?1)", [vs[i]]).unwrap();
        db.execute("INSERT INTO o VALUES (?1)", [os[i]]).unwrap();
    }
    let read = |sql: &str| -> Vec<String> {
        let mut st = db.prepare(sql).unwrap();
        // EXPLAIN QUERY PLAN rows: id, parent, notused, detail.
        st.query_map([], |r| r.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let k_sorted: Vec<Kuuid> = column(&db, "SELECT id FROM k ORDER BY id");
    assert_eq!(k_sorted, ks);
    let v_sorted: Vec<Uuid7> = column(&db, "SELECT id FROM v ORDER BY id");
    assert_eq!(v_sorted, vs);
    // ObjectIds of one thread increase within a second (the counter).
    let o_sorted: Vec<ObjectId> = column(&db, "SELECT id FROM o ORDER BY id");
    let mut os_sorted = os.clone();
    os_sorted.sort();
    assert_eq!(o_sorted, os_sorted);
    // The newest 100 from the primary key alone.
    let newest: Vec<Kuuid> = column(&db, "SELECT id FROM k ORDER BY id DESC LIMIT 100");
    let want: Vec<Kuuid> = ks.iter().rev().take(100).copied().collect();
    assert_eq!(newest, want);
    // The plan uses the key, not a sort.
    let plan = read("EXPLAIN QUERY PLAN SELECT id FROM k ORDER BY id DESC LIMIT 100").join(" ");
    assert!(!plan.contains("TEMP B-TREE"), "{plan}");
}

/// base62 has two cases: a `NOCASE` column folds them and loses the order
/// (docs/databases.md).
#[test]
fn nocase_breaks_the_order() {
    let db = db();
    db.execute_batch("CREATE TABLE t (id TEXT COLLATE NOCASE)")
        .unwrap();
    let ks = ordered_kuuids(2000);
    for k in &ks {
        db.execute("INSERT INTO t VALUES (?1)", [k]).unwrap();
    }
    let got: Vec<Kuuid> = column(&db, "SELECT id FROM t ORDER BY id");
    assert_ne!(got, ks);
}

#[test]
fn a_bad_value_is_a_typed_error() {
    let db = db();
    let get = |sql: &str| -> Result<(), rusqlite::Error> {
        db.query_row(sql, [], |r| r.get::<_, Kuuid>(0)).map(drop)
    };
    // Text that is not a kuuid: the parse error, with what and where.
    let e = get("SELECT '001eVnWK4gfFC4000000000000000000'").unwrap_err();
    let rusqlite::Error::FromSqlConversionFailure(0, _, inner) = &e else {
        panic!("{e:?}")
    };
    assert!(inner.to_string().contains("above 4gfFC3"), "{inner}");
    assert!(get("SELECT 'short'").is_err());
    assert!(matches!(
        get("SELECT 42").unwrap_err(),
        rusqlite::Error::InvalidColumnType(..)
    ));
    // A BLOB of the wrong size for a UUIDv7 or an ObjectId.
    let e = db
        .query_row("SELECT x'0102'", [], |r| r.get::<_, Uuid7>(0))
        .unwrap_err();
    assert!(
        matches!(
            e,
            rusqlite::Error::FromSqlConversionFailure(_, _, ref inner)
                if inner.to_string().contains("16")
        ) || matches!(e, rusqlite::Error::InvalidColumnType(..)),
        "{e:?}"
    );
    let blob_err = Uuid7::column_result(ValueRef::Blob(&[1, 2])).unwrap_err();
    assert_eq!(
        blob_err,
        FromSqlError::InvalidBlobSize {
            expected_size: 16,
            blob_size: 2
        }
    );
    // 16 bytes that are not a version-7 UUID.
    let e = db
        .query_row("SELECT zeroblob(16)", [], |r| r.get::<_, Uuid7>(0))
        .unwrap_err();
    assert!(e.to_string().contains("version"), "{e}");
    let e = db
        .query_row("SELECT 'not an objectid'", [], |r| r.get::<_, ObjectId>(0))
        .unwrap_err();
    assert!(e.to_string().contains("length"), "{e}");
}
