//! The JS worker threads.
//!
//! Guest JavaScript is CPU-bound and must never run on the host's async
//! worker threads. Each JS thread owns a single-threaded tokio runtime; a
//! cell's actor is spawned onto one of them and stays there for its life,
//! so its QuickJS runtime never migrates and its timers and tool futures
//! complete without cross-thread hops. A parked cell is an idle task: it
//! holds memory, not a thread.
//!
//! No head-of-line blocking: a guest CPU loop holds its thread until its
//! window's deadline, so there are more threads than cores (the OS
//! time-slices them) and a new cell goes to a thread that is not running
//! guest code and has nothing queued, then to the one with the fewest live
//! cells. A cell can still wait when every thread spins, or when a cell
//! already on its thread begins a loop before the new one's first step. A
//! cell that has started stays pinned (its QuickJS runtime cannot move): a
//! parked cell whose thread is in another cell's CPU loop resumes only when
//! that step ends.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tokio::sync::mpsc;

use crate::limits::LimitsError;

/// Native stack of a JS thread: well above the largest JS stack limit
/// (8 MiB), because QuickJS checks its limit against this stack. It is
/// virtual memory: only the pages a deep recursion touches become resident.
const JS_THREAD_STACK_BYTES: usize = 16 * 1024 * 1024;

/// JS threads per core by default: enough idle threads that a few guest
/// CPU loops do not leave a new cell without one.
const THREADS_PER_CORE: usize = 4;

/// The fewest JS threads by default, for small machines.
const MIN_DEFAULT_THREADS: usize = 8;

/// The allowed range of the JS thread count.
pub(crate) const THREAD_RANGE: std::ops::RangeInclusive<usize> = 1..=1024;

/// The JS thread count: `requested`, checked against [`THREAD_RANGE`], or
/// by default `max(4 × available cores, 8)` (at most 1,024).
///
/// # Errors
/// `requested` is outside the range.
pub(crate) fn thread_count(requested: Option<usize>) -> Result<usize, LimitsError> {
    match requested {
        Some(n) if THREAD_RANGE.contains(&n) => Ok(n),
        Some(n) => Err(LimitsError {
            field: "js_threads",
            value: n.to_string(),
            range: format!("{}..={}", THREAD_RANGE.start(), THREAD_RANGE.end()),
        }),
        None => {
            // Unknown parallelism (a restricted sandbox): assume 2 cores,
            // which the minimum covers anyway.
            let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
            Ok(cores.saturating_mul(THREADS_PER_CORE).clamp(MIN_DEFAULT_THREADS, *THREAD_RANGE.end()))
        }
    }
}

type Job = Box<dyn FnOnce() -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// What the scheduler knows about one thread. Counters are `SeqCst`: `run`
/// reads several of them and must not see a cell between two of them.
#[derive(Default)]
struct Load {
    /// Cells alive on the thread, parked ones included.
    live: AtomicUsize,
    /// Cells sent to the thread that have not begun their first guest step.
    queued: AtomicUsize,
    /// Guest steps running now (0 or 1: a thread runs one task at a time).
    busy: AtomicUsize,
}

impl Load {
    /// Lower is better: idle first, then nothing queued, then fewest live.
    fn rank(&self) -> (bool, usize, usize) {
        // `queued` before `busy`: a starting step raises `busy` before it
        // lowers `queued`, so this order never sees neither.
        let queued = self.queued.load(Ordering::SeqCst);
        let busy = self.busy.load(Ordering::SeqCst) > 0;
        (busy, queued, self.live.load(Ordering::SeqCst))
    }
}

struct Worker {
    jobs: mpsc::UnboundedSender<Job>,
    load: Arc<Load>,
}

/// A fixed set of JS threads.
pub(crate) struct JsThreads {
    workers: Vec<Worker>,
    /// Where the search for the best thread starts: rotating it spreads
    /// back-to-back cells over equally loaded threads.
    next: AtomicUsize,
}

/// Counts a cell against its thread while it lives, and marks the thread
/// busy while the cell runs guest code.
pub(crate) struct ThreadLease {
    load: Arc<Load>,
    /// Still counted in `queued`: no guest step has begun yet.
    queued: AtomicBool,
}

impl ThreadLease {
    /// Marks the cell's thread as running guest code until the guard drops;
    /// held around every step that runs guest code, so `run` sends new
    /// cells elsewhere while this one may be in a CPU loop.
    pub(crate) fn guest_step(&self) -> GuestStep<'_> {
        self.load.busy.fetch_add(1, Ordering::SeqCst);
        if self.queued.swap(false, Ordering::SeqCst) {
            self.load.queued.fetch_sub(1, Ordering::SeqCst);
        }
        GuestStep(&self.load)
    }
}

impl Drop for ThreadLease {
    fn drop(&mut self) {
        // A cell that never ran (no engine, a dead thread) leaves the queue too.
        if self.queued.swap(false, Ordering::SeqCst) {
            self.load.queued.fetch_sub(1, Ordering::SeqCst);
        }
        self.load.live.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The thread is running guest code while this lives.
pub(crate) struct GuestStep<'a>(&'a Load);

impl Drop for GuestStep<'_> {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
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
            workers.push(Worker { jobs: tx, load: Arc::default() });
        }
        Ok(Self { workers, next: AtomicUsize::new(0) })
    }

    /// How many threads there are.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.workers.len()
    }

    /// Runs `job` on the best thread (see [`Load::rank`]), inside its
    /// runtime, handing it a lease that counts one cell against that thread
    /// while it lives. Fails only when the thread is gone.
    ///
    /// Calls must not race each other for the choice to hold: the executor
    /// actor is the only caller, one message at a time.
    pub(crate) fn run<F, Fut>(&self, job: F) -> Result<(), ()>
    where
        F: FnOnce(ThreadLease) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let n = self.workers.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let worker = (0..n).map(|i| &self.workers[(start + i) % n]).min_by_key(|w| w.load.rank()).ok_or(())?;
        worker.load.live.fetch_add(1, Ordering::SeqCst);
        worker.load.queued.fetch_add(1, Ordering::SeqCst);
        let lease = ThreadLease { load: Arc::clone(&worker.load), queued: AtomicBool::new(true) };
        // On failure the job, and with it the lease, is dropped: the counts
        // are restored.
        worker.jobs.send(Box::new(move || Box::pin(job(lease)))).map_err(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc as std_mpsc;
    use std::time::Duration;

    /// Runs a job that, when `spin` is given, holds a guest step until
    /// `spin` fires (blocking its thread as a guest CPU loop would), and
    /// otherwise stays alive for a while without blocking (a parked cell).
    /// Returns the name of the thread it ran on.
    fn submit(threads: &JsThreads, spin: Option<std_mpsc::Receiver<()>>) -> String {
        let (tx, rx) = std_mpsc::channel();
        threads
            .run(move |lease| async move {
                let name = std::thread::current().name().unwrap_or_default().to_owned();
                match spin {
                    Some(release) => {
                        let _step = lease.guest_step();
                        let _ = tx.send(name);
                        let _ = release.recv_timeout(Duration::from_secs(20));
                    }
                    None => {
                        let _ = tx.send(name);
                        tokio::time::sleep(Duration::from_secs(5)).await;
                    }
                }
            })
            .expect("thread is up");
        rx.recv_timeout(Duration::from_secs(10)).expect("the job started")
    }

    #[test]
    fn the_default_thread_count_is_four_per_core_and_at_least_eight() {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        assert_eq!(thread_count(None).unwrap(), (cores * 4).clamp(8, 1024));
        assert_eq!(thread_count(Some(3)).unwrap(), 3);
        let err = thread_count(Some(0)).unwrap_err();
        assert_eq!(err.to_string(), "limit `js_threads` is 0, outside the allowed range 1..=1024");
        assert_eq!(thread_count(Some(1025)).unwrap_err().field, "js_threads");
    }

    #[test]
    fn a_new_cell_goes_to_an_idle_thread_even_when_the_busy_one_has_fewer_live_cells() {
        let threads = JsThreads::start(2).unwrap();
        assert_eq!(threads.len(), 2);
        let (release, spin) = std_mpsc::channel();
        // A busy cell lands on one thread, which then has one live cell.
        let busy = submit(&threads, Some(spin));
        // Fewest live cells alone would send every other cell there.
        for _ in 0..3 {
            assert_ne!(submit(&threads, None), busy, "a cell was sent to the thread running guest code");
        }
        // Once the step ends, the thread with fewer live cells is preferred again.
        release.send(()).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(submit(&threads, None), busy);
    }

    #[test]
    fn a_queued_cell_counts_until_its_first_guest_step() {
        let threads = JsThreads::start(1).unwrap();
        let load = Arc::clone(&threads.workers[0].load);
        let (tx, rx) = std_mpsc::channel();
        let (go_tx, go_rx) = std_mpsc::channel::<()>();
        threads
            .run(move |lease| async move {
                let _ = go_rx.recv_timeout(Duration::from_secs(10));
                {
                    let _step = lease.guest_step();
                    let _ = tx.send(load.rank());
                }
                let _ = tx.send(load.rank());
            })
            .unwrap();
        assert_eq!(threads.workers[0].load.rank(), (false, 1, 1));
        go_tx.send(()).unwrap();
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), (true, 0, 1));
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), (false, 0, 1));
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(threads.workers[0].load.rank(), (false, 0, 0));
    }
}
