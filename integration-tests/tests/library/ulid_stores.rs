//! ULIDs in SQLite (rusqlite and sqlx, bundled, in memory) and through
//! serde: 16-byte BLOBs that sort in mint order, read back from BLOB or
//! text, and a wrong value is a typed error. PostgreSQL:
//! `servers/postgres_ulid.rs`.

use kuuid::Ulid;

/// Ids minted in order, and the same ids in a scrambled order to insert.
pub(crate) fn minted_and_scrambled(n: usize) -> (Vec<Ulid>, Vec<Ulid>) {
    let mut ids = vec![Ulid::MIN; n];
    kuuid::fill_ulid(&mut ids);
    let mut scrambled = ids.clone();
    // A fixed permutation: reverse odd halves, rotate.
    scrambled.reverse();
    scrambled.rotate_left(n / 3);
    (ids, scrambled)
}

#[test]
fn rusqlite_keys_sort_in_mint_order_and_read_back() {
    let db = rusqlite::Connection::open_in_memory().unwrap();
    db.execute("CREATE TABLE u (id BLOB PRIMARY KEY, t TEXT) STRICT", [])
        .unwrap();
    let (ids, scrambled) = minted_and_scrambled(2000);
    for id in &scrambled {
        db.execute("INSERT INTO u VALUES (?1, ?2)", (id, id.to_string()))
            .unwrap();
    }
    let mut q = db
        .prepare("SELECT id, t, typeof(id), length(id) FROM u ORDER BY id")
        .unwrap();
    let rows: Vec<(Ulid, Ulid, String, i64)> = q
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), ids);
    assert!(
        rows.iter()
            .all(|r| r.0 == r.1 && r.2 == "blob" && r.3 == 16)
    );
    // Text in small letters reads too; a wrong BLOB or text is an error.
    let low: Ulid = db
        .query_row("SELECT lower(?1)", [ids[0].to_string()], |r| r.get(0))
        .unwrap();
    assert_eq!(low, ids[0]);
    let e = db
        .query_row("SELECT x'0102'", [], |r| r.get::<_, Ulid>(0))
        .unwrap_err();
    assert!(e.to_string().contains("16"), "{e}");
    let e = db
        .query_row("SELECT '81ARZ3NDEKTSV4RRFFQ69G5FAV'", [], |r| {
            r.get::<_, Ulid>(0)
        })
        .unwrap_err();
    assert!(e.to_string().contains("above '7'"), "{e}");
}

#[tokio::test]
async fn sqlx_sqlite_keys_sort_in_mint_order() {
    use sqlx::Connection;
    let mut db = sqlx::sqlite::SqliteConnection::connect("sqlite::memory:")
        .await
        .unwrap();
    sqlx::query("CREATE TABLE u (id BLOB PRIMARY KEY) STRICT")
        .execute(&mut db)
        .await
        .unwrap();
    let (ids, scrambled) = minted_and_scrambled(500);
    for id in &scrambled {
        sqlx::query("INSERT INTO u VALUES (?)")
            .bind(id)
            .execute(&mut db)
            .await
            .unwrap();
    }
    let got: Vec<(Ulid,)> = sqlx::query_as("SELECT id FROM u ORDER BY id")
        .fetch_all(&mut db)
        .await
        .unwrap();
    assert_eq!(got.into_iter().map(|r| r.0).collect::<Vec<_>>(), ids);
    let (text,): (Ulid,) = sqlx::query_as("SELECT ?")
        .bind(ids[3].to_string())
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!(text, ids[3]);
}

#[test]
fn serde_writes_text_for_people_and_bytes_for_machines() {
    let id = kuuid::ulid();
    let json = serde_json::to_string(&id).unwrap();
    assert_eq!(json, format!("\"{id}\""));
    assert_eq!(serde_json::from_str::<Ulid>(&json).unwrap(), id);
    let low = json.to_lowercase();
    assert_eq!(serde_json::from_str::<Ulid>(&low).unwrap(), id);
    let e = serde_json::from_str::<Ulid>("\"01ARZ3NDEKTSV4RRFFQ69G5FA\"").unwrap_err();
    assert!(e.to_string().contains("length is 25 bytes"), "{e}");
    let mut cbor = Vec::new();
    ciborium::into_writer(&id, &mut cbor).unwrap();
    // A CBOR byte string (major type 2) of 16 bytes.
    assert_eq!(cbor[0], 0x50);
    assert_eq!(ciborium::from_reader::<Ulid, _>(&cbor[..]).unwrap(), id);
}

/// KSUIDs: 20-byte BLOBs in SQLite (rusqlite and sqlx), in second order,
/// read back from BLOB or text; serde's text and bytes.
#[test]
fn ksuids_in_sqlite_and_serde() {
    use kuuid::Ksuid;
    let db = rusqlite::Connection::open_in_memory().unwrap();
    db.execute("CREATE TABLE k (id BLOB PRIMARY KEY, t TEXT) STRICT", [])
        .unwrap();
    let mut ids: Vec<Ksuid> = (0..500u64)
        .map(|i| kuuid::ksuid_at(1_500_000_000_000 + i * 997_000).unwrap())
        .collect();
    for id in ids.iter().rev() {
        db.execute("INSERT INTO k VALUES (?1, ?2)", (id, id.to_string()))
            .unwrap();
    }
    ids.sort();
    let mut q = db
        .prepare("SELECT id, t, length(id) FROM k ORDER BY id")
        .unwrap();
    let rows: Vec<(Ksuid, Ksuid, i64)> = q
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), ids);
    assert!(rows.iter().all(|r| r.0 == r.1 && r.2 == 20));
    assert!(
        rows.windows(2)
            .all(|w| w[0].0.timestamp() < w[1].0.timestamp())
    );
    let e = db
        .query_row("SELECT x'01'", [], |r| r.get::<_, Ksuid>(0))
        .unwrap_err();
    assert!(e.to_string().contains("20"), "{e}");
    {
        let json = serde_json::to_string(&ids[0]).unwrap();
        assert_eq!(json, format!("\"{}\"", ids[0]));
        assert_eq!(serde_json::from_str::<Ksuid>(&json).unwrap(), ids[0]);
        let mut cbor = Vec::new();
        ciborium::into_writer(&ids[0], &mut cbor).unwrap();
        assert_eq!(cbor[0], 0x54, "a 20-byte CBOR byte string");
        assert_eq!(
            ciborium::from_reader::<Ksuid, _>(&cbor[..]).unwrap(),
            ids[0]
        );
    }
}
