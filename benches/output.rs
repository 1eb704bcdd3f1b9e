//! Output benchmarks: console inspection volume and a 1 MiB final value.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented function")]

use std::time::Instant;

use codemode_benches::{Noop, completed, on_worker, tokio_runtime};
use codemode_runtime::{CodeMode, Exec, Limits};
use criterion::{Criterion, criterion_group, criterion_main};

fn console_volume(c: &mut Criterion) {
    let rt = tokio_runtime();
    let cm = rt.block_on(async { CodeMode::builder().tool(Noop).start().await.unwrap() });
    let code = "const o = Object.fromEntries(Array.from({length: 20}, (_, i) => ['key' + i, i])); \
                for (let i = 0; i < 10000; i++) console.log(o); return 1";
    c.bench_function("10,000 console.log of a 20-key object in one cell", |b| {
        b.iter_custom(|iters| {
            let reply = cm.session("bench").reply("r");
            on_worker(&rt, move || async move {
                let start = Instant::now();
                for _ in 0..iters {
                    completed(&reply.exec(Exec::code(code)).await.unwrap());
                }
                start.elapsed()
            })
        });
    });
}

fn mib_final_value(c: &mut Criterion) {
    let rt = tokio_runtime();
    let limits = Limits { max_output_bytes: 10 * 1024 * 1024, ..Limits::default() };
    let cm = rt.block_on(async { CodeMode::builder().limits(limits).start().await.unwrap() });
    // 6,400 rows of ~160 bytes: about 1 MiB of compact JSON.
    let code = "return Array.from({length: 6400}, (_, i) => ({id: i, name: 'row ' + i, score: i * 1.5, \
                tags: ['a', 'b', 'c'], nested: {ok: i % 2 === 0, note: 'some text to make it wider ' + i}}))";
    let mut group = c.benchmark_group("final value");
    group.sample_size(20);
    group.bench_function("1 MiB JSON final value", |b| {
        b.iter_custom(|iters| {
            let reply = cm.session("bench").reply("r");
            on_worker(&rt, move || async move {
                let start = Instant::now();
                for _ in 0..iters {
                    completed(&reply.exec(Exec::code(code)).await.unwrap());
                }
                start.elapsed()
            })
        });
    });
    group.finish();
}

criterion_group!(benches, console_volume, mib_final_value);
criterion_main!(benches);
