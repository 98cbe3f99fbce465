//! Ids in a real PostgreSQL through the `postgres-types` feature, at the
//! URL in `KUUID_PG_URL` (`.ci/run` starts a throwaway cluster and sets it;
//! without it the tests print why and pass). Every type round-trips, a
//! `uuid` key and a `COLLATE "C"` text key sort in mint order, an ICU
//! collation does not, and a value that is not an id is an error.

use kuuid::{AnyKuuid, Kuuid, ObjectId, ShortKuuid, Simple, Uuid7};
use postgres::{Client, NoTls};

pub(crate) fn client() -> Option<Client> {
    let url = crate::server::address("KUUID_PG_URL")?;
    Some(Client::connect(&url, NoTls).unwrap_or_else(|e| panic!("KUUID_PG_URL={url}: {e}")))
}

/// Every row's first column of `sql`.
fn column<T: for<'a> postgres::types::FromSql<'a>>(db: &mut Client, sql: &str) -> Vec<T> {
    db.query(sql, &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

fn ordered_kuuids(n: usize) -> Vec<Kuuid> {
    let mut g = kuuid::Generator::secure().monotonic();
    (0..n).map(|_| g.generate()).collect()
}

#[test]
fn every_id_type_round_trips() {
    let Some(mut db) = client() else { return };
    db.batch_execute(
        "CREATE TEMP TABLE t (k text, s varchar(20), a text, v uuid, vt text, vs text, o bytea, ot text)",
    )
    .unwrap();
    let (k, s, a) = (kuuid::id(), kuuid::ids(), AnyKuuid::from(kuuid::idms()));
    let (v, o) = (kuuid::v7(), kuuid::object_id());
    db.execute(
        "INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        &[&k, &s, &a, &v, &v, &v.simple(), &o, &o],
    )
    .unwrap();
    let row = db.query_one("SELECT * FROM t", &[]).unwrap();
    assert_eq!(row.get::<_, Kuuid>(0), k);
    assert_eq!(row.get::<_, ShortKuuid>(1), s);
    assert_eq!(row.get::<_, AnyKuuid>(2), a);
    assert_eq!(row.get::<_, Uuid7>(3), v);
    assert_eq!(row.get::<_, Uuid7>(4), v);
    assert_eq!(row.get::<_, Simple>(5), v.simple());
    assert_eq!(row.get::<_, ObjectId>(6), o);
    assert_eq!(row.get::<_, ObjectId>(7), o);
    // The stored forms, as Postgres sees them.
    let forms = db
        .query_one(
            "SELECT v::text, vt, vs, encode(o, 'hex'), ot, octet_length(o) FROM t",
            &[],
        )
        .unwrap();
    assert_eq!(forms.get::<_, String>(0), v.to_string());
    assert_eq!(forms.get::<_, String>(1), v.to_string());
    assert_eq!(forms.get::<_, String>(2), v.simple().to_string());
    assert_eq!(forms.get::<_, String>(3), o.to_string());
    assert_eq!(forms.get::<_, String>(4), o.to_string());
    assert_eq!(forms.get::<_, i32>(5), 12);
}

#[test]
fn keys_sort_in_mint_order_under_c_and_uuid() {
    let Some(mut db) = client() else { return };
    db.batch_execute(
        "CREATE TEMP TABLE k (id text COLLATE \"C\" PRIMARY KEY);
         CREATE TEMP TABLE v (id uuid PRIMARY KEY);",
    )
    .unwrap();
    let ks = ordered_kuuids(3000);
    let mut vs = vec![Uuid7::MIN; 3000];
    kuuid::fill_v7(&mut vs);
    // Inserted newest first, so the index does the sorting.
    for (k, v) in ks.iter().zip(&vs).rev() {
        db.execute("INSERT INTO k VALUES ($1)", &[k]).unwrap();
        db.execute("INSERT INTO v VALUES ($1)", &[v]).unwrap();
    }
    let got: Vec<Kuuid> = column(&mut db, "SELECT id FROM k ORDER BY id");
    assert_eq!(got, ks);
    let got: Vec<Uuid7> = column(&mut db, "SELECT id FROM v ORDER BY id");
    assert_eq!(got, vs);
    let newest: Vec<Kuuid> = column(&mut db, "SELECT id FROM k ORDER BY id DESC LIMIT 100");
    assert_eq!(
        newest,
        ks.iter().rev().take(100).copied().collect::<Vec<_>>()
    );
}

/// The collation warning of docs/databases.md, shown: under a linguistic (ICU)
/// collation, base62's upper and lower case interleave and kuuid order is
/// lost.
#[test]
fn an_icu_collation_breaks_kuuid_order() {
    let Some(mut db) = client() else { return };
    let icu: Option<String> = db
        .query_opt(
            "SELECT collname::text FROM pg_collation WHERE collname IN ('en-US-x-icu', 'und-x-icu') ORDER BY 1 LIMIT 1",
            &[],
        )
        .unwrap()
        .map(|r| r.get(0));
    let Some(icu) = icu else {
        crate::server::skip("this server has no ICU collation");
        return;
    };
    db.batch_execute(&format!("CREATE TEMP TABLE i (id text COLLATE \"{icu}\")"))
        .unwrap();
    let ks = ordered_kuuids(2000);
    for k in &ks {
        db.execute("INSERT INTO i VALUES ($1)", &[k]).unwrap();
    }
    let got: Vec<Kuuid> = column(&mut db, "SELECT id FROM i ORDER BY id");
    assert_ne!(got, ks, "{icu} kept byte order");
    let c: Vec<Kuuid> = column(&mut db, "SELECT id FROM i ORDER BY id COLLATE \"C\"");
    assert_eq!(c, ks);
}

#[test]
fn a_bad_value_is_an_error() {
    let Some(mut db) = client() else { return };
    let row = db
        .query_one(
            "SELECT 'abc'::text, '001eVnWK4gfFC4000000000000000000'::text, \
             '8ae2f7a1-4c02-4b8f-9d2e-1f0b3c5a7e99'::uuid, '\\x0102'::bytea, 42::int4",
            &[],
        )
        .unwrap();
    // The id type's own error, as the cause of the client's.
    let cause = |e: postgres::Error| {
        std::error::Error::source(&e).map_or_else(String::new, ToString::to_string)
    };
    let e = cause(row.try_get::<_, Kuuid>(0).unwrap_err());
    assert!(e.contains("length is 3"), "{e}");
    let e = cause(row.try_get::<_, Kuuid>(1).unwrap_err());
    assert!(e.contains("4gfFC3"), "{e}");
    let e = cause(row.try_get::<_, Uuid7>(2).unwrap_err());
    assert!(e.contains("version is 4"), "{e}");
    let e = cause(row.try_get::<_, ObjectId>(3).unwrap_err());
    assert!(e.contains("2 bytes") && e.contains("expected 12"), "{e}");
    assert!(row.try_get::<_, Kuuid>(4).is_err());
}
