//! Ids through sqlx in a real SQLite (bundled, in memory): every type
//! round-trips, keys sort in mint order, a table written through rusqlite
//! reads back through sqlx, and a value that is not an id is a decode
//! error. The same through PostgreSQL: `servers/postgres_sqlx.rs`.

use kuuid::{AnyKuuid, Kuuid, ObjectId, ShortKuuid, Simple, Uuid7};
use sqlx::sqlite::SqliteConnection;
use sqlx::{Connection, Row};

async fn sqlite() -> SqliteConnection {
    SqliteConnection::connect("sqlite::memory:").await.unwrap()
}

pub(crate) fn ordered_kuuids(n: usize) -> Vec<Kuuid> {
    let mut g = kuuid::Generator::secure().monotonic();
    (0..n).map(|_| g.generate()).collect()
}

#[tokio::test]
async fn sqlite_round_trips_every_type_in_its_storage() {
    let mut db = sqlite().await;
    sqlx::query("CREATE TABLE t (k TEXT, s TEXT, a TEXT, v BLOB, vs TEXT, o BLOB) STRICT")
        .execute(&mut db)
        .await
        .unwrap();
    let (k, s, a) = (kuuid::id(), kuuid::ids(), AnyKuuid::from(kuuid::idms()));
    let (v, o) = (kuuid::v7(), kuuid::object_id());
    sqlx::query("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)")
        .bind(k)
        .bind(s)
        .bind(a)
        .bind(v)
        .bind(v.simple())
        .bind(o)
        .execute(&mut db)
        .await
        .unwrap();
    let row = sqlx::query("SELECT * FROM t")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(row.get::<Kuuid, _>(0), k);
    assert_eq!(row.get::<ShortKuuid, _>(1), s);
    assert_eq!(row.get::<AnyKuuid, _>(2), a);
    assert_eq!(row.get::<Uuid7, _>(3), v);
    assert_eq!(row.get::<Simple, _>(4), v.simple());
    assert_eq!(row.get::<ObjectId, _>(5), o);
    let forms: (String, i64, String, i64) = sqlx::query_as(
        "SELECT typeof(k) || typeof(v) || typeof(o), length(v), vs, length(o) FROM t",
    )
    .fetch_one(&mut db)
    .await
    .unwrap();
    assert_eq!(
        forms,
        ("textblobblob".into(), 16, v.simple().to_string(), 12)
    );
    // A Uuid7 and an ObjectId also read from their text.
    let texts: (Uuid7, Uuid7, ObjectId) = sqlx::query_as("SELECT ?, ?, ?")
        .bind(v.to_string())
        .bind(v.simple().to_string())
        .bind(o.to_string())
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(texts, (v, v, o));
}

#[tokio::test]
async fn sqlite_keys_sort_in_mint_order_and_rusqlite_reads_the_same_rows() {
    let path = std::env::temp_dir().join(format!("kuuid-sqlx-{}.db", std::process::id()));
    let url = format!("sqlite://{}?mode=rwc", path.display());
    let mut db = SqliteConnection::connect(&url).await.unwrap();
    sqlx::query("CREATE TABLE k (id TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID")
        .execute(&mut db)
        .await
        .unwrap();
    let ks = ordered_kuuids(500);
    let mut g = kuuid::V7Generator::new();
    let vs: Vec<Uuid7> = (0..500).map(|_| g.generate()).collect();
    // Inserted in an order unrelated to mint order.
    for i in (0..500).map(|i| (i * 7919) % 500) {
        sqlx::query("INSERT INTO k VALUES (?, ?)")
            .bind(ks[i])
            .bind(vs[i])
            .execute(&mut db)
            .await
            .unwrap();
    }
    let by_id: Vec<(Kuuid, Uuid7)> = sqlx::query_as("SELECT id, v FROM k ORDER BY id")
        .fetch_all(&mut db)
        .await
        .unwrap();
    let by_v: Vec<(Kuuid, Uuid7)> = sqlx::query_as("SELECT id, v FROM k ORDER BY v")
        .fetch_all(&mut db)
        .await
        .unwrap();
    let minted: Vec<(Kuuid, Uuid7)> = ks.into_iter().zip(vs).collect();
    assert_eq!(by_id, minted);
    assert_eq!(by_v, minted);
    db.close().await.unwrap();
    // The rusqlite feature stores the same forms.
    let r = rusqlite::Connection::open(&path).unwrap();
    let mut st = r.prepare("SELECT id, v FROM k ORDER BY id").unwrap();
    let back: Vec<(Kuuid, Uuid7)> = st
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(back, minted);
    drop(st);
    drop(r);
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn sqlite_values_that_are_not_ids_are_decode_errors() {
    let mut db = sqlite().await;
    let v = kuuid::v7();
    let mut wrong_version = *v.as_bytes();
    wrong_version[6] = 0x40 | (wrong_version[6] & 0x0f);
    let cases: [(&str, Vec<u8>); 3] = [
        ("a 15-byte blob", v.as_bytes()[..15].to_vec()),
        ("a v4 uuid", wrong_version.to_vec()),
        (
            "an 11-byte blob",
            kuuid::object_id().as_bytes()[..11].to_vec(),
        ),
    ];
    for (what, blob) in &cases {
        let row = sqlx::query("SELECT ?")
            .bind(blob.as_slice())
            .fetch_one(&mut db)
            .await
            .unwrap();
        let uuid = row.try_get::<Uuid7, _>(0);
        let oid = row.try_get::<ObjectId, _>(0);
        assert!(
            matches!(uuid, Err(sqlx::Error::ColumnDecode { .. })),
            "{what}: {uuid:?}"
        );
        assert!(
            matches!(oid, Err(sqlx::Error::ColumnDecode { .. })),
            "{what}: {oid:?}"
        );
    }
    let row = sqlx::query("SELECT ?, ?")
        .bind("001eVnWK0000000000000000000000")
        .bind("not an ObjectId at all!!")
        .fetch_one(&mut db)
        .await
        .unwrap();
    let err = row.try_get::<Kuuid, _>(0).unwrap_err().to_string();
    assert!(err.contains("length"), "{err}");
    assert!(row.try_get::<ObjectId, _>(1).is_err());
}
