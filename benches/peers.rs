//! kuuid next to the crates a user would pick instead: one id at a time and
//! 10^6 at once, each rendered to its text (what goes into a document or a
//! key), with a 32-byte store of the same size as the floor.
//!
//! `cargo bench --bench peers`

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ferroid::base32::Base32UlidExt;
use kuuid::{Kuuid, ObjectId, Uuid7};
use svix_ksuid::KsuidLike;

const BULK: usize = 1_000_000;

fn single(c: &mut Criterion) {
    let mut g = c.benchmark_group("peers single");
    g.throughput(Throughput::Elements(1));
    // Each writes its id's text into a stack buffer that black_box sees.
    g.bench_function("floor: 32-byte store", |b| {
        let mut x = 0u8;
        b.iter(|| {
            x = x.wrapping_add(1);
            black_box([x; 32]);
        })
    });
    g.bench_function("kuuid::id (32 chars)", |b| {
        b.iter(|| black_box(*kuuid::id().as_bytes()))
    });
    g.bench_function("kuuid::v7 (36)", |b| {
        b.iter(|| black_box(kuuid::v7().hyphenated_bytes()))
    });
    g.bench_function("kuuid::object_id (24)", |b| {
        b.iter(|| black_box(kuuid::object_id().hex_bytes()))
    });
    g.bench_function("uuid new_v4, fast-rng (36)", |b| {
        b.iter(|| {
            let mut buf = [0u8; 36];
            uuid::Uuid::new_v4().hyphenated().encode_lower(&mut buf);
            black_box(buf);
        })
    });
    g.bench_function("uuid now_v7 (36)", |b| {
        b.iter(|| {
            let mut buf = [0u8; 36];
            uuid::Uuid::now_v7().hyphenated().encode_lower(&mut buf);
            black_box(buf);
        })
    });
    g.bench_function("kuuid::ulid (26)", |b| {
        b.iter(|| black_box(kuuid::ulid().text_bytes()))
    });
    let mut own_ulid = kuuid::UlidGenerator::new();
    g.bench_function("kuuid UlidGenerator (26)", |b| {
        b.iter(|| black_box(own_ulid.generate().text_bytes()))
    });
    g.bench_function("kuuid::ksuid (27)", |b| {
        b.iter(|| black_box(kuuid::ksuid().text_bytes()))
    });
    g.bench_function("ulid Ulid::generate (26)", |b| {
        b.iter(|| {
            let mut buf = [0u8; 26];
            ulid::Ulid::generate().array_to_str(&mut buf);
            black_box(buf);
        })
    });
    let mut gen_ulid = ulid::Generator::new();
    g.bench_function("ulid Generator, monotonic (26)", |b| {
        b.iter(|| {
            let mut buf = [0u8; 26];
            gen_ulid.generate().unwrap().array_to_str(&mut buf);
            black_box(buf);
        })
    });
    g.bench_function("ferroid thread-local monotonic ULID (26)", |b| {
        b.iter(|| {
            let id =
                ferroid::generator::thread_local::Ulid::new_ulid_mono(|_| std::thread::yield_now());
            let mut buf = Default::default();
            black_box(id.encode_to_buf(&mut buf).as_bytes());
        })
    });
    g.bench_function("scru128 (25)", |b| {
        b.iter(|| black_box(scru128::new().encode()))
    });
    g.bench_function("svix-ksuid (27)", |b| {
        b.iter(|| {
            black_box(svix_ksuid::Ksuid::new(None::<std::time::SystemTime>, None).to_string())
        })
    });
    g.bench_function("bson ObjectId::new + to_hex (24)", |b| {
        b.iter(|| black_box(bson::oid::ObjectId::new().to_hex()))
    });
    g.finish();
}

/// `n` texts of `LEN` bytes, each written by `one`.
fn texts<const LEN: usize>(out: &mut [[u8; LEN]], mut one: impl FnMut(&mut [u8; LEN])) {
    for slot in out.iter_mut() {
        one(slot);
    }
}

fn bulk(c: &mut Criterion) {
    let mut g = c.benchmark_group("peers bulk 10^6");
    g.throughput(Throughput::Elements(BULK as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(4));
    let mut store = vec![[0u8; 32]; BULK];
    g.bench_function("floor: 32-byte stores", |b| {
        let mut x = 0u8;
        b.iter(|| {
            x = x.wrapping_add(1);
            store.fill([x; 32]);
            black_box(&store);
        })
    });
    let mut ids = vec![Kuuid::default(); BULK];
    g.bench_function("kuuid::fill (32 chars)", |b| {
        b.iter(|| {
            kuuid::fill(&mut ids);
            black_box(&ids);
        })
    });
    let mut fast = kuuid::Generator::fast();
    g.bench_function("kuuid Generator::fast fill (32)", |b| {
        b.iter(|| {
            fast.fill(&mut ids);
            black_box(&ids);
        })
    });
    let (mut v7, mut v7_text) = (vec![Uuid7::MIN; BULK], vec![[0u8; 36]; BULK]);
    g.bench_function("kuuid fill_v7 + text (36)", |b| {
        b.iter(|| {
            kuuid::fill_v7(&mut v7);
            Uuid7::encode_hyphenated_many(&v7, &mut v7_text);
            black_box(&v7_text);
        })
    });
    let (mut oids, mut oid_text) = (vec![ObjectId::default(); BULK], vec![[0u8; 24]; BULK]);
    g.bench_function("kuuid fill_object_id + text (24)", |b| {
        b.iter(|| {
            kuuid::fill_object_id(&mut oids);
            ObjectId::encode_hex_many(&oids, &mut oid_text);
            black_box(&oid_text);
        })
    });
    let mut t36 = vec![[0u8; 36]; BULK];
    g.bench_function("uuid new_v4, fast-rng (36)", |b| {
        b.iter(|| {
            texts(&mut t36, |s| {
                uuid::Uuid::new_v4().hyphenated().encode_lower(s);
            });
            black_box(&t36);
        })
    });
    g.bench_function("uuid now_v7 (36)", |b| {
        b.iter(|| {
            texts(&mut t36, |s| {
                uuid::Uuid::now_v7().hyphenated().encode_lower(s);
            });
            black_box(&t36);
        })
    });
    let mut t26 = vec![[0u8; 26]; BULK];
    let mut ulids = vec![kuuid::Ulid::MIN; BULK];
    g.bench_function("kuuid fill_ulid + text (26)", |b| {
        b.iter(|| {
            kuuid::fill_ulid(&mut ulids);
            kuuid::Ulid::encode_many(&ulids, &mut t26);
            black_box(&t26);
        })
    });
    g.bench_function("kuuid fill_ulid_text (26)", |b| {
        b.iter(|| {
            kuuid::fill_ulid_text(&mut t26);
            black_box(&t26);
        })
    });
    g.bench_function("ulid Ulid::generate (26)", |b| {
        b.iter(|| {
            texts(&mut t26, |s| {
                ulid::Ulid::generate().array_to_str(s);
            });
            black_box(&t26);
        })
    });
    let mut gen_ulid = ulid::Generator::new();
    g.bench_function("ulid Generator, monotonic (26)", |b| {
        b.iter(|| {
            texts(&mut t26, |s| {
                gen_ulid.generate().unwrap().array_to_str(s);
            });
            black_box(&t26);
        })
    });
    g.bench_function("ferroid thread-local monotonic ULID (26)", |b| {
        b.iter(|| {
            texts(&mut t26, |s| {
                let id = ferroid::generator::thread_local::Ulid::new_ulid_mono(|_| {
                    std::thread::yield_now()
                });
                let mut buf = Default::default();
                s.copy_from_slice(id.encode_to_buf(&mut buf).as_bytes());
            });
            black_box(&t26);
        })
    });
    let mut t25 = vec![[0u8; 25]; BULK];
    g.bench_function("scru128 (25)", |b| {
        b.iter(|| {
            texts(&mut t25, |s| {
                s.copy_from_slice(scru128::new().encode().as_bytes())
            });
            black_box(&t25);
        })
    });
    let mut t27 = vec![[0u8; 27]; BULK];
    let mut ksuids = vec![kuuid::Ksuid::MIN; BULK];
    g.bench_function("kuuid fill_ksuid + text (27)", |b| {
        b.iter(|| {
            kuuid::fill_ksuid(&mut ksuids);
            kuuid::Ksuid::encode_many(&ksuids, &mut t27);
            black_box(&t27);
        })
    });
    g.bench_function("svix-ksuid (27)", |b| {
        b.iter(|| {
            texts(&mut t27, |s| {
                let k = svix_ksuid::Ksuid::new(None::<std::time::SystemTime>, None).to_string();
                s.copy_from_slice(k.as_bytes());
            });
            black_box(&t27);
        })
    });
    let mut t24 = vec![[0u8; 24]; BULK];
    g.bench_function("bson ObjectId::new + to_hex (24)", |b| {
        b.iter(|| {
            texts(&mut t24, |s| {
                s.copy_from_slice(bson::oid::ObjectId::new().to_hex().as_bytes())
            });
            black_box(&t24);
        })
    });
    g.finish();
}

criterion_group!(benches, single, bulk);
criterion_main!(benches);
