//! Executor benchmarks: trivial cell, host-request round trip, yield/wait.
//!
//! Every measurement runs on a tokio worker task, as an embedding host's
//! request handler would.
#![expect(missing_docs, reason = "criterion_group! generates an undocumented function")]

use std::time::Instant;

use codemode_benches::{codemode, completed, on_worker, time_n, tokio_runtime};
use codemode_runtime::Exec;
use criterion::{Criterion, criterion_group, criterion_main};

fn trivial_cell(c: &mut Criterion) {
    let rt = tokio_runtime();
    let cm = rt.block_on(codemode());
    c.bench_function("trivial cell `return 1` end to end", |b| {
        b.iter_custom(|iters| {
            let reply = cm.session("bench").reply("r");
            on_worker(&rt, move || async move {
                time_n(iters, || async {
                    completed(&reply.exec(Exec::code("return 1")).await.unwrap());
                })
                .await
            })
        });
    });
}

fn trivial_cell_on_an_idle_runtime(c: &mut Criterion) {
    let rt = tokio_runtime();
    let cm = rt.block_on(codemode());
    // How a model-driven host sees it: cells arrive with gaps between them,
    // in which the JS threads prepare their spare engines.
    c.bench_function("trivial cell `return 1` on an idle runtime", |b| {
        b.iter_custom(|iters| {
            let reply = cm.session("bench").reply("r");
            on_worker(&rt, move || async move {
                let mut total = std::time::Duration::ZERO;
                for _ in 0..iters {
                    tokio::time::sleep(std::time::Duration::from_millis(2)).await;
                    let start = Instant::now();
                    completed(&reply.exec(Exec::code("return 1")).await.unwrap());
                    total += start.elapsed();
                }
                total
            })
        });
    });
}

fn host_request(c: &mut Criterion) {
    let rt = tokio_runtime();
    let cm = rt.block_on(codemode());
    let mut group = c.benchmark_group("host request round trip");
    // One cell makes `iters` sequential awaited calls; the cell's own start
    // cost is amortised over them.
    for (name, call) in
        [("await noop()", "await noop()"), ("await setTimeout 0", "await new Promise(r => setTimeout(r, 0))")]
    {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let reply = cm.session("bench").reply("r");
                let code = format!("for (let i = 0; i < {iters}; i++) {call}; return 1");
                on_worker(&rt, move || async move {
                    let start = Instant::now();
                    completed(&reply.exec(Exec::code(code)).await.unwrap());
                    start.elapsed()
                })
            });
        });
    }
    group.finish();
}

fn yield_wait(c: &mut Criterion) {
    let rt = tokio_runtime();
    let cm = rt.block_on(codemode());
    c.bench_function("yield_control then wait round trip", |b| {
        b.iter_custom(|iters| {
            let reply = cm.session("bench").reply("r");
            on_worker(&rt, move || async move {
                let code = format!("for (let i = 0; i < {iters}; i++) await yield_control(); return 1");
                let mut result = reply.exec(Exec::code(code)).await.unwrap();
                let start = Instant::now();
                while let Some(run_id) = result.run_id().map(str::to_owned) {
                    result = reply.wait(&run_id).await.unwrap();
                }
                completed(&result);
                start.elapsed()
            })
        });
    });
}

criterion_group!(benches, trivial_cell, trivial_cell_on_an_idle_runtime, host_request, yield_wait);
criterion_main!(benches);
