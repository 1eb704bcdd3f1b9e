//! A supervised pool of worker processes.
//!
//! Workers are started ahead of need (warm spares) by a supervisor thread,
//! so a cell does not wait for a process to start. A worker serves one
//! *key* for its whole life (a principal, a session, or one shared key, as
//! the host chooses): a spare is bound to the key of its first lease and
//! is never handed to another key, so two keys' cells never share a
//! process — not at once, and not one after the other (a worker a hostile
//! cell took over stays with that cell's key until it is stopped). A
//! worker serves at most [`PoolConfig::cells_per_worker`] leases at once
//! and [`PoolConfig::recycle_after`] in its life; one bound to a key and
//! idle for [`PoolConfig::idle_ttl`] is stopped.
//!
//! A worker that died (killed, crashed, or stopped by its lessee for a
//! protocol violation) is dropped and counted; the supervisor starts
//! spares again, backing off while starts fail. Nothing here waits on a
//! worker: a lease never blocks on another key's workers, and past
//! [`PoolConfig::max_workers`] a lease is refused with a clear error.

use std::io;
use std::process::Child;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::SpawnedWorker;

/// A worker the pool supervises.
pub trait Worker: Send + Sync + 'static {
    /// Whether the process is still running.
    fn alive(&self) -> bool;

    /// Stops the process and reaps it (idempotent).
    fn stop(&self);
}

/// Starts workers.
pub trait WorkerFactory: Send + Sync + 'static {
    /// The worker it starts.
    type Worker: Worker;

    /// Starts one worker, ready to serve (its handshake done).
    ///
    /// # Errors
    /// The worker could not be started.
    fn start(&self) -> io::Result<Self::Worker>;
}

/// How a pool sizes, recycles and restarts its workers.
#[derive(Clone, Debug)]
pub struct PoolConfig {
    /// Unbound workers kept started, ready for a key's first lease.
    pub warm: usize,
    /// Workers alive at most: spares, bound and idle, and leased.
    pub max_workers: usize,
    /// Workers one key may hold at once (below `max_workers`, so one key
    /// cannot take every worker from the others).
    pub max_workers_per_key: usize,
    /// Leases one worker serves at once (its key's concurrent cells).
    pub cells_per_worker: usize,
    /// Leases a worker serves in its life; it is stopped when the last
    /// ends (a long-lived process would carry whatever a cell left).
    pub recycle_after: u64,
    /// How long a bound worker with no lease is kept for its key.
    pub idle_ttl: Duration,
    /// The first wait after a failed start; it doubles with each failure
    /// in a row, up to [`backoff_max`](Self::backoff_max).
    pub backoff_min: Duration,
    /// The longest wait between failed starts.
    pub backoff_max: Duration,
}

impl Default for PoolConfig {
    fn default() -> Self {
        Self {
            warm: 2,
            max_workers: 64,
            max_workers_per_key: 16,
            cells_per_worker: 16,
            recycle_after: 1_000,
            idle_ttl: Duration::from_secs(30),
            backoff_min: Duration::from_millis(50),
            backoff_max: Duration::from_secs(10),
        }
    }
}

/// Why a lease was refused.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// Every worker the pool may have is busy with other keys or full.
    #[error(
        "every engine worker is busy ({max} alive, the most the pool allows: `EngineWorkers::max_workers`); retry \
         when cells end, or raise the bound"
    )]
    Exhausted {
        /// The bound.
        max: usize,
    },
    /// The key holds as many workers as one key may, each full.
    #[error(
        "this client's engine workers are all busy ({max} workers, the most one client may hold, each running its \
         most cells); retry when its cells end"
    )]
    KeyExhausted {
        /// The bound.
        max: usize,
    },
    /// No spare was ready and starting a worker failed.
    #[error("an engine worker could not be started: {0}")]
    Start(#[source] io::Error),
    /// The pool was shut down.
    #[error("the engine worker pool is shut down")]
    Stopped,
}

/// What a pool has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Workers started.
    pub started: u64,
    /// Starts that failed.
    pub start_failures: u64,
    /// Workers found dead or stopped for a fault while bound or spare.
    pub crashed: u64,
    /// Workers stopped after [`PoolConfig::recycle_after`] leases.
    pub recycled: u64,
    /// Bound workers stopped after [`PoolConfig::idle_ttl`] without a lease.
    pub expired: u64,
    /// Leases served by a worker already bound to their key.
    pub leases_bound: u64,
    /// Leases that bound a warm spare.
    pub leases_spare: u64,
    /// Leases that waited for a worker to start.
    pub leases_started: u64,
    /// Workers alive now.
    pub alive: u64,
}

struct Slot<W, K> {
    id: u64,
    worker: Arc<W>,
    key: K,
    active: usize,
    served: u64,
    idle_since: Instant,
}

struct State<W, K> {
    spares: Vec<Arc<W>>,
    bound: Vec<Slot<W, K>>,
    /// Workers being started (counted against the bound).
    starting: usize,
    /// Keys a lease is starting a worker for now: another lease of the
    /// key waits for that worker rather than starting one of its own.
    starting_for: Vec<K>,
    /// Spares the supervisor is starting now, and the leases waiting for
    /// one of them (at most one each): a lease that finds no spare waits
    /// for one already starting rather than starting a worker too.
    spares_starting: usize,
    spares_awaited: usize,
    /// Failed starts in a row, and when the supervisor may try again.
    failures: u32,
    retry_at: Option<Instant>,
    stop: bool,
}

impl<W, K> State<W, K> {
    fn alive(&self) -> usize {
        self.spares.len() + self.bound.len() + self.starting
    }
}

#[derive(Default)]
struct Counters {
    started: AtomicU64,
    start_failures: AtomicU64,
    crashed: AtomicU64,
    recycled: AtomicU64,
    expired: AtomicU64,
    leases_bound: AtomicU64,
    leases_spare: AtomicU64,
    leases_started: AtomicU64,
}

struct Inner<F: WorkerFactory, K> {
    factory: F,
    config: PoolConfig,
    state: Mutex<State<F::Worker, K>>,
    wake: Condvar,
    /// A worker a lease started for its key is bound, or a spare the
    /// supervisor started is ready (or either failed to start).
    worker_started: Condvar,
    counters: Counters,
    next_id: AtomicU64,
}

impl<F: WorkerFactory, K> Inner<F, K> {
    fn lock(&self) -> MutexGuard<'_, State<F::Worker, K>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// A pool of workers, each bound to one key for its life.
pub struct WorkerPool<F: WorkerFactory, K: Eq + Clone + Send + 'static> {
    inner: Arc<Inner<F, K>>,
}

/// One cell's use of a worker; the worker is released when it is dropped.
pub struct Lease<F: WorkerFactory, K: Eq + Clone + Send + 'static> {
    inner: Arc<Inner<F, K>>,
    worker: Arc<F::Worker>,
    id: u64,
}

impl<F: WorkerFactory, K: Eq + Clone + Send + 'static> WorkerPool<F, K> {
    /// Starts the supervisor, which starts [`PoolConfig::warm`] spares.
    ///
    /// # Errors
    /// The supervisor's thread could not be started.
    pub fn start(factory: F, config: PoolConfig) -> io::Result<Self> {
        let inner = Arc::new(Inner {
            factory,
            config,
            state: Mutex::new(State {
                spares: Vec::new(),
                bound: Vec::new(),
                starting: 0,
                starting_for: Vec::new(),
                spares_starting: 0,
                spares_awaited: 0,
                failures: 0,
                retry_at: None,
                stop: false,
            }),
            wake: Condvar::new(),
            worker_started: Condvar::new(),
            counters: Counters::default(),
            next_id: AtomicU64::new(1),
        });
        let supervised = Arc::clone(&inner);
        std::thread::Builder::new().name("codemode-workers".into()).spawn(move || supervise(&supervised))?;
        Ok(Self { inner })
    }

    /// A worker for a cell of `key`: one already bound to `key` with room,
    /// else a warm spare (bound to `key` from now on), else one started
    /// now.
    ///
    /// # Errors
    /// [`PoolError::Exhausted`] past [`PoolConfig::max_workers`];
    /// [`PoolError::Start`] when the worker started for it failed.
    pub fn lease(&self, key: &K) -> Result<Lease<F, K>, PoolError> {
        let inner = &self.inner;
        let config = &inner.config;
        let mut dead = Vec::new();
        let mut state = inner.lock();
        let leased = loop {
            if state.stop {
                return Err(PoolError::Stopped);
            }
            // A dead worker is never leased: it leaves its slot here.
            let room = state.bound.iter().position(|slot| {
                slot.key == *key && slot.active < config.cells_per_worker && slot.served < config.recycle_after
            });
            if let Some(i) = room {
                let slot = &mut state.bound[i];
                if !slot.worker.alive() {
                    dead.push(state.bound.swap_remove(i).worker);
                    continue;
                }
                slot.active += 1;
                slot.served += 1;
                Inner::<F, K>::bump(&inner.counters.leases_bound);
                break Some(Lease { inner: Arc::clone(inner), worker: Arc::clone(&slot.worker), id: slot.id });
            }
            if state.starting_for.contains(key) {
                // Its worker is starting: it will have room for this cell
                // too (or, if it fails, this lease starts the next one).
                state = inner.worker_started.wait(state).unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            let Some(worker) = state.spares.pop() else {
                if state.spares_starting > state.spares_awaited {
                    // A spare is on its way that no other lease waits for:
                    // it is ready sooner than a worker started now. Leases
                    // of this key meanwhile wait for this one, as for a
                    // worker started for the key.
                    state.spares_awaited += 1;
                    state.starting_for.push(key.clone());
                    state = inner.worker_started.wait(state).unwrap_or_else(PoisonError::into_inner);
                    state.spares_awaited -= 1;
                    if let Some(i) = state.starting_for.iter().position(|k| k == key) {
                        state.starting_for.swap_remove(i);
                    }
                    // They look again once this lease has bound the spare
                    // (under this lock) or waits again.
                    inner.worker_started.notify_all();
                    continue;
                }
                break None;
            };
            if !worker.alive() {
                dead.push(worker);
                continue;
            }
            // A spare taken: the supervisor starts another.
            inner.wake.notify_all();
            Inner::<F, K>::bump(&inner.counters.leases_spare);
            break Some(self.bind(&mut state, key, worker));
        };
        if let Some(lease) = leased {
            drop(state);
            finish(inner, dead, Fate::Crashed);
            return Ok(lease);
        }
        // Before a worker is started or refused, every dead one leaves its
        // slot, leased or not (its lessees' cells fail over on their own):
        // the bounds count processes that can still serve.
        dead.extend(take_dead(&mut state.bound));
        if state.alive() >= config.max_workers {
            drop(state);
            finish(inner, dead, Fate::Crashed);
            return Err(PoolError::Exhausted { max: config.max_workers });
        }
        let held = state.bound.iter().filter(|slot| slot.key == *key).count();
        if held >= config.max_workers_per_key {
            drop(state);
            finish(inner, dead, Fate::Crashed);
            return Err(PoolError::KeyExhausted { max: config.max_workers_per_key });
        }
        state.starting += 1;
        state.starting_for.push(key.clone());
        drop(state);
        finish(inner, dead, Fate::Crashed);
        let started = inner.factory.start();
        let mut state = inner.lock();
        state.starting -= 1;
        if let Some(i) = state.starting_for.iter().position(|k| k == key) {
            state.starting_for.swap_remove(i);
        }
        // Bound below under this lock, before a waiting lease looks.
        inner.worker_started.notify_all();
        match started {
            Ok(worker) => {
                Inner::<F, K>::bump(&inner.counters.started);
                Inner::<F, K>::bump(&inner.counters.leases_started);
                if state.stop {
                    drop(state);
                    worker.stop();
                    return Err(PoolError::Stopped);
                }
                Ok(self.bind(&mut state, key, Arc::new(worker)))
            }
            Err(e) => {
                Inner::<F, K>::bump(&inner.counters.start_failures);
                Err(PoolError::Start(e))
            }
        }
    }

    fn bind(&self, state: &mut State<F::Worker, K>, key: &K, worker: Arc<F::Worker>) -> Lease<F, K> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let slot = Slot {
            id,
            worker: Arc::clone(&worker),
            key: key.clone(),
            active: 1,
            served: 1,
            idle_since: Instant::now(),
        };
        state.bound.push(slot);
        Lease { inner: Arc::clone(&self.inner), worker, id }
    }

    /// Takes `worker`, started outside the pool (a host's check that its
    /// program starts as a worker), as a spare; past the pool's warm or
    /// total bound it is stopped instead.
    pub fn adopt_spare(&self, worker: F::Worker) {
        let mut state = self.inner.lock();
        Inner::<F, K>::bump(&self.inner.counters.started);
        if state.stop || state.spares.len() >= self.inner.config.warm || state.alive() >= self.inner.config.max_workers
        {
            drop(state);
            worker.stop();
            return;
        }
        state.spares.push(Arc::new(worker));
        drop(state);
        self.inner.wake.notify_all();
    }

    /// What the pool has done so far.
    pub fn stats(&self) -> PoolStats {
        let c = &self.inner.counters;
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        PoolStats {
            started: load(&c.started),
            start_failures: load(&c.start_failures),
            crashed: load(&c.crashed),
            recycled: load(&c.recycled),
            expired: load(&c.expired),
            leases_bound: load(&c.leases_bound),
            leases_spare: load(&c.leases_spare),
            leases_started: load(&c.leases_started),
            alive: self.inner.lock().alive() as u64,
        }
    }

    /// The keys of the workers bound now, one entry per worker (for tests
    /// and the console: which key each live worker serves).
    pub fn bound_keys(&self) -> Vec<K> {
        self.inner.lock().bound.iter().map(|slot| slot.key.clone()).collect()
    }

    /// The workers bound now, each with its key and how many leases it
    /// has.
    pub fn bound(&self) -> Vec<(K, Arc<F::Worker>, usize)> {
        self.inner.lock().bound.iter().map(|slot| (slot.key.clone(), Arc::clone(&slot.worker), slot.active)).collect()
    }
}

impl<F: WorkerFactory, K: Eq + Clone + Send + 'static> Drop for WorkerPool<F, K> {
    /// Stops the supervisor; it stops every worker no lease holds, and a
    /// leased one is stopped when its last lease ends.
    fn drop(&mut self) {
        self.inner.lock().stop = true;
        self.inner.wake.notify_all();
    }
}

impl<F: WorkerFactory, K: Eq + Clone + Send + 'static> Lease<F, K> {
    /// The worker.
    pub fn worker(&self) -> &F::Worker {
        &self.worker
    }

    /// The worker broke its protocol or died: it is stopped at once (its
    /// other cells fail with it) and never leased again.
    pub fn fail(self) {
        let removed = {
            let mut state = self.inner.lock();
            let index = state.bound.iter().position(|slot| slot.id == self.id);
            index.map(|i| state.bound.swap_remove(i))
        };
        if removed.is_some() {
            Inner::<F, K>::bump(&self.inner.counters.crashed);
        }
        self.worker.stop();
        self.inner.wake.notify_all();
        // Drop finds no slot: nothing more to release.
    }
}

impl<F: WorkerFactory, K: Eq + Clone + Send + 'static> Drop for Lease<F, K> {
    fn drop(&mut self) {
        let config = &self.inner.config;
        let mut state = self.inner.lock();
        let stop = state.stop;
        let Some(index) = state.bound.iter().position(|slot| slot.id == self.id) else { return };
        let slot = &mut state.bound[index];
        slot.active = slot.active.saturating_sub(1);
        if slot.active > 0 {
            return;
        }
        slot.idle_since = Instant::now();
        let recycle = slot.served >= config.recycle_after;
        if recycle || stop || !slot.worker.alive() {
            let slot = state.bound.swap_remove(index);
            drop(state);
            let fate = if recycle {
                Fate::Recycled
            } else if stop {
                Fate::Stopped
            } else {
                Fate::Crashed
            };
            finish(&self.inner, vec![slot.worker], fate);
            self.inner.wake.notify_all();
        }
    }
}

/// Why a worker leaves the pool.
#[derive(Clone, Copy)]
enum Fate {
    /// It died, or broke its protocol.
    Crashed,
    /// It served its leases.
    Recycled,
    /// Bound and idle past the TTL.
    Expired,
    /// The pool was shut down.
    Stopped,
}

/// Stops `workers` and counts them as `fate`.
fn finish<F: WorkerFactory, K>(inner: &Inner<F, K>, workers: Vec<Arc<F::Worker>>, fate: Fate) {
    let counter = match fate {
        Fate::Recycled => Some(&inner.counters.recycled),
        Fate::Expired => Some(&inner.counters.expired),
        Fate::Crashed => Some(&inner.counters.crashed),
        Fate::Stopped => None,
    };
    for worker in workers {
        if let Some(counter) = counter {
            Inner::<F, K>::bump(counter);
        }
        worker.stop();
    }
}

/// Removes the bound workers that died, leased or not, and returns them.
fn take_dead<W: Worker, K>(bound: &mut Vec<Slot<W, K>>) -> Vec<Arc<W>> {
    let mut dead = Vec::new();
    bound.retain(|slot| {
        let alive = slot.worker.alive();
        if !alive {
            dead.push(Arc::clone(&slot.worker));
        }
        alive
    });
    dead
}

/// The supervisor: keeps the spares started (backing off while starts
/// fail), drops dead spares and dead bound workers (within a second of
/// their death, leased or not), and stops bound workers idle past their
/// TTL.
fn supervise<F: WorkerFactory, K>(inner: &Inner<F, K>) {
    let config = &inner.config;
    let mut state = inner.lock();
    loop {
        if state.stop {
            let spares = std::mem::take(&mut state.spares);
            let idle: Vec<_> = state.bound.iter().filter(|s| s.active == 0).map(|s| Arc::clone(&s.worker)).collect();
            state.bound.retain(|s| s.active > 0);
            drop(state);
            for worker in spares.into_iter().chain(idle) {
                worker.stop();
            }
            return;
        }
        let now = Instant::now();
        // Dead spares and expired idle workers go.
        let mut dead = Vec::new();
        state.spares.retain(|w| {
            let alive = w.alive();
            if !alive {
                dead.push(Arc::clone(w));
            }
            alive
        });
        dead.extend(take_dead(&mut state.bound));
        let mut expired = Vec::new();
        state.bound.retain(|slot| {
            let keep = slot.active > 0 || now.saturating_duration_since(slot.idle_since) < config.idle_ttl;
            if !keep {
                expired.push(Arc::clone(&slot.worker));
            }
            keep
        });
        if !dead.is_empty() || !expired.is_empty() {
            drop(state);
            finish(inner, dead, Fate::Crashed);
            finish(inner, expired, Fate::Expired);
            state = inner.lock();
            continue;
        }
        let backing_off = state.retry_at.is_some_and(|at| now < at);
        let wanted = state.spares.len() + state.starting < config.warm && state.alive() < config.max_workers;
        if wanted && !backing_off {
            state.starting += 1;
            state.spares_starting += 1;
            drop(state);
            let started = inner.factory.start();
            state = inner.lock();
            state.starting -= 1;
            state.spares_starting -= 1;
            // A lease waiting for this spare looks again (it is pushed
            // below, under this lock; on a failure it starts its own).
            inner.worker_started.notify_all();
            match started {
                Ok(worker) => {
                    Inner::<F, K>::bump(&inner.counters.started);
                    state.failures = 0;
                    state.retry_at = None;
                    state.spares.push(Arc::new(worker));
                }
                Err(_) => {
                    Inner::<F, K>::bump(&inner.counters.start_failures);
                    state.failures = state.failures.saturating_add(1);
                    let wait = config
                        .backoff_min
                        .saturating_mul(1 << state.failures.saturating_sub(1).min(16))
                        .min(config.backoff_max);
                    state.retry_at = Some(Instant::now() + wait);
                }
            }
            continue;
        }
        // Sleep until the next thing to do: a retry, an idle expiry, a
        // spare's health check (a spare killed while idle is replaced
        // within a second), or a wake.
        let mut until = now + Duration::from_secs(1);
        if let Some(at) = state.retry_at.filter(|_| wanted) {
            until = until.min(at);
        }
        for slot in state.bound.iter().filter(|s| s.active == 0) {
            until = until.min(slot.idle_since + config.idle_ttl);
        }
        let wait = until.saturating_duration_since(now).max(Duration::from_millis(1));
        state = inner.wake.wait_timeout(state, wait).unwrap_or_else(PoisonError::into_inner).0;
    }
}

/// A worker process started by [`WorkerCommand`](crate::WorkerCommand).
#[derive(Debug)]
pub struct ProcessWorker {
    pid: u32,
    child: Mutex<Child>,
    channel: std::os::unix::net::UnixStream,
}

impl ProcessWorker {
    /// The process's id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The host's end of its channel.
    pub fn channel(&self) -> &std::os::unix::net::UnixStream {
        &self.channel
    }
}

impl From<SpawnedWorker> for ProcessWorker {
    fn from(spawned: SpawnedWorker) -> Self {
        Self { pid: spawned.child.id(), child: Mutex::new(spawned.child), channel: spawned.channel }
    }
}

impl Drop for ProcessWorker {
    /// A worker is never left running or unreaped, whatever path let go
    /// of it last.
    fn drop(&mut self) {
        self.stop();
    }
}

impl Worker for ProcessWorker {
    fn alive(&self) -> bool {
        let mut child = self.child.lock().unwrap_or_else(PoisonError::into_inner);
        matches!(child.try_wait(), Ok(None))
    }

    fn stop(&self) {
        let mut child = self.child.lock().unwrap_or_else(PoisonError::into_inner);
        if matches!(child.try_wait(), Ok(None)) {
            let _ = child.kill();
        }
        // Reaped, so no zombie is left behind.
        let _ = child.wait();
    }
}

#[cfg(test)]
mod tests;
