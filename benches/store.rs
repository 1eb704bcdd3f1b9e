//! Store benchmarks: a session commit with its flush (median and p99), a
//! load, and `results.save` of a 1 MiB value with its preview.
//!
//! `cargo bench -p codemode-benches --bench store`; prints medians and p99
//! over 500 commits and loads and 20 saves, after warm-up.

use std::time::{Duration, Instant};

use codemode_benches::{completed, on_worker, tokio_runtime};
use codemode_runtime::{CodeMode, Exec, Limits};
use codemode_store::{SessionStore, StoreLimits, StoredValue};

fn stats(mut samples: Vec<Duration>) -> String {
    samples.sort_unstable();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q) as usize];
    format!("median {:?}, p90 {:?}, p99 {:?} (n={})", at(0.5), at(0.9), at(0.99), samples.len())
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let rt = tokio_runtime();
    let dir = std::env::temp_dir().join(format!("codemode-bench-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = SessionStore::open(Some(&dir), StoreLimits::default(), "bench-store".into()).unwrap();
    rt.block_on(store.start_actor(None)).unwrap();
    let value = StoredValue { json: format!("\"{}\"", "x".repeat(1022)), network: false };
    let (commits, loads) = rt.block_on({
        let store = store.clone();
        async move {
            tokio::spawn(async move {
                let mut commits = Vec::new();
                for i in 0..520 {
                    let start = Instant::now();
                    store.commit("s", vec![(format!("k{}", i % 50), Some(value.clone()))]).await.unwrap();
                    if i >= 20 {
                        commits.push(start.elapsed());
                    }
                }
                let mut loads = Vec::new();
                for i in 0..520 {
                    let start = Instant::now();
                    store.load("s", &format!("k{}", i % 50)).await.unwrap();
                    if i >= 20 {
                        loads.push(start.elapsed());
                    }
                }
                (commits, loads)
            })
            .await
            .unwrap()
        }
    });
    println!("store commit of 1 KiB with flush: {}", stats(commits));
    println!("store load of 1 KiB: {}", stats(loads));
    let _ = std::fs::remove_dir_all(&dir);

    let limits = Limits { max_output_bytes: 10 * 1024 * 1024, ..Limits::default() };
    let cm = rt.block_on(async { CodeMode::builder().limits(limits).start().await.unwrap() });
    let code = "const rows = Array.from({length: 6400}, (_, i) => ({id: i, name: 'row ' + i, score: i * 1.5, \
                tags: ['a', 'b', 'c'], nested: {ok: i % 2 === 0, note: 'some text to make it wider ' + i}})); \
                const t = Date.now(); const d = await results.save(rows); return d.bytes";
    let mut saves = Vec::new();
    for i in 0..25 {
        let reply = cm.session("bench").reply(format!("r{i}"));
        let elapsed = on_worker(&rt, move || async move {
            let start = Instant::now();
            let r = reply.exec(Exec::code(code)).await.unwrap();
            completed(&r);
            reply.end();
            start.elapsed()
        });
        if i >= 5 {
            saves.push(elapsed);
        }
    }
    println!("cell building 6,400 rows (~1 MiB) and saving them with a preview: {}", stats(saves));
}
