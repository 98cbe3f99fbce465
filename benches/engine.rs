//! Bulk ns/id for every engine path this CPU runs, encode alone and with
//! each RNG engine, for an L2-resident batch (64 Ki ids) and a 1 Mi-id batch.
//!
//! `cargo bench --bench engine` (add `-- encode` etc. to filter).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kuuid::engine::{Isa, encode_with};
use kuuid::{Generator, Kuuid, RngKind};

const SMALL: usize = 64 * 1024;
const LARGE: usize = 1024 * 1024;

fn encode(c: &mut Criterion) {
    let mut g = c.benchmark_group("encode");
    let mut words = vec![0u32; SMALL * 4];
    let mut rng = Generator::fast();
    let mut scratch = vec![Kuuid::default(); SMALL];
    rng.fill(&mut scratch);
    for (w, id) in words.chunks_exact_mut(4).zip(&scratch) {
        w.copy_from_slice(&id.random_words());
    }
    let mut out = vec![0u8; SMALL * 33];
    g.throughput(Throughput::Elements(SMALL as u64));
    for isa in Isa::available() {
        for stride in [32usize, 33] {
            g.bench_function(
                BenchmarkId::new(isa.name(), format!("stride{stride}")),
                |b| {
                    b.iter(|| {
                        encode_with(
                            isa,
                            b"001eVnWK",
                            black_box(&words),
                            4,
                            &mut out,
                            stride,
                            SMALL,
                        )
                        .unwrap();
                        black_box(&out);
                    })
                },
            );
        }
    }
    g.finish();
}

fn bulk(c: &mut Criterion) {
    let mut g = c.benchmark_group("bulk");
    for n in [SMALL, LARGE] {
        let mut ids = vec![Kuuid::default(); n];
        g.throughput(Throughput::Elements(n as u64));
        for isa in Isa::available() {
            for kind in [RngKind::Fast, RngKind::Secure] {
                let mut gen_ = Generator::new(kind).unwrap().with_isa(isa).unwrap();
                let name = format!(
                    "{}/{}",
                    isa.name(),
                    if kind == RngKind::Fast {
                        "fast"
                    } else {
                        "secure"
                    }
                );
                g.bench_function(BenchmarkId::new(name, n), |b| {
                    b.iter(|| {
                        gen_.fill(&mut ids);
                        black_box(&ids);
                    })
                });
            }
        }
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! { name = benches; config = config(); targets = encode, bulk }
criterion_main!(benches);
