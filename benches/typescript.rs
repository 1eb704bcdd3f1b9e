//! Stripping TypeScript from a cell: a realistic 2 KB cell (interfaces,
//! annotations, generics, `as`, `satisfies`, `!`) through the stripper, as
//! a cell that does not compile as JavaScript is
//! (`codemode_runtime::bench_strip`, a hidden hook). Plain JavaScript never
//! reaches it: the A/B of a trivial cell with the `typescript` feature on
//! and off is two `codemode bench` binaries.
//!
//! `cargo bench -p codemode-benches --bench typescript`.

#![expect(missing_docs, reason = "criterion_group! generates an undocumented function")]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const CELL: &str = include_str!("typescript_cell.ts");

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
}

criterion_group!(benches, typescript);
criterion_main!(benches);
