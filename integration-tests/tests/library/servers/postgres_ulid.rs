//! ULIDs in a real PostgreSQL `uuid` column (postgres-types and sqlx):
//! they go in as their 16 bytes whatever their version bits, sort in mint
//! order, and read back; a `text` column holds the 26 characters.

use kuuid::Ulid;

use crate::ulid_stores::minted_and_scrambled;

#[test]
fn postgres_uuid_keys_sort_in_mint_order() {
    let Some(mut db) = crate::servers::postgres::client() else {
        return;
    };
    db.batch_execute("CREATE TEMP TABLE u (id uuid PRIMARY KEY, t text COLLATE \"C\")")
        .unwrap();
    let (ids, scrambled) = minted_and_scrambled(2000);
    for id in &scrambled {
        db.execute("INSERT INTO u VALUES ($1, $2)", &[id, id])
            .unwrap();
    }
    let rows = db
        .query("SELECT id, t, id::text AS hex FROM u ORDER BY u.id", &[])
        .unwrap();
    let got: Vec<Ulid> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(got, ids);
    for (r, id) in rows.iter().zip(&ids) {
        assert_eq!(r.get::<_, Ulid>(1), *id);
        assert_eq!(r.get::<_, String>(1), id.to_string());
        // PostgreSQL shows the same 16 bytes as a UUID's hex.
        let hex: String = id.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(r.get::<_, String>(2).replace('-', ""), hex);
    }
    let by_text: Vec<Ulid> = db
        .query("SELECT t FROM u ORDER BY t", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(by_text, ids);
}

#[tokio::test]
async fn sqlx_postgres_reads_binary_and_text() {
    let Some(mut db) = crate::servers::postgres_sqlx::postgres().await else {
        return;
    };
    let (ids, _) = minted_and_scrambled(300);
    // Prepared (binary) and a literal in a plain query (text format).
    let back: (Ulid,) = sqlx::query_as("SELECT $1::uuid")
        .bind(ids[5])
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(back.0, ids[5]);
    const TEXT: &str = "0189f1c2-4d5e-8f00-0123-456789abcdef";
    let row = sqlx::raw_sql("SELECT '0189f1c2-4d5e-8f00-0123-456789abcdef'::uuid")
        .fetch_one(&mut db)
        .await
        .unwrap();
    use sqlx::Row;
    let expected = Ulid::from(TEXT.parse::<uuid::Uuid>().unwrap());
    assert_eq!(row.get::<Ulid, _>(0), expected);
    let arr: (Vec<Ulid>,) = sqlx::query_as("SELECT $1::uuid[]")
        .bind(&ids)
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(arr.0, ids);
}

/// KSUIDs in `bytea` (postgres-types) sort in second order and read
/// back; a text column holds the 27 characters.
#[test]
fn ksuids_in_bytea() {
    let Some(mut db) = crate::servers::postgres::client() else {
        return;
    };
    db.batch_execute("CREATE TEMP TABLE k (id bytea PRIMARY KEY, t text COLLATE \"C\")")
        .unwrap();
    let mut ids: Vec<kuuid::Ksuid> = (0..300u64)
        .map(|i| kuuid::ksuid_at(1_500_000_000_000 + i * 61_000).unwrap())
        .collect();
    for id in ids.iter().rev() {
        db.execute("INSERT INTO k VALUES ($1, $2)", &[id, id])
            .unwrap();
    }
    ids.sort();
    let got: Vec<(kuuid::Ksuid, kuuid::Ksuid)> = db
        .query("SELECT id, t FROM k ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(got.iter().map(|r| r.0).collect::<Vec<_>>(), ids);
    assert!(got.iter().all(|r| r.0 == r.1));
}

/// A KSUID through sqlx as `bytea`.
#[tokio::test]
async fn a_ksuid_through_sqlx() {
    let Some(mut db) = crate::servers::postgres_sqlx::postgres().await else {
        return;
    };
    let id = kuuid::ksuid();
    let back: (kuuid::Ksuid, kuuid::Ksuid) = sqlx::query_as("SELECT $1::bytea, $2::text")
        .bind(id)
        .bind(id.to_string())
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(back, (id, id));
}
