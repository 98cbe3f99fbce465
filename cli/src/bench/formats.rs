//! The other formats' rows of `kuuid bench`, on the process's path: one
//! id at a time and in bulk, each as text.

use std::hint::black_box;

use kuuid::couch::{Algorithm, Uuids};
use kuuid::{Ksuid, ObjectId, Ulid, Uuid7};

use super::Bench;
use super::name::Name;
use super::report::Figure;
use super::timing::stats;

impl Bench {
    /// The other formats on the process's path: single and bulk text.
    pub(super) fn formats(&mut self) {
        let (n, rounds) = (self.n, self.rounds);
        let couch = [Algorithm::Sequential, Algorithm::UtcRandom];
        self.expect(9 + couch.len());
        let t = stats(rounds, || {
            for _ in 0..n {
                black_box(kuuid::v7().hyphenated_bytes());
            }
        });
        self.push(Figure::new(Name::V7Single, "id", 1, t, n as u64));
        let mut v7 = vec![Uuid7::MIN; n];
        let mut v7_text = vec![[0u8; 36]; n];
        let t = stats(rounds, || {
            kuuid::fill_v7(&mut v7);
            Uuid7::encode_hyphenated_many(&v7, &mut v7_text);
            black_box(&v7_text);
        });
        self.push(Figure::new(Name::V7BulkText, "id", 1, t, n as u64));
        let t = stats(rounds, || {
            for _ in 0..n {
                black_box(kuuid::object_id().hex_bytes());
            }
        });
        self.push(Figure::new(Name::ObjectIdSingle, "id", 1, t, n as u64));
        let mut oids = vec![ObjectId::default(); n];
        let mut oid_text = vec![[0u8; 24]; n];
        let t = stats(rounds, || {
            kuuid::fill_object_id(&mut oids);
            ObjectId::encode_hex_many(&oids, &mut oid_text);
            black_box(&oid_text);
        });
        self.push(Figure::new(Name::ObjectIdBulkText, "id", 1, t, n as u64));
        let t = stats(rounds, || {
            for _ in 0..n {
                black_box(kuuid::ulid().text_bytes());
            }
        });
        self.push(Figure::new(Name::UlidSingle, "id", 1, t, n as u64));
        // Straight to text, as a bulk loader would (no slice of ids first).
        let mut ulid_text = vec![[0u8; 26]; n];
        let t = stats(rounds, || {
            kuuid::fill_ulid_text(&mut ulid_text);
            black_box(&ulid_text);
        });
        self.push(Figure::new(Name::UlidBulkText, "id", 1, t, n as u64));
        let mut ulids = vec![Ulid::MIN; n];
        let t = stats(rounds, || {
            let read = Ulid::parse_many(ulid_text.as_flattened(), 26, &mut ulids);
            read.expect("the texts just written");
            black_box(&ulids);
        });
        self.push(Figure::new(Name::UlidParseMany, "id", 1, t, n as u64));
        let t = stats(rounds, || {
            for _ in 0..n {
                black_box(kuuid::ksuid().text_bytes());
            }
        });
        self.push(Figure::new(Name::KsuidSingle, "id", 1, t, n as u64));
        let mut ksuids = vec![Ksuid::MIN; n];
        let mut ksuid_text = vec![[0u8; 27]; n];
        let t = stats(rounds, || {
            kuuid::fill_ksuid(&mut ksuids);
            Ksuid::encode_many(&ksuids, &mut ksuid_text);
            black_box(&ksuid_text);
        });
        self.push(Figure::new(Name::KsuidBulkText, "id", 1, t, n as u64));
        // Into bytes, as the rows above: `generate_into` a `String` adds a
        // UTF-8 check of the text (~3 ns).
        for algorithm in couch {
            let uuids = Uuids::new(algorithm);
            let mut s = Vec::with_capacity(40);
            let t = stats(rounds, || {
                for _ in 0..n {
                    s.clear();
                    uuids.generate_into_bytes(&mut s).expect("now is in range");
                    black_box(&s);
                }
            });
            self.push(Figure::new(Name::Couch(algorithm), "id", 1, t, n as u64));
        }
    }
}
