//! kuuids in CouchDB's own HTTP API, at the server in `KUUID_COUCH_URL`
//! (`.ci/run` starts `pouchdb-server --in-memory`, which orders `_all_docs`
//! by raw id bytes as CouchDB does; without it the tests say why and pass):
//! the newest documents and a time interval come from `_all_docs` alone, a
//! type prefix narrows the interval to one type, and a client-made id
//! turns a retried write into a `409` where a server-made one stores the
//! document twice.

use std::sync::atomic::{AtomicUsize, Ordering};

use kuuid::{AnyKuuid, Generator, KeyRange, Kuuid, Layout, Options, Precision, TimeOrder};
use serde_json::{Value, json};
use ureq::Agent;
use ureq::http::StatusCode;

const LAYOUTS: [Layout; 4] = [
    Layout::SECONDS,
    Layout::MILLIS,
    Layout::SECONDS_REVERSE,
    Layout::MILLIS_REVERSE,
];

/// A fresh database on the server, deleted when dropped.
pub(crate) struct Db {
    pub(crate) agent: Agent,
    pub(crate) url: String,
}

impl Db {
    /// `None` (the test skips) without `KUUID_COUCH_URL`.
    pub(crate) fn new(test: &str) -> Option<Db> {
        static SERIAL: AtomicUsize = AtomicUsize::new(0);
        let base = crate::server::address("KUUID_COUCH_URL")?;
        // 4xx and 5xx come back as responses, so tests can look at them.
        let agent: Agent = Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let name = format!(
            "kuuid_{test}_{}_{}",
            std::process::id(),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        );
        let db = Db {
            agent,
            url: format!("{}/{name}", base.trim_end_matches('/')),
        };
        let status = db.agent.put(&db.url).send_empty().unwrap().status();
        assert_eq!(status, StatusCode::CREATED, "PUT {}", db.url);
        Some(db)
    }

    /// Stores one document per id in one `_bulk_docs` request, in the order
    /// given.
    fn insert(&self, ids: &[String]) {
        let docs: Vec<Value> = ids.iter().map(|id| json!({ "_id": id })).collect();
        let mut r = self
            .agent
            .post(format!("{}/_bulk_docs", self.url))
            .send_json(json!({ "docs": docs }))
            .unwrap();
        assert_eq!(r.status(), StatusCode::CREATED);
        let results: Vec<Value> = r.body_mut().read_json().unwrap();
        assert!(results.iter().all(|d| d["ok"] == true), "{results:?}");
    }

    /// The ids `_all_docs` returns for these query parameters (keys given
    /// as JSON, as CouchDB wants them).
    pub(crate) fn all_docs(&self, params: &[(&str, Value)]) -> Vec<String> {
        let mut req = self.agent.get(format!("{}/_all_docs", self.url));
        for (k, v) in params {
            req = req.query(*k, v.to_string());
        }
        let mut r = req.call().unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        let body: Value = r.body_mut().read_json().unwrap();
        body["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["id"].as_str().unwrap().to_owned())
            .collect()
    }

    fn count(&self) -> u64 {
        let mut r = self.agent.get(&self.url).call().unwrap();
        let info: Value = r.body_mut().read_json().unwrap();
        info["doc_count"].as_u64().unwrap()
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        let _ = self.agent.delete(&self.url).call();
    }
}

/// `v` in an order unrelated to its own (a fixed stride through it).
fn shuffled<T: Clone>(v: &[T]) -> Vec<T> {
    let n = v.len();
    (0..n).map(|i| v[(i * 7919 + 13) % n].clone()).collect()
}

fn unit_ms(layout: Layout) -> u64 {
    match layout.precision {
        Precision::Seconds => 1000,
        Precision::Millis => 1,
    }
}

#[test]
fn the_newest_documents_come_from_all_docs_alone() {
    for layout in LAYOUTS {
        let Some(db) = Db::new("newest") else { return };
        // Minted over several time units, monotonic within each, so mint
        // order is the order the keys must have.
        let now = kuuid::Timestamp::now().as_millis();
        let mut minted = Vec::new();
        for step in (0..4).rev() {
            let mut g = Generator::secure()
                .with_layout(layout)
                .monotonic()
                .at(now - step * unit_ms(layout))
                .unwrap();
            minted.extend((0..75).map(|_| g.generate().to_string()));
        }
        db.insert(&shuffled(&minted));
        let newest_first: Vec<String> = minted.iter().rev().take(100).cloned().collect();
        let got = match layout.order {
            TimeOrder::Forward => {
                db.all_docs(&[("descending", json!(true)), ("limit", json!(100))])
            }
            TimeOrder::Reverse => db.all_docs(&[("limit", json!(100))]),
        };
        assert_eq!(got, newest_first, "{layout:?}");
    }
}

/// Ids of every length at each time unit from `from - 2` to `to + 2`
/// units, with the smallest and largest random parts; returns them and the
/// ones whose time lies in `[from, to]`.
fn ids_around(layout: Layout, from: u64, to: u64) -> (Vec<String>, Vec<String>) {
    let unit = unit_ms(layout);
    let (mut all, mut inside) = (Vec::new(), Vec::new());
    let mut t = from - 2 * unit;
    while t <= to + 2 * unit {
        let prefix = layout.prefix(t).unwrap();
        let mut here: Vec<String> = [[0u32; 4], [u32::MAX; 4]]
            .iter()
            .map(|w| Kuuid::from_parts(prefix, w).unwrap().to_string())
            .collect();
        for groups in 1..=4 {
            let id: AnyKuuid = Options::new()
                .at(t)
                .millisecond(layout.precision == Precision::Millis)
                .reverse(layout.order == TimeOrder::Reverse)
                .random(groups)
                .id()
                .unwrap();
            here.push(id.to_string());
        }
        if from <= t && t <= to {
            inside.extend(here.iter().cloned());
        }
        all.extend(here);
        t += unit;
    }
    (all, inside)
}

#[test]
fn a_time_interval_is_one_key_range_in_every_layout() {
    for layout in LAYOUTS {
        let Some(db) = Db::new("interval") else {
            return;
        };
        // A 3-unit interval, its edges included.
        let from = 1_700_000_000_000;
        let to = from + 2 * unit_ms(layout);
        let (all, mut inside) = ids_around(layout, from, to);
        db.insert(&shuffled(&all));
        let r = KeyRange::new(layout, from, to).unwrap();
        let got = db.all_docs(&[
            ("startkey", json!(r.startkey())),
            ("endkey", json!(r.endkey())),
        ]);
        inside.sort();
        assert_eq!(got, inside, "{layout:?}");
        assert_eq!(inside.len(), 3 * 6);
    }
}

#[test]
fn a_type_prefix_narrows_the_interval_to_one_type() {
    for layout in LAYOUTS {
        let Some(db) = Db::new("typed") else { return };
        let from = 1_700_000_000_000;
        let to = from + 2 * unit_ms(layout);
        let (all, inside) = ids_around(layout, from, to);
        // Users and orders minted at the same times, and a type whose name
        // starts with the other's.
        let mut docs = Vec::new();
        for ty in ["user:", "order:", "users:"] {
            docs.extend(all.iter().map(|id| format!("{ty}{id}")));
        }
        db.insert(&shuffled(&docs));
        let r = KeyRange::new(layout, from, to)
            .unwrap()
            .with_prefix("user:");
        let got = db.all_docs(&[
            ("startkey", json!(r.startkey())),
            ("endkey", json!(r.endkey())),
        ]);
        let mut want: Vec<String> = inside.iter().map(|id| format!("user:{id}")).collect();
        want.sort();
        assert_eq!(got, want, "{layout:?}");
    }
}

#[test]
fn a_retried_post_stores_twice_and_a_retried_put_conflicts() {
    let Some(db) = Db::new("retry") else { return };
    let doc = json!({ "type": "order", "total": 42 });
    // The server makes the id: a client that lost the first 201 and sends
    // the write again has no way to say "the same document".
    for _ in 0..2 {
        let r = db.agent.post(&db.url).send_json(&doc).unwrap();
        assert_eq!(r.status(), StatusCode::CREATED);
    }
    assert_eq!(db.count(), 2, "POST twice: two copies");
    // The client makes the id: the retry names the same document and the
    // database refuses it.
    let id = kuuid::id();
    let url = format!("{}/{id}", db.url);
    let first = db.agent.put(&url).send_json(&doc).unwrap().status();
    let retry = db.agent.put(&url).send_json(&doc).unwrap().status();
    assert_eq!((first, retry), (StatusCode::CREATED, StatusCode::CONFLICT));
    assert_eq!(db.count(), 3, "PUT twice: one more copy, not two");
    assert_eq!(
        db.all_docs(&[("key", json!(id.as_str()))]),
        [id.to_string()]
    );
}
