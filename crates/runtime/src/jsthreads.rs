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
//! time-slices them), and a new cell waits in a shared queue until a thread
//! is *free* — running no guest code, with no cell of its own still before
//! its first step — and takes it. The best free thread is woken (fewest
//! live cells); a thread that enters guest code while cells wait wakes
//! another. So a cell never queues behind another cell's CPU loop while a
//! thread could run it; it waits while every thread is busy, or (rarely)
//! when a cell already on the thread that took it enters a loop before the
//! new cell's first step. A cell that has started stays pinned (its
//! QuickJS runtime cannot move): a parked cell whose thread is in another
//! cell's CPU loop resumes only when that step ends.
//!
//! Fair between clients: a client (a principal, or a session with none)
//! holds at most half the threads at once — running guest code, or taken
//! and not yet at its first step — and a free thread takes, among the
//! waiting cells of clients under that share, the oldest of the client
//! holding fewest. One client's CPU loops leave the other half of the
//! threads to everyone else; its cells past its share wait for its own
//! steps to end, not for anyone else's.
//!
//! Threads start on demand: the first when the runtime starts, the others
//! the first time a cell would go to them (no started thread is free). A
//! one-shot `exec` starts one, not `4 × cores`.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use crate::limits::LimitsError;

/// Native stack of a JS thread: well above the largest JS stack limit
/// (8 MiB), because QuickJS checks its limit against this stack, and room
/// to strip a small TypeScript cell where it is (`typescript.rs`). It is
/// virtual memory: only the pages a deep recursion touches become resident.
const JS_THREAD_STACK_BYTES: usize = crate::typescript::STACK_FOR_SMALL_CELLS;

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

type Job = Box<dyn FnOnce(ThreadLease) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send>;

/// Whose cell a job is, for the fair share: a principal, or a session
/// with none (`None`: a headless cell, which counts for no one).
pub(crate) type ClientKey = Option<Arc<str>>;

/// What the scheduler knows about one thread. Counters are `SeqCst`: a
/// thread's "am I free, is work waiting" and `run`'s "work is waiting, is a
/// thread free" must not both miss each other.
#[derive(Default)]
struct Load {
    /// Cells alive on the thread, parked ones included.
    live: AtomicUsize,
    /// Cells the thread took that have not begun their first guest step.
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

    /// Free to take a new cell: no guest code running, nothing starting.
    fn free(&self) -> bool {
        matches!(self.rank(), (false, 0, _))
    }
}

/// A worker's thread: not started yet, starting, running, or failed to
/// start (it is then never chosen again).
const NOT_STARTED: u8 = 0;
const STARTING: u8 = 1;
const RUNNING: u8 = 2;
const FAILED: u8 = 3;

struct Worker {
    load: Load,
    /// Wakes the thread's loop to take waiting cells (a wake sent before
    /// the thread runs is kept for it).
    wake: Notify,
    thread: AtomicU8,
}

/// State shared by the threads and `run`.
struct Shared {
    workers: Vec<Worker>,
    /// Cells not yet taken by a thread, oldest first. A cell is only taken
    /// by a free thread, so it never queues behind a CPU loop while a
    /// thread could run it.
    waiting: Mutex<VecDeque<(ClientKey, Job)>>,
    /// Threads each client holds now: its cells running guest code, or
    /// taken and not yet at their first step.
    held: Mutex<HashMap<Arc<str>, usize>>,
    /// The most threads one client may hold at once.
    share: usize,
    /// `waiting.len()`, readable without the lock.
    waiting_len: AtomicUsize,
    /// Where the search for the best thread starts: rotating it spreads
    /// back-to-back cells over equally loaded threads.
    next: AtomicUsize,
    /// Set when the runtime drops its threads: the loops end.
    closed: AtomicBool,
}

impl Shared {
    /// Wakes the best free thread (other than `except`), if any; otherwise
    /// the next thread to become free takes the work.
    /// A thread not started yet ranks after every free started one, so
    /// one starts only when no started thread is free.
    fn wake_best(self: &Arc<Self>, except: Option<usize>) {
        let n = self.workers.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let best = (0..n)
            .map(|i| (start + i) % n)
            .filter(|&i| Some(i) != except)
            .filter_map(|i| {
                let thread = self.workers[i].thread.load(Ordering::SeqCst);
                (thread != FAILED).then(|| ((self.workers[i].load.rank(), thread == NOT_STARTED), i))
            })
            .min_by_key(|&(rank, _)| rank);
        if let Some((((false, 0, _), _), i)) = best {
            if self.ensure_started(i) {
                self.workers[i].wake.notify_one();
            } else if self.workers.iter().any(|w| w.thread.load(Ordering::SeqCst) != FAILED) {
                // That thread could not start: try the next best.
                self.wake_best(except);
            }
        }
    }

    /// Starts thread `index` unless it runs already; false when it could
    /// not be started.
    fn ensure_started(self: &Arc<Self>, index: usize) -> bool {
        let thread = &self.workers[index].thread;
        match thread.compare_exchange(NOT_STARTED, STARTING, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => {
                let started = spawn_thread(self, index);
                if let Err(e) = &started {
                    tracing::warn!(thread = index, "a JS thread could not start: {e}");
                }
                thread.store(if started.is_ok() { RUNNING } else { FAILED }, Ordering::SeqCst);
                started.is_ok()
            }
            // Another caller is starting it: its wake is kept until it runs.
            Err(STARTING | RUNNING) => true,
            Err(_) => false,
        }
    }

    /// `key` holds one thread more.
    fn hold(&self, key: &ClientKey) {
        if let Some(key) = key {
            *self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner).entry(Arc::clone(key)).or_insert(0) +=
                1;
        }
    }

    /// `key` holds one thread fewer: a waiting cell of its may now go, on
    /// any free thread.
    fn release(self: &Arc<Self>, key: &ClientKey) {
        let Some(key) = key else { return };
        {
            let mut held = self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(n) = held.get_mut(key) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    held.remove(key);
                }
            }
        }
        if self.waiting_len.load(Ordering::SeqCst) > 0 {
            self.wake_best(None);
        }
    }

    /// A thread became free: takes waiting work if there is any.
    fn became_free(&self, index: usize) {
        if self.waiting_len.load(Ordering::SeqCst) > 0 {
            self.workers[index].wake.notify_one();
        }
    }

    /// Takes one waiting cell onto thread `index` (its loop, on that thread)
    /// when the thread is free, and passes any further waiting cell on.
    fn take(self: &Arc<Self>, index: usize) {
        let load = &self.workers[index].load;
        if !load.free() {
            return;
        }
        let taken = {
            let mut waiting = self.waiting.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let mut held = self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            // The oldest cell of the client holding fewest threads, among
            // clients under their share (a headless cell holds for no one).
            let holding = |key: &ClientKey| key.as_ref().map_or(0, |k| held.get(k).copied().unwrap_or(0));
            let chosen = waiting
                .iter()
                .enumerate()
                .map(|(i, (key, _))| (holding(key), i))
                .filter(|&(holds, _)| holds < self.share)
                .min();
            let job = chosen.and_then(|(_, i)| waiting.remove(i));
            if let Some((key, _)) = &job {
                self.waiting_len.fetch_sub(1, Ordering::SeqCst);
                if let Some(key) = key {
                    *held.entry(Arc::clone(key)).or_insert(0) += 1;
                }
            }
            job
        };
        let Some((key, job)) = taken else {
            return;
        };
        load.live.fetch_add(1, Ordering::SeqCst);
        load.queued.fetch_add(1, Ordering::SeqCst);
        let lease = ThreadLease {
            shared: Arc::clone(self),
            index,
            queued: AtomicBool::new(true),
            key,
            holding: AtomicBool::new(true),
        };
        tokio::spawn(job(lease));
        // This thread is no longer free: another one takes the rest.
        if self.waiting_len.load(Ordering::SeqCst) > 0 {
            self.wake_best(Some(index));
        }
    }
}

/// Starts JS thread `index`: its own single-threaded runtime, taking cells
/// when woken.
fn spawn_thread(shared: &Arc<Shared>, index: usize) -> std::io::Result<()> {
    // Time for timers; I/O for tools that do async I/O (sockets, child processes).
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let shared = Arc::clone(shared);
    std::thread::Builder::new().name(format!("codemode-js-{index}")).stack_size(JS_THREAD_STACK_BYTES).spawn(
        move || {
            crate::typescript::reserve_stack_for_small_cells();
            runtime.block_on(async move {
                // The loop runs only when no guest code runs on this
                // thread, so whatever it takes starts soon.
                loop {
                    shared.workers[index].wake.notified().await;
                    if shared.closed.load(Ordering::SeqCst) {
                        break;
                    }
                    shared.take(index);
                }
            });
        },
    )?;
    Ok(())
}

/// Reads how many cells wait for a JS thread, for metrics; holds the
/// threads' shared state without keeping them open.
#[derive(Clone)]
pub(crate) struct JsQueue(Arc<Shared>);

impl JsQueue {
    /// Cells admitted but not yet running guest code: waiting for a free
    /// thread, or taken by one and not at their first guest step yet.
    pub(crate) fn depth(&self) -> usize {
        let starting: usize = self.0.workers.iter().map(|w| w.load.queued.load(Ordering::SeqCst)).sum();
        self.0.waiting_len.load(Ordering::SeqCst) + starting
    }
}

/// A fixed-size pool of JS threads.
pub(crate) struct JsThreads {
    shared: Arc<Shared>,
}

impl Drop for JsThreads {
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::SeqCst);
        for w in &self.shared.workers {
            w.wake.notify_one();
        }
    }
}

/// Counts a cell against its thread while it lives, and marks the thread
/// busy while the cell runs guest code.
pub(crate) struct ThreadLease {
    shared: Arc<Shared>,
    index: usize,
    /// Still counted in `queued`: no guest step has begun yet.
    queued: AtomicBool,
    /// Whose cell it is.
    key: ClientKey,
    /// Counted in its client's held threads: taken and not yet stepped,
    /// or in a guest step.
    holding: AtomicBool,
}

impl ThreadLease {
    fn load(&self) -> &Load {
        &self.shared.workers[self.index].load
    }

    /// Marks the cell's thread as running guest code until the guard drops;
    /// held around every step that runs guest code, so new cells go to
    /// other threads while this one may be in a CPU loop.
    pub(crate) fn guest_step(&self) -> GuestStep<'_> {
        let load = self.load();
        load.busy.fetch_add(1, Ordering::SeqCst);
        if !self.holding.swap(true, Ordering::SeqCst) {
            self.shared.hold(&self.key);
        }
        if self.queued.swap(false, Ordering::SeqCst) {
            load.queued.fetch_sub(1, Ordering::SeqCst);
        }
        // This thread may have been woken for waiting work it now cannot
        // take for as long as this step runs: hand the work on.
        if self.shared.waiting_len.load(Ordering::SeqCst) > 0 {
            self.shared.wake_best(Some(self.index));
        }
        GuestStep(self)
    }
}

impl Drop for ThreadLease {
    fn drop(&mut self) {
        let load = self.load();
        load.live.fetch_sub(1, Ordering::SeqCst);
        // A cell that never ran (no engine) leaves the queue too.
        if self.queued.swap(false, Ordering::SeqCst) {
            load.queued.fetch_sub(1, Ordering::SeqCst);
            self.shared.became_free(self.index);
        }
        if self.holding.swap(false, Ordering::SeqCst) {
            self.shared.release(&self.key);
        }
    }
}

/// The thread is running guest code while this lives.
pub(crate) struct GuestStep<'a>(&'a ThreadLease);

impl Drop for GuestStep<'_> {
    fn drop(&mut self) {
        self.0.load().busy.fetch_sub(1, Ordering::SeqCst);
        self.0.shared.became_free(self.0.index);
        if self.0.holding.swap(false, Ordering::SeqCst) {
            self.0.shared.release(&self.0.key);
        }
    }
}

impl JsThreads {
    /// A pool of `count` threads, the first started now and the others
    /// when a cell first needs them.
    pub(crate) fn start(count: usize) -> std::io::Result<Self> {
        let workers = (0..count)
            .map(|_| Worker { load: Load::default(), wake: Notify::new(), thread: AtomicU8::new(NOT_STARTED) })
            .collect();
        let shared = Arc::new(Shared {
            workers,
            waiting: Mutex::new(VecDeque::new()),
            held: Mutex::new(HashMap::new()),
            share: (count / 2).max(1),
            waiting_len: AtomicUsize::new(0),
            next: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
        });
        let threads = Self { shared };
        // The first thread now, so a runtime that cannot start one fails
        // to start; the others on demand.
        threads.shared.workers[0].thread.store(RUNNING, Ordering::SeqCst);
        spawn_thread(&threads.shared, 0)?;
        Ok(threads)
    }

    /// The queue-depth reader of these threads.
    pub(crate) fn queue(&self) -> JsQueue {
        JsQueue(Arc::clone(&self.shared))
    }

    /// How many threads there are.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.shared.workers.len()
    }

    /// Queues `job`, a cell of client `key`, for the first free thread
    /// (within the client's share), which runs it inside its
    /// runtime, handing it a lease that counts one cell against that thread
    /// while it lives. A thread is free when it runs no guest code and has
    /// no cell starting; the best free one (see [`Load::rank`]) is woken.
    /// Fails only when the threads are shut down.
    pub(crate) fn run<F, Fut>(&self, key: ClientKey, job: F) -> Result<(), ()>
    where
        F: FnOnce(ThreadLease) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        if self.shared.closed.load(Ordering::SeqCst) {
            return Err(());
        }
        self.shared
            .waiting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push_back((key, Box::new(move |lease| Box::pin(job(lease)))));
        self.shared.waiting_len.fetch_add(1, Ordering::SeqCst);
        self.shared.wake_best(None);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc as std_mpsc;
    use std::time::Duration;

    /// Runs a job shaped like a cell: it waits for `start` (before its
    /// first step, when given), then holds one guest step until `spin`
    /// fires (a CPU loop, when given), then stays alive for a while without
    /// blocking its thread (a parked cell). Reports its thread's name once
    /// its first step began.
    fn submit(
        threads: &JsThreads,
        start: Option<std_mpsc::Receiver<()>>,
        spin: Option<std_mpsc::Receiver<()>>,
    ) -> std_mpsc::Receiver<String> {
        submit_as(threads, None, start, spin)
    }

    /// [`submit`], as a cell of client `key`.
    fn submit_as(
        threads: &JsThreads,
        key: ClientKey,
        start: Option<std_mpsc::Receiver<()>>,
        spin: Option<std_mpsc::Receiver<()>>,
    ) -> std_mpsc::Receiver<String> {
        let (tx, rx) = std_mpsc::channel();
        threads
            .run(key, move |lease| async move {
                if let Some(start) = start {
                    // Blocks the thread, as engine set-up would, briefly.
                    let _ = start.recv_timeout(Duration::from_secs(20));
                }
                {
                    let _step = lease.guest_step();
                    let _ = tx.send(std::thread::current().name().unwrap_or_default().to_owned());
                    if let Some(spin) = spin {
                        let _ = spin.recv_timeout(Duration::from_secs(20));
                    }
                }
                tokio::time::sleep(Duration::from_secs(5)).await;
            })
            .expect("threads are up");
        rx
    }

    fn thread_of(rx: &std_mpsc::Receiver<String>) -> String {
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
        let busy = thread_of(&submit(&threads, None, Some(spin)));
        // Fewest live cells alone would send every other cell there.
        for _ in 0..3 {
            assert_ne!(thread_of(&submit(&threads, None, None)), busy, "a cell went to the thread in a CPU loop");
        }
        // Once the step ends, the thread with fewer live cells is preferred again.
        release.send(()).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(thread_of(&submit(&threads, None, None)), busy);
    }

    #[test]
    fn threads_start_only_when_no_started_thread_is_free() {
        let threads = JsThreads::start(4).unwrap();
        let running =
            |t: &JsThreads| t.shared.workers.iter().filter(|w| w.thread.load(Ordering::SeqCst) == RUNNING).count();
        assert_eq!(running(&threads), 1, "one thread at start");
        // Short cells one after the other all fit the first thread.
        for _ in 0..3 {
            let (tx, rx) = std_mpsc::channel();
            threads
                .run(None, move |lease| async move {
                    let _step = lease.guest_step();
                    let _ = tx.send(std::thread::current().name().unwrap_or_default().to_owned());
                })
                .unwrap();
            assert_eq!(thread_of(&rx), "codemode-js-0");
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(running(&threads), 1);
        // A CPU loop holds it: the next cell starts a second thread.
        let (release, spin) = std_mpsc::channel();
        let busy = thread_of(&submit(&threads, None, Some(spin)));
        let other = thread_of(&submit(&threads, None, None));
        assert_ne!(busy, other);
        assert_eq!(running(&threads), 2);
        release.send(()).unwrap();
    }

    #[test]
    fn a_cell_waits_for_a_free_thread_rather_than_queueing_behind_a_cpu_loop() {
        let threads = JsThreads::start(2).unwrap();
        let (release, spin) = std_mpsc::channel();
        let busy = thread_of(&submit(&threads, None, Some(spin)));
        // The other thread takes a cell that has not begun its first step:
        // neither thread is free now.
        let (go, start) = std_mpsc::channel();
        let starting = submit(&threads, Some(start), None);
        std::thread::sleep(Duration::from_millis(50));
        let waiting = submit(&threads, None, None);
        std::thread::sleep(Duration::from_millis(100));
        assert!(waiting.try_recv().is_err(), "the cell was taken by a thread that was not free");
        // The starting cell steps: its thread becomes free and takes the
        // waiting cell, while the CPU loop still runs.
        go.send(()).unwrap();
        let other = thread_of(&starting);
        assert_ne!(other, busy);
        assert_eq!(thread_of(&waiting), other);
        release.send(()).unwrap();
    }

    #[test]
    fn a_taken_cell_counts_as_queued_until_its_first_guest_step() {
        let threads = JsThreads::start(1).unwrap();
        let shared = Arc::clone(&threads.shared);
        let (tx, rx) = std_mpsc::channel();
        let (go_tx, go_rx) = std_mpsc::channel::<()>();
        threads
            .run(None, move |lease| async move {
                let load = &shared.workers[0].load;
                let _ = tx.send(load.rank());
                let _ = go_rx.recv_timeout(Duration::from_secs(10));
                {
                    let _step = lease.guest_step();
                    let _ = tx.send(load.rank());
                }
                let _ = tx.send(load.rank());
            })
            .unwrap();
        let recv = || rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!(recv(), (false, 1, 1));
        go_tx.send(()).unwrap();
        assert_eq!(recv(), (true, 0, 1));
        assert_eq!(recv(), (false, 0, 1));
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(threads.shared.workers[0].load.rank(), (false, 0, 0));
    }

    #[test]
    fn one_client_holds_at_most_half_the_threads_and_another_still_gets_one_at_once() {
        let threads = JsThreads::start(4).unwrap();
        let hog: ClientKey = Some(Arc::from("principal:hog"));
        let mut releases = Vec::new();
        let mut held = Vec::new();
        for _ in 0..2 {
            let (release, spin) = std_mpsc::channel();
            releases.push(release);
            held.push(thread_of(&submit_as(&threads, hog.clone(), None, Some(spin))));
        }
        // Past its share (2 of 4): it waits, though two threads are free.
        let (release, spin) = std_mpsc::channel();
        let third = submit_as(&threads, hog.clone(), None, Some(spin));
        std::thread::sleep(Duration::from_millis(100));
        assert!(third.try_recv().is_err(), "a third thread went to the client holding two of four");
        // Another client gets a thread at once, as does a headless cell.
        let victim = thread_of(&submit_as(&threads, Some(Arc::from("principal:victim")), None, None));
        assert!(!held.contains(&victim));
        thread_of(&submit(&threads, None, None));
        // One of its loops ends: its waiting cell goes.
        releases.remove(0).send(()).unwrap();
        thread_of(&third);
        release.send(()).unwrap();
        for r in releases {
            r.send(()).unwrap();
        }
    }
}
