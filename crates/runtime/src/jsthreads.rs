//! The JS worker threads.
//!
//! Guest JavaScript is CPU-bound and must never run on the host's async
//! worker threads. Each JS thread owns a single-threaded tokio runtime; a
//! cell's actor is spawned onto one of them and stays there for its life,
//! so its QuickJS runtime never migrates and its timers and tool futures
//! complete without cross-thread hops. A parked cell is an idle task: it
//! holds memory, not a thread.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::mpsc;

/// Native stack of a JS thread: well above the largest JS stack limit
/// (8 MiB), because QuickJS checks its limit against this stack.
const JS_THREAD_STACK_BYTES: usize = 16 * 1024 * 1024;

type Job = Box<dyn FnOnce() -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

struct Worker {
    jobs: mpsc::UnboundedSender<Job>,
    live_cells: Arc<AtomicUsize>,
}

/// A fixed set of JS threads.
pub(crate) struct JsThreads {
    workers: Vec<Worker>,
    /// Where the search for the least loaded thread starts: rotating it
    /// spreads back-to-back cells over threads.
    next: AtomicUsize,
}

/// Counts a cell against its thread while it lives.
pub(crate) struct ThreadLease(Arc<AtomicUsize>);

impl Drop for ThreadLease {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl JsThreads {
    /// Starts `count` threads.
    pub(crate) fn start(count: usize) -> std::io::Result<Self> {
        let mut workers = Vec::with_capacity(count);
        for index in 0..count {
            // Unbounded: the only producer is the executor, which admits at
            // most `max_live_cells` cells, one job each.
            let (tx, mut rx) = mpsc::unbounded_channel::<Job>();
            // Time for timers; I/O for tools that do async I/O (sockets, child processes).
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            std::thread::Builder::new().name(format!("codemode-js-{index}")).stack_size(JS_THREAD_STACK_BYTES).spawn(
                move || {
                    runtime.block_on(async move {
                        while let Some(job) = rx.recv().await {
                            tokio::spawn(job());
                        }
                    });
                },
            )?;
            workers.push(Worker { jobs: tx, live_cells: Arc::new(AtomicUsize::new(0)) });
        }
        Ok(Self { workers, next: AtomicUsize::new(0) })
    }

    /// Runs `job` on the least loaded thread, inside its runtime, handing it
    /// a lease that counts one cell against that thread while it lives.
    /// Fails only when the thread is gone.
    pub(crate) fn run<F, Fut>(&self, job: F) -> Result<(), ()>
    where
        F: FnOnce(ThreadLease) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let n = self.workers.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let worker = (0..n)
            .map(|i| &self.workers[(start + i) % n])
            .min_by_key(|w| w.live_cells.load(Ordering::Relaxed))
            .ok_or(())?;
        worker.live_cells.fetch_add(1, Ordering::Relaxed);
        let lease = ThreadLease(Arc::clone(&worker.live_cells));
        worker.jobs.send(Box::new(move || Box::pin(job(lease)))).map_err(|_| ())
    }
}
