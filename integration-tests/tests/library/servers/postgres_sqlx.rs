//! Ids through sqlx in a real PostgreSQL at `KUUID_PG_URL` (`.ci/run`
//! starts one; without it the tests say why and pass): every type
//! round-trips in prepared (binary) and plain (text) queries, keys sort in
//! mint order, arrays bind, and a value that is not an id is a decode
//! error. The same through SQLite: `sqlx.rs`.

use kuuid::{AnyKuuid, Kuuid, ObjectId, ShortKuuid, Simple, Uuid7};
use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{Connection, Row};

use crate::sqlx::ordered_kuuids;

/// A connection from `KUUID_PG_URL`, which is in libpq's `key=value` form
/// (what `.ci/run` sets) or a `postgres://` URL.
pub(crate) async fn postgres() -> Option<PgConnection> {
    let url = crate::server::address("KUUID_PG_URL")?;
    let options = if url.contains("://") {
        url.parse().unwrap()
    } else {
        url.split_whitespace()
            .fold(PgConnectOptions::new_without_pgpass(), |o, pair| match pair
                .split_once('=')
                .unwrap()
            {
                ("host", v) => o.host(v),
                ("port", v) => o.port(v.parse().unwrap()),
                ("user", v) => o.username(v),
                ("dbname", v) => o.database(v),
                (k, _) => panic!("KUUID_PG_URL: unexpected key {k}"),
            })
    };
    Some(
        PgConnection::connect_with(&options)
            .await
            .unwrap_or_else(|e| panic!("KUUID_PG_URL={url}: {e}")),
    )
}

#[tokio::test]
async fn postgres_round_trips_every_type_in_binary_and_text() {
    let Some(mut db) = postgres().await else {
        return;
    };
    sqlx::query(
        r#"CREATE TEMP TABLE t (k text COLLATE "C", s varchar(20), a text, v uuid, vs uuid, o bytea, ot text)"#,
    )
    .execute(&mut db)
    .await
    .unwrap();
    let (k, s, a) = (kuuid::id(), kuuid::ids(), AnyKuuid::from(kuuid::idmsr()));
    let (v, o) = (kuuid::v7(), kuuid::object_id());
    sqlx::query("INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(k)
        .bind(s)
        .bind(a)
        .bind(v)
        .bind(v.simple())
        .bind(o)
        .bind(o.to_string())
        .execute(&mut db)
        .await
        .unwrap();
    type Row = (
        Kuuid,
        ShortKuuid,
        AnyKuuid,
        Uuid7,
        Simple,
        ObjectId,
        ObjectId,
    );
    let want: Row = (k, s, a, v, v.simple(), o, o);
    // Prepared: the binary format.
    let binary: Row = sqlx::query_as("SELECT * FROM t")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(binary, want);
    // An unprepared statement: the server sends text.
    let row = sqlx::raw_sql("SELECT * FROM t")
        .fetch_one(&mut db)
        .await
        .unwrap();
    let text: Row = (
        row.get(0),
        row.get(1),
        row.get(2),
        row.get(3),
        row.get(4),
        row.get(5),
        row.get(6),
    );
    assert_eq!(text, want);
    // The uuid column holds the id's own 16 bytes.
    let raw: Vec<u8> = sqlx::query_scalar("SELECT uuid_send(v) FROM t")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(raw, v.as_bytes());
}

#[tokio::test]
async fn postgres_keys_sort_in_mint_order_and_arrays_bind() {
    let Some(mut db) = postgres().await else {
        return;
    };
    sqlx::query(r#"CREATE TEMP TABLE k (id text COLLATE "C" PRIMARY KEY, v uuid, o bytea)"#)
        .execute(&mut db)
        .await
        .unwrap();
    let ks = ordered_kuuids(500);
    let mut g = kuuid::V7Generator::new();
    let vs: Vec<Uuid7> = (0..500).map(|_| g.generate()).collect();
    let os: Vec<ObjectId> = (0..500).map(|_| kuuid::object_id()).collect();
    sqlx::query("INSERT INTO k SELECT * FROM unnest($1, $2, $3) ORDER BY random()")
        .bind(&ks)
        .bind(&vs)
        .bind(&os)
        .execute(&mut db)
        .await
        .unwrap();
    let by_id: Vec<(Kuuid, Uuid7, ObjectId)> = sqlx::query_as("SELECT * FROM k ORDER BY id")
        .fetch_all(&mut db)
        .await
        .unwrap();
    let by_v: Vec<(Kuuid, Uuid7, ObjectId)> = sqlx::query_as("SELECT * FROM k ORDER BY v")
        .fetch_all(&mut db)
        .await
        .unwrap();
    let minted: Vec<_> = ks
        .iter()
        .zip(&vs)
        .zip(&os)
        .map(|((&k, &v), &o)| (k, v, o))
        .collect();
    assert_eq!(by_id, minted);
    assert_eq!(by_v, minted);
    let some: Vec<Kuuid> = sqlx::query_scalar("SELECT id FROM k WHERE v = ANY($1) ORDER BY id")
        .bind(&vs[100..110])
        .fetch_all(&mut db)
        .await
        .unwrap();
    assert_eq!(some, ks[100..110]);
}

#[tokio::test]
async fn postgres_values_that_are_not_ids_are_decode_errors() {
    let Some(mut db) = postgres().await else {
        return;
    };
    let row = sqlx::query(
        "SELECT '00000000-0000-4000-8000-000000000000'::uuid, '\\x0102'::bytea, 'short'::text",
    )
    .fetch_one(&mut db)
    .await
    .unwrap();
    let v4 = row.try_get::<Uuid7, _>(0).unwrap_err().to_string();
    assert!(v4.contains("version"), "{v4}");
    let short = row.try_get::<ObjectId, _>(1).unwrap_err().to_string();
    assert!(short.contains("2 bytes"), "{short}");
    assert!(matches!(
        row.try_get::<Kuuid, _>(2),
        Err(sqlx::Error::ColumnDecode { .. })
    ));
    // A uuid column is not text: the types are checked before decoding.
    assert!(row.try_get::<Kuuid, _>(0).is_err());
}
