//! The cells the benchmark runs and how it times them: the native `noop`
//! tool, the scenarios' code, and one exec measured to its model-facing
//! text.

use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use codemode_runtime::{CellResult, Exec, Reply, Tool, ToolFuture, ToolOutput};
use serde_json::{Value, json};

use super::stats::{ms, quantiles};

/// The reference's `noop` fixture: input `{}`, returns `{ok: true}`.
#[derive(Debug)]
pub(super) struct Noop;

impl Tool for Noop {
    fn name(&self) -> &str {
        "noop"
    }

    fn description(&self) -> &str {
        "Does nothing and returns {ok: true}."
    }

    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }

    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(std::future::ready(Ok(ToolOutput::json(json!({"ok": true})))))
    }
}

/// The scenarios' cells: a trivial one, 100 sequential and 100 concurrent
/// `noop` calls, and one park.
pub(super) const TRIVIAL: &str = "return 1";
/// A short TypeScript cell as models write one, and its JavaScript twin:
/// the first exec of each in a fresh process, alternating, is what
/// TypeScript support costs a cell that needs it.
pub(super) const SMALL_TS: &str = "interface Row { id: number; name: string }\n\
                                   const rows: Row[] = [{ id: 1, name: \"a\" }];\n\
                                   return rows.map((r: Row): number => r.id)[0]!;";
pub(super) const SMALL_JS: &str = "\n\
                                   const rows = [{ id: 1, name: \"a\" }];\n\
                                   return rows.map((r) => r.id)[0];";
pub(super) const SEQ100: &str = "for (let i = 0; i < 100; i++) await noop({}); return 1;";
pub(super) const PAR100: &str = "await Promise.all(Array.from({ length: 100 }, () => noop({}))); return 1;";
pub(super) const YIELD: &str = "await yield_control('bench'); return 1;";
/// The per-call cost seen from inside one cell, without cell start-up:
/// 2,000 sequential awaits, and 20 rounds of 100 concurrent calls.
pub(super) const IN_CELL: &str = "for (let i = 0; i < 200; i++) await noop({}); let t = performance.now(); \
for (let i = 0; i < 2000; i++) await noop({}); const seq = (performance.now() - t) * 1000 / 2000; \
t = performance.now(); for (let r = 0; r < 20; r++) await Promise.all(Array.from({ length: 100 }, () => noop({}))); \
return [seq, (performance.now() - t) * 1000 / 2000];";

/// Median over 9 runs of [`IN_CELL`]: (sequential, concurrent) µs per call.
pub(super) async fn in_cell(reply: &Reply) -> Result<(f64, f64)> {
    let mut seq = Vec::new();
    let mut par = Vec::new();
    for _ in 0..9 {
        let (r, _) = timed_exec(reply, IN_CELL).await?;
        expect(&r, "completed", "in-cell calls")?;
        if let CellResult::Completed { value, .. } = &r {
            seq.push(value[0].as_f64().unwrap_or(f64::NAN));
            par.push(value[1].as_f64().unwrap_or(f64::NAN));
        }
    }
    Ok((quantiles(&seq).p50, quantiles(&par).p50))
}

/// The kernel's part of a step in a worker: median µs of a round trip
/// over a socket pair between two threads, a 150-byte message out and a
/// 436-byte reply back (the sizes of a noop call's step and report), each
/// read by a thread asleep in `read`, as a lane's are.
pub(super) fn socket_round_trip() -> Result<f64> {
    use std::io::{Read, Write};
    const TRIPS: usize = 5_000;
    let (mut near, mut far) = std::os::unix::net::UnixStream::pair()?;
    let echo = std::thread::spawn(move || -> std::io::Result<()> {
        let (mut message, reply) = ([0u8; 150], [1u8; 436]);
        while far.read_exact(&mut message).is_ok() {
            far.write_all(&reply)?;
        }
        Ok(())
    });
    let (message, mut reply) = ([0u8; 150], [0u8; 436]);
    let mut per_trip = Vec::new();
    for _ in 0..9 {
        let start = Instant::now();
        for _ in 0..TRIPS {
            near.write_all(&message)?;
            near.read_exact(&mut reply)?;
        }
        per_trip.push(start.elapsed().as_secs_f64() * 1e6 / TRIPS as f64);
    }
    drop(near);
    echo.join().map_err(|_| anyhow::anyhow!("the echo thread panicked"))??;
    Ok(quantiles(&per_trip).p50)
}

pub(super) fn expect(result: &CellResult, status: &str, what: &str) -> Result<()> {
    if result.status() != status {
        bail!("{what}: expected {status}, got {}", result.to_model_json());
    }
    Ok(())
}

/// One exec to its model-facing text; returns the result and the time.
pub(super) async fn timed_exec(reply: &Reply, code: &str) -> Result<(CellResult, f64)> {
    let start = Instant::now();
    let result = reply.exec(Exec::code(code).title("bench")).await?;
    let text = result.to_model_text();
    let elapsed = ms(start.elapsed());
    std::hint::black_box(text);
    Ok((result, elapsed))
}

/// `runs` timed execs of `code` after `warmup` untimed ones, each after
/// `gap` when given.
pub(super) async fn cell(
    reply: &Reply,
    code: &str,
    runs: usize,
    warmup: usize,
    gap: Option<Duration>,
) -> Result<Vec<f64>> {
    let mut samples = Vec::with_capacity(runs);
    for i in 0..warmup + runs {
        if let Some(gap) = gap {
            tokio::time::sleep(gap).await;
        }
        let (result, t) = timed_exec(reply, code).await?;
        expect(&result, "completed", code)?;
        if i >= warmup {
            samples.push(t);
        }
    }
    Ok(samples)
}
