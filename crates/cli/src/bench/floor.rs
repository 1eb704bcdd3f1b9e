//! The engine floor: the bare QuickJS engine (a runtime, a full context,
//! `eval("1")`, freed) beside codemode's own engine for a trivial cell
//! (the guest API installed, the cell compiled and run, freed), measured
//! alternately in one run so the ratio holds on a noisy machine; and the
//! floor's cells per second on every core, the ceiling of the throughput
//! scenario.

use std::time::{Duration, Instant};

use anyhow::{Result, anyhow};
use codemode_runtime::{CodeMode, bench_engine_floor};
use serde::Serialize;

use super::stats::{Quantiles, quantiles};

/// Engines per timed batch: long enough that the clock's resolution does
/// not matter, short enough for many batches.
const BATCH: u32 = 50;
/// Batches of each kind, alternating.
const ROUNDS: usize = 41;
/// How long every core makes bare engines, for the floor's cells/s.
const RATE_WINDOW: Duration = Duration::from_secs(1);

/// What the floor scenario measured.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Floor {
    /// Microseconds per bare engine, per batch.
    pub bare_micros: Quantiles,
    /// Microseconds per codemode engine (prepared, trivial cell, freed).
    pub engine_micros: Quantiles,
    /// Median of the per-round ratios engine / bare.
    pub ratio: f64,
    /// Bare engines per second with one thread per core.
    pub floor_cells_per_second: f64,
    pub threads: usize,
}

/// Runs the floor scenario on `rt`'s engines.
pub(super) async fn floor(rt: &CodeMode, threads: usize) -> Result<Floor> {
    let rt = rt.clone();
    tokio::task::spawn_blocking(move || measure(&rt, threads)).await?
}

fn measure(rt: &CodeMode, threads: usize) -> Result<Floor> {
    let per = |d: Duration| d.as_secs_f64() * 1e6 / f64::from(BATCH);
    // Warm-up: the prelude compiled, the allocator's arenas grown.
    bench_engine_floor(BATCH).map_err(|e| anyhow!(e))?;
    rt.bench_engine(BATCH).map_err(|e| anyhow!(e))?;
    let (mut bare, mut engine, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        // Alternate which goes first, so neither always follows the other.
        let (b, e) = if round % 2 == 0 {
            let b = bench_engine_floor(BATCH).map_err(|e| anyhow!(e))?;
            (b, rt.bench_engine(BATCH).map_err(|e| anyhow!(e))?)
        } else {
            let e = rt.bench_engine(BATCH).map_err(|e| anyhow!(e))?;
            (bench_engine_floor(BATCH).map_err(|e| anyhow!(e))?, e)
        };
        bare.push(per(b));
        engine.push(per(e));
        ratios.push(per(e) / per(b));
    }
    let ratio = quantiles(&ratios).p50;
    let floor_cells_per_second = rate(threads)?;
    Ok(Floor {
        bare_micros: quantiles(&bare),
        engine_micros: quantiles(&engine),
        ratio,
        floor_cells_per_second,
        threads,
    })
}

/// Bare engines per second, `threads` threads making them for
/// [`RATE_WINDOW`].
fn rate(threads: usize) -> Result<f64> {
    let start = Instant::now();
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            std::thread::Builder::new().stack_size(4 * 1024 * 1024).spawn(move || -> Result<u64, String> {
                let mut made = 0u64;
                while start.elapsed() < RATE_WINDOW {
                    bench_engine_floor(10)?;
                    made += 10;
                }
                Ok(made)
            })
        })
        .collect::<std::io::Result<_>>()?;
    let mut made = 0;
    for w in workers {
        made += w.join().map_err(|_| anyhow!("a floor thread panicked"))?.map_err(|e| anyhow!(e))?;
    }
    Ok(made as f64 / start.elapsed().as_secs_f64())
}
