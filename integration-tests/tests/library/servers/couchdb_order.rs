//! Order keys in CouchDB replication, at the server in `KUUID_COUCH_URL`
//! (`pouchdb-server`, whose `_all_docs` sorts by raw bytes as CouchDB's
//! does): each item is a document whose `_id` is its order key. Two
//! replicas insert between the same neighbours while apart, then replicate
//! both ways through `/_replicate`; with jitter both list the same order,
//! each new item between its neighbours, and no document has a conflict.
//! Without jitter (the negative control) both mint the same key, and
//! replication leaves that document in conflict.

use kuuid::order::{key_between, key_between_jittered};
use serde_json::{Value, json};
use ureq::http::StatusCode;

use super::couchdb::Db;

fn put(db: &Db, id: &str, body: Value) {
    let r = db
        .agent
        .put(format!("{}/{id}", db.url))
        .send_json(body)
        .unwrap();
    assert_eq!(r.status(), StatusCode::CREATED, "PUT {id}");
}

/// Replicates `from` into `to` and checks the server says it completed.
fn replicate(from: &Db, to: &Db) {
    let mut r = from
        .agent
        .post(format!("{}/_replicate", base(&from.url)))
        .send_json(json!({ "source": from.url, "target": to.url }))
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK, "replicate");
    let body: Value = r.body_mut().read_json().unwrap();
    assert_eq!(body["ok"], true, "{body}");
    assert_eq!(body["doc_write_failures"], 0, "{body}");
}

fn base(db_url: &str) -> &str {
    &db_url[..db_url.rfind('/').unwrap()]
}

/// The ids of documents with conflicting revisions.
fn conflicted(db: &Db) -> Vec<String> {
    let mut r = db
        .agent
        .get(format!("{}/_all_docs", db.url))
        .query("include_docs", "true")
        .query("conflicts", "true")
        .call()
        .unwrap();
    let body: Value = r.body_mut().read_json().unwrap();
    body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["doc"].get("_conflicts").is_some())
        .map(|row| row["id"].as_str().unwrap().to_owned())
        .collect()
}

/// What two replicas hold after `insert_apart`.
struct Merged {
    /// `_all_docs` ids on each replica.
    on_a: Vec<String>,
    on_b: Vec<String>,
    /// The key each replica minted.
    new: [String; 2],
    /// Ids in conflict, on either replica.
    conflicts: Vec<String>,
}

/// Two replicas of a list `first`, `last`, each inserting one item between
/// them while apart (with `bits` of jitter), then replicated both ways.
fn insert_apart(bits: u32) -> Option<Merged> {
    let a = Db::new("order_a")?;
    let b = Db::new("order_b")?;
    let first = key_between(None, None).unwrap().into_string();
    let last = key_between(Some(&first), None).unwrap().into_string();
    put(&a, &first, json!({ "title": "first" }));
    put(&a, &last, json!({ "title": "last" }));
    replicate(&a, &b);
    assert_eq!(b.all_docs(&[]), [first.clone(), last.clone()]);
    // Apart: each replica inserts between the same neighbours.
    let mut new = Vec::new();
    for (db, who) in [(&a, "a"), (&b, "b")] {
        let key = key_between_jittered(Some(&first), Some(&last), bits)
            .unwrap()
            .into_string();
        put(db, &key, json!({ "title": format!("inserted on {who}") }));
        new.push(key);
    }
    replicate(&a, &b);
    replicate(&b, &a);
    let conflicts = [conflicted(&a), conflicted(&b)].concat();
    Some(Merged {
        on_a: a.all_docs(&[]),
        on_b: b.all_docs(&[]),
        new: [new[0].clone(), new[1].clone()],
        conflicts,
    })
}

#[test]
fn jittered_inserts_on_two_replicas_merge_in_order_without_conflicts() {
    let Some(Merged {
        on_a,
        on_b,
        new,
        conflicts,
    }) = insert_apart(48)
    else {
        return;
    };
    assert_eq!(on_a, on_b, "both replicas list the same order");
    assert_eq!(on_a.len(), 4, "{on_a:?}");
    let (first, last) = (&on_a[0], &on_a[3]);
    assert_eq!((first.as_str(), last.as_str()), ("a0", "a1"));
    for key in &new {
        assert!(on_a.contains(key), "{key} replicated");
        assert!(first < key && key < last, "{key} between its neighbours");
    }
    let mut sorted = on_a.clone();
    sorted.sort();
    assert_eq!(on_a, sorted, "_all_docs lists the keys in byte order");
    assert!(conflicts.is_empty(), "{conflicts:?}");
}

/// The negative control: without jitter both replicas mint the plain key,
/// and replication leaves it in conflict.
#[test]
fn plain_inserts_on_two_replicas_conflict() {
    let Some(Merged {
        on_a,
        on_b,
        new,
        conflicts,
    }) = insert_apart(0)
    else {
        return;
    };
    assert_eq!(new[0], new[1]);
    assert_eq!(on_a, on_b);
    assert_eq!(on_a.len(), 3, "one document for two items: {on_a:?}");
    assert_eq!(
        conflicts,
        [new[0].clone(), new[1].clone()],
        "in conflict on both"
    );
}
