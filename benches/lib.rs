//! Shared fixtures for the codemode benchmarks.

use std::time::{Duration, Instant};

use codemode_runtime::{CellResult, CodeMode, Tool, ToolFuture, ToolOutput};
use serde_json::{Value, json};

/// Returns `{ok: true}` at once, like the reference benchmark's `noop`.
pub struct Noop;

impl Tool for Noop {
    fn name(&self) -> &str {
        "noop"
    }
    fn description(&self) -> &str {
        "Returns {ok: true}."
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(async { Ok(ToolOutput::json(json!({"ok": true}))) })
    }
}

/// A tokio runtime with two workers, like the machine's two cores.
#[must_use]
pub fn tokio_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime")
}

/// A codemode runtime with the `noop` tool.
pub async fn codemode() -> CodeMode {
    CodeMode::builder().tool(Noop).start().await.expect("codemode starts")
}

/// Runs `f` on a worker task (never on the `block_on` thread, whose
/// wake-ups are much slower) and returns what it measured.
pub fn on_worker<F, Fut, T>(rt: &tokio::runtime::Runtime, f: F) -> T
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    rt.block_on(async move { tokio::spawn(f()).await.expect("bench task") })
}

/// The median of `samples` (the upper middle for an even count).
#[must_use]
pub fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// Asserts that a result completed.
pub fn completed(result: &CellResult) {
    assert_eq!(result.status(), "completed", "{}", result.to_model_json());
}

/// Times `iters` runs of `body`.
pub async fn time_n<F, Fut>(iters: u64, mut body: F) -> Duration
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let start = Instant::now();
    for _ in 0..iters {
        body().await;
    }
    start.elapsed()
}
