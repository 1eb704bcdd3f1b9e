//! Stripping TypeScript from a cell: a realistic 2 KB cell (interfaces,
//! annotations, generics, `as`, `satisfies`, `!`) through the stripper, as
//! a cell that does not compile as JavaScript is
//! (`codemode_runtime::bench_strip`, a hidden hook); and the scan every
//! cell gets before it compiles, for the text of a generic call, over the
//! same cell's JavaScript twin (`bench_scan`): plain JavaScript without
//! that text pays only the scan. The A/B of a trivial cell with the
//! `typescript` feature on and off is two `codemode bench` binaries.
//!
//! `cargo bench -p codemode-benches --bench typescript`.

#![expect(missing_docs, reason = "criterion_group! generates an undocumented function")]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const CELL: &str = include_str!("typescript_cell.ts");
const JS_CELL: &str = include_str!("javascript_cell.js");

fn typescript(c: &mut Criterion) {
    let mut group = c.benchmark_group("typescript");
    group.throughput(Throughput::Bytes(CELL.len() as u64));
    // As a JS thread strips a cell of up to 4 KiB: where it is.
    group.bench_function("strip a 2 KB cell", |b| {
        b.iter(|| codemode_runtime::bench_strip(std::hint::black_box(CELL), true));
    });
    // As a larger cell is: on a thread of its own.
    group.bench_function("strip a 2 KB cell on a thread of its own", |b| {
        b.iter(|| codemode_runtime::bench_strip(std::hint::black_box(CELL), false));
    });
    group.finish();
    let mut scan = c.benchmark_group("typescript scan");
    scan.throughput(Throughput::Bytes(JS_CELL.len() as u64));
    // Every cell is scanned; this one has comparisons and arrows but no
    // generic call, so the scan reads all of it and the parser never runs.
    assert!(!codemode_runtime::bench_scan(JS_CELL), "the twin has no generic call");
    scan.bench_function("scan a 2 KB JavaScript cell", |b| {
        b.iter(|| codemode_runtime::bench_scan(std::hint::black_box(JS_CELL)));
    });
    scan.finish();
}

criterion_group!(benches, typescript);
criterion_main!(benches);
