//! TypeIDs in the stores: SQLite and PostgreSQL text columns, directly and
//! through sqlx, sort as the values do and read back (the format itself:
//! kuuid's `tests/library/typeid.rs`).

use kuuid::{TypeId, TypeIdPrefix};

/// TypeIDs in a SQLite TEXT column sort as their text (`BINARY`) and
/// read back; a bad one is a typed error.
#[test]
fn typeids_in_sqlite_text() {
    let db = rusqlite::Connection::open_in_memory().unwrap();
    db.execute("CREATE TABLE t (id TEXT PRIMARY KEY) STRICT", [])
        .unwrap();
    let mut ids: Vec<TypeId> = ["user", "org", "user_account"]
        .iter()
        .flat_map(|p| {
            let p = TypeIdPrefix::new(p).unwrap();
            (0..50).map(move |_| kuuid::typeid(p))
        })
        .collect();
    for id in ids.iter().rev() {
        db.execute("INSERT INTO t VALUES (?1)", [id]).unwrap();
    }
    ids.sort();
    let mut q = db.prepare("SELECT id FROM t ORDER BY id").unwrap();
    let got: Vec<TypeId> = q
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(got, ids);
    let e = db
        .query_row("SELECT 'User_01h455vb4pex5vsknk084sn02q'", [], |r| {
            r.get::<_, TypeId>(0)
        })
        .unwrap_err();
    assert!(e.to_string().contains("index 0"), "{e}");
}

/// The same in PostgreSQL's `text COLLATE "C"`.
#[test]
fn typeids_in_postgres_text() {
    let Some(mut db) = crate::servers::postgres::client() else {
        return;
    };
    db.batch_execute("CREATE TEMP TABLE t (id text COLLATE \"C\" PRIMARY KEY)")
        .unwrap();
    let p = TypeIdPrefix::new("user").unwrap();
    let mut ids: Vec<TypeId> = (0..200).map(|_| kuuid::typeid(p)).collect();
    for id in ids.iter().rev() {
        db.execute("INSERT INTO t VALUES ($1)", &[id]).unwrap();
    }
    ids.sort();
    let got: Vec<TypeId> = db
        .query("SELECT id FROM t ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(got, ids);
}

/// Through sqlx: SQLite TEXT and PostgreSQL `text COLLATE "C"` sort as the
/// values do and read back; a bad value is a typed error naming where.
#[tokio::test]
async fn typeids_through_sqlx() {
    use sqlx::Connection;
    let p = TypeIdPrefix::new("user").unwrap();
    let mut ids: Vec<TypeId> = (0..100).map(|_| kuuid::typeid(p)).collect();
    ids.push(kuuid::typeid(TypeIdPrefix::new("").unwrap()));
    let mut sorted = ids.clone();
    sorted.sort();
    let mut lite = sqlx::sqlite::SqliteConnection::connect("sqlite::memory:")
        .await
        .unwrap();
    sqlx::query("CREATE TABLE t (id TEXT PRIMARY KEY) STRICT")
        .execute(&mut lite)
        .await
        .unwrap();
    for id in ids.iter().rev() {
        sqlx::query("INSERT INTO t VALUES (?)")
            .bind(id)
            .execute(&mut lite)
            .await
            .unwrap();
    }
    let got: Vec<(TypeId,)> = sqlx::query_as("SELECT id FROM t ORDER BY id")
        .fetch_all(&mut lite)
        .await
        .unwrap();
    assert_eq!(got.into_iter().map(|r| r.0).collect::<Vec<_>>(), sorted);
    let e = sqlx::query_as::<_, (TypeId,)>("SELECT 'user_01H455VB4PEX5VSKNK084SN02Q'")
        .fetch_one(&mut lite)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("index 7"), "{e}");

    let Some(mut pg) = crate::servers::postgres_sqlx::postgres().await else {
        return;
    };
    sqlx::query("CREATE TEMP TABLE t (id text COLLATE \"C\" PRIMARY KEY)")
        .execute(&mut pg)
        .await
        .unwrap();
    for id in ids.iter().rev() {
        sqlx::query("INSERT INTO t VALUES ($1)")
            .bind(id)
            .execute(&mut pg)
            .await
            .unwrap();
    }
    let got: Vec<(TypeId,)> = sqlx::query_as("SELECT id FROM t ORDER BY id")
        .fetch_all(&mut pg)
        .await
        .unwrap();
    assert_eq!(got.into_iter().map(|r| r.0).collect::<Vec<_>>(), sorted);
    // An array, and the text wire format (a simple query).
    let (arr,): (Vec<TypeId>,) = sqlx::query_as("SELECT $1::text[]")
        .bind(&sorted[..3])
        .fetch_one(&mut pg)
        .await
        .unwrap();
    assert_eq!(arr, sorted[..3]);
    use sqlx::Row;
    let row = sqlx::raw_sql("SELECT 'user_01h455vb4pex5vsknk084sn02q'::text")
        .fetch_one(&mut pg)
        .await
        .unwrap();
    let id: TypeId = row.get(0);
    assert_eq!(id.to_string(), "user_01h455vb4pex5vsknk084sn02q");
}
