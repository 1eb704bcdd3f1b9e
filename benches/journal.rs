//! The durable-run journal's in-memory recording cost per tool call: a
//! request's fingerprint and its step's encoded reply, as a
//! cell with `journal = "park"` records them, without a QuickJS context
//! around (`codemode_runtime::bench_record_calls`, a hidden hook).
//!
//! `cargo bench -p codemode-benches --bench journal`; the figure per call
//! is the median for 100 calls divided by 100. The end-to-end A/B through
//! cells (`journal` = park vs off) is `codemode bench --only journal`.

#![expect(missing_docs, reason = "criterion_group! generates an undocumented function")]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn journal(c: &mut Criterion) {
    let mut group = c.benchmark_group("journal");
    for calls in [1_u64, 100, 2_000] {
        group.throughput(Throughput::Elements(calls));
        group.bench_function(format!("record {calls} calls"), |b| {
            b.iter(|| codemode_runtime::bench_record_calls(std::hint::black_box(calls)));
        });
    }
    group.finish();
}

criterion_group!(benches, journal);
criterion_main!(benches);
