//! What `codemode bench` reads of a runtime's engines, and the bare
//! engine it compares them with. Not an API: hidden from the docs.

use std::time::{Duration, Instant};

use super::facade::CodeMode;
pub use crate::engine::pool::EngineTakes;

impl CodeMode {
    /// How this runtime's cells got their engines so far: a spare ready,
    /// or one prepared while the cell waited (in process, or as their
    /// engine workers reported it).
    #[doc(hidden)]
    #[must_use]
    pub fn engine_takes(&self) -> EngineTakes {
        let here = self.inner.engines.takes();
        let Some(workers) = &self.inner.workers else { return here };
        let there = workers.takes();
        EngineTakes { spare: here.spare + there.spare, inline: here.inline + there.inline }
    }

    /// Prepares, starts (`return 1`) and frees `iters` of this runtime's
    /// engines on the calling thread, outside any cell: the engine's own
    /// cost per cell, beside [`bench_engine_floor`].
    ///
    /// # Errors
    /// An engine could not be prepared or started.
    #[doc(hidden)]
    pub fn bench_engine(&self, iters: u32) -> Result<Duration, String> {
        self.inner.engines.cycle(iters).map_err(|e| format!("{e:?}"))
    }
}

/// The bare engine's floor: `iters` times a QuickJS runtime, a full
/// context, `eval("1")` and freeing both, on the calling thread with the
/// same allocator — what no engine of a fresh context per cell can beat.
///
/// # Errors
/// The engine could not be made.
#[doc(hidden)]
pub fn bench_engine_floor(iters: u32) -> Result<Duration, String> {
    let start = Instant::now();
    for _ in 0..iters {
        let runtime = rquickjs::Runtime::new().map_err(|e| e.to_string())?;
        let context = rquickjs::Context::full(&runtime).map_err(|e| e.to_string())?;
        let one: i32 = context.with(|ctx| ctx.eval("1")).map_err(|e| e.to_string())?;
        std::hint::black_box(one);
    }
    Ok(start.elapsed())
}
