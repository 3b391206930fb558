//! Decoder throughput: `decode_stream` + `text()` over the LLVM corpus
//! (`../shared/corpus/llvm_mimg_vintrp.tsv`, or `$GCNRUN_CORPUS`), one stream per
//! generation, reported by criterion in instructions per second.
//!
//! Run: `cargo bench --bench decode` (add `-- --quick` for a short run).

// The corpus reader the tests use; the bench needs only part of it.
#[allow(dead_code)]
#[path = "../tests/common/corpus.rs"]
mod corpus;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gcnrun::{gcn, Arch};
use std::collections::BTreeMap;

/// The corpus rows concatenated into one byte stream per generation (the rows of
/// a generation all decode with its default processor; the few gfx8.1/gfx10.3-only
/// rows decode for their own `-mcpu` in the corpus test, here they only add load).
fn streams() -> BTreeMap<String, Vec<u8>> {
    let mut out: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for row in corpus::rows() {
        let bytes: Vec<u8> = (0..row.hex.len() / 2)
            .filter_map(|i| u8::from_str_radix(row.hex.get(2 * i..2 * i + 2)?, 16).ok())
            .collect();
        out.entry(row.target.clone()).or_default().extend(bytes);
    }
    out
}

fn bench_decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode_stream+text");
    for (target, bytes) in streams() {
        let Some(arch) = Arch::parse(&target) else {
            continue;
        };
        let count = match gcn::decode_stream(&bytes, &arch) {
            Ok(insts) => insts.len(),
            Err(e) => {
                eprintln!("{target}: corpus stream does not decode ({e}); skipped");
                continue;
            }
        };
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function(&target, |b| {
            b.iter(|| {
                let insts = gcn::decode_stream(black_box(&bytes), &arch).unwrap_or_default();
                let chars: usize = insts.iter().map(|i| i.text().len()).sum();
                black_box(chars)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_decode);
criterion_main!(benches);
