//! Prepared engines, made and freed on a thread of their own.
//!
//! Preparing a cell's engine (QuickJS runtime, fresh context, guest API)
//! and freeing it are most of a trivial cell's cost. A runtime's engine
//! factory thread keeps a few spares ready and frees ended cells' engines,
//! so a JS thread only compiles and runs guest code: a cell starts on a
//! prepared engine, and a parked cell resumes without waiting behind engine
//! work on its thread (the OS scheduler shares the cores, preemptively). A
//! spare has never run guest code: taking it still gives every cell a
//! brand-new context (GA-1.2). With the `parallel` feature an engine may
//! be made on one thread and used and freed on others.
//!
//! When the factory falls behind (a saturated machine), a take prepares
//! inline (as with no spare) and a retire past [`MAX_RETIRED`] frees
//! inline, so memory stays bounded. The factory runs at the cells'
//! priority in process and at idle priority in an engine worker
//! ([`FactoryPriority`]; each measured faster where it is used:
//! `docs/benchmarks.md`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::host::GuestHost;
use super::vm::{PreludeGeneration, StartError, Vm};
use crate::limits::Limits;

/// What every engine of a runtime is made from.
#[derive(Clone)]
pub(crate) struct Recipe<H> {
    pub limits: Arc<Limits>,
    /// The requests and configuration every engine is given.
    pub host: H,
}

/// Ended engines waiting for the factory at most; past it, a retire frees
/// its engine on the caller's thread. An engine holds ~200 KiB, so this
/// bounds the backlog at ~13 MiB while absorbing a burst of short cells
/// (the factory makes spares first and frees when they are ready). A
/// bound of 8 (JS threads freeing their own engines sooner under load)
/// was measured: ~4 % more throughput at 8 clients, but `Promise.all` and
/// `yield` rounds no better or worse, within this machine's noise.
const MAX_RETIRED: usize = 64;

/// The same bound for a factory at idle priority ([`FactoryPriority::Idle`]):
/// on a saturated machine it may not run for as long as the machine stays
/// busy, and every engine it would free waits in the worker's memory
/// meanwhile; the cells' threads free their own sooner.
const MAX_RETIRED_IDLE: usize = 8;

struct State<H: GuestHost> {
    spares: Vec<Vm<H>>,
    retired: Vec<Vm<H>>,
    /// The last preparation failed: wait for the next take before retrying
    /// (that take prepares inline and reports the failure).
    failing: bool,
    /// How many more engines may be taken before the owner says otherwise
    /// ([`EnginePool::room_for`]): no more spares than that are kept.
    room: usize,
    stop: bool,
}

impl<H: GuestHost> State<H> {
    /// The spares to keep: the pool's depth, or fewer when fewer may be
    /// taken.
    fn wanted(&self, depth: usize) -> usize {
        depth.min(self.room)
    }
}

impl<H: GuestHost> Default for State<H> {
    fn default() -> Self {
        Self { spares: Vec::new(), retired: Vec::new(), failing: false, room: usize::MAX, stop: false }
    }
}

struct Inner<H: GuestHost> {
    recipe: Recipe<H>,
    depth: usize,
    /// Ended engines kept for the factory to free, at most.
    max_retired: usize,
    state: Mutex<State<H>>,
    wake: Condvar,
    takes: TakeCounts,
}

/// Takes of engines counted: how many found a spare, how many prepared
/// one on the taking thread.
#[derive(Debug, Default)]
pub(crate) struct TakeCounts([AtomicU64; 2]);

impl TakeCounts {
    /// Counts a take: of a spare, or prepared inline.
    pub(crate) fn count(&self, spare: bool) {
        self.0[usize::from(!spare)].fetch_add(1, Ordering::Relaxed);
    }

    /// The takes so far.
    pub(crate) fn get(&self) -> EngineTakes {
        let [spare, inline] = &self.0;
        EngineTakes { spare: spare.load(Ordering::Relaxed), inline: inline.load(Ordering::Relaxed) }
    }
}

/// How a pool's takes went: how many found a spare engine ready, how many
/// prepared one on the taking thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineTakes {
    /// A spare was ready.
    pub spare: u64,
    /// None was: the cell waited for its engine to be prepared.
    pub inline: u64,
}

/// A runtime's engine pool and its factory thread.
pub(crate) struct EnginePool<H: GuestHost> {
    inner: Arc<Inner<H>>,
}

impl<H: GuestHost> Clone for EnginePool<H> {
    fn clone(&self) -> Self {
        Self { inner: Arc::clone(&self.inner) }
    }
}

impl<H: GuestHost> EnginePool<H> {
    /// Starts the factory thread, which keeps `depth` spares ready.
    pub(crate) fn start(recipe: Recipe<H>, depth: usize) -> std::io::Result<Self> {
        Self::start_at(recipe, depth, FactoryPriority::Normal)
    }

    /// Starts the factory thread at `priority` (see [`start`](Self::start)).
    pub(crate) fn start_at(recipe: Recipe<H>, depth: usize, priority: FactoryPriority) -> std::io::Result<Self> {
        let max_retired = match priority {
            FactoryPriority::Normal => MAX_RETIRED,
            FactoryPriority::Idle => MAX_RETIRED_IDLE,
        };
        let inner = Arc::new(Inner {
            recipe,
            depth,
            max_retired,
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            takes: Default::default(),
        });
        let worker = Arc::clone(&inner);
        // Returns once the thread runs: an engine worker confines itself
        // next, and a thread's own start-up (`rseq`, its signal stack)
        // is not on the allow-list.
        let (started, running) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("codemode-engines".into())
            // QuickJS measures its stack limit against the native stack.
            .stack_size(4 * 1024 * 1024)
            .spawn(move || {
                if priority == FactoryPriority::Idle {
                    run_when_idle();
                }
                let _ = started.send(());
                factory(&worker);
            })?;
        running.recv().map_err(|_| std::io::Error::other("the engine factory thread ended as it started"))?;
        Ok(Self { inner })
    }

    fn lock(&self) -> MutexGuard<'_, State<H>> {
        self.inner.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A spare engine, or one prepared now when none is ready.
    pub(crate) fn take(&self) -> Result<Vm<H>, StartError> {
        self.take_telling().map(|(vm, _)| vm)
    }

    /// Takes an engine (see [`take`](Self::take)), saying whether it was a
    /// spare (`true`) or prepared on this thread.
    pub(crate) fn take_telling(&self) -> Result<(Vm<H>, bool), StartError> {
        let spare = {
            let mut state = self.lock();
            state.failing = false;
            state.spares.pop()
        };
        self.inner.wake.notify_one();
        self.inner.takes.count(spare.is_some());
        match spare {
            Some(vm) => Ok((vm, true)),
            None => {
                let r = &self.inner.recipe;
                Vm::prepare(&r.limits, &r.host, PreludeGeneration::CURRENT).map(|vm| (vm, false))
            }
        }
    }

    /// What this pool's engines are made from: the limits and the host.
    pub(crate) fn recipe(&self) -> (&crate::limits::Limits, &H) {
        (&self.inner.recipe.limits, &self.inner.recipe.host)
    }

    /// How the takes so far went.
    pub(crate) fn takes(&self) -> EngineTakes {
        self.inner.takes.get()
    }

    /// Prepares, starts (`return 1`) and frees `iters` engines of this
    /// pool's recipe on the calling thread, past the spares: the engine's
    /// own cost per cell, for `codemode bench`.
    pub(crate) fn cycle(&self, iters: u32) -> Result<std::time::Duration, StartError> {
        let r = &self.inner.recipe;
        let wrapped = crate::source::wrap("return 1");
        let start = std::time::Instant::now();
        for _ in 0..iters {
            let vm = Vm::prepare(&r.limits, &r.host, PreludeGeneration::CURRENT)?;
            vm.start(&wrapped)?;
            drop(vm);
        }
        Ok(start.elapsed())
    }

    /// At most `engines` more engines will be taken until the next call
    /// says otherwise (an engine worker with room for that many more
    /// cells: its host places no cell past its bound): no more spares are
    /// kept than that, and those past it are freed, so a full worker holds
    /// no engine for a cell that cannot come. A take past it still gets an
    /// engine (prepared inline).
    pub(crate) fn room_for(&self, engines: usize) {
        let mut state = self.lock();
        state.room = engines;
        let keep = state.wanted(self.inner.depth);
        let extra = if state.spares.len() > keep { state.spares.split_off(keep) } else { Vec::new() };
        // With no extra, this only wakes the factory: room made may mean
        // spares to prepare.
        self.to_factory(state, extra.into_iter());
    }

    /// An ended cell's engine: the factory frees it (or the caller, when
    /// the factory is behind).
    pub(crate) fn retire(&self, vm: Vm<H>) {
        let state = self.lock();
        self.to_factory(state, std::iter::once(vm));
    }

    /// Gives `engines` to the factory to free and wakes it; frees them
    /// here when it is stopped or past its bound of retired engines.
    fn to_factory(&self, mut state: MutexGuard<'_, State<H>>, engines: impl ExactSizeIterator<Item = Vm<H>>) {
        if state.stop || state.retired.len() + engines.len() > self.inner.max_retired {
            drop(state);
            // Dropping what is left of the iterator frees the engines.
            drop(engines);
            return;
        }
        state.retired.extend(engines);
        drop(state);
        self.inner.wake.notify_one();
    }

    /// The spares ready now.
    #[cfg(test)]
    pub(crate) fn spare_count(&self) -> usize {
        self.lock().spares.len()
    }

    /// Waits until exactly `count` spares are ready (the factory makes or
    /// frees them meanwhile); panics after 20 s.
    #[cfg(test)]
    pub(crate) fn await_spares(&self, count: usize) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while self.spare_count() != count {
            assert!(std::time::Instant::now() < deadline, "{} spares, not {count}, after 20 s", self.spare_count());
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    /// Stops the factory; its spares are freed.
    pub(crate) fn stop(&self) {
        self.lock().stop = true;
        self.inner.wake.notify_one();
    }
}

/// How the factory thread competes for the CPUs.
///
/// In an engine worker a cell's end has more threads ready to run than
/// in process (the worker's engine thread, the host's JS thread, the
/// caller), and a factory woken by the cell's take, preparing the next
/// spare at the same priority, held a CPU they waited for: a trivial cell
/// 2 ms after the last took about twice as long as with the factory
/// yielding (`docs/benchmarks.md`). In process the same change made cells
/// slower (its spares were not ready in time), so it stays `Normal`.
/// Under a saturated machine an idle factory falls behind: takes prepare
/// inline and retirements past [`MAX_RETIRED_IDLE`] free inline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FactoryPriority {
    /// As the threads that run cells.
    Normal,
    /// Only when no other thread of the machine wants a CPU
    /// (`SCHED_IDLE`).
    Idle,
}

/// Puts the calling thread under `SCHED_IDLE`; a refusal leaves it at the
/// normal priority, which is correct, only slower.
fn run_when_idle() {
    let param = libc::sched_param { sched_priority: 0 };
    #[expect(unsafe_code, reason = "sched_setscheduler is a libc call")]
    // SAFETY: on Linux, pid 0 names the calling thread; `param` lives
    // across the call.
    let _ = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &raw const param) };
}

fn factory<H: GuestHost>(inner: &Inner<H>) {
    let lock = || inner.state.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        let mut state = lock();
        while !state.stop
            && state.retired.is_empty()
            && (state.failing || state.spares.len() >= state.wanted(inner.depth))
        {
            state = inner.wake.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        if state.stop {
            let leftovers = (std::mem::take(&mut state.spares), std::mem::take(&mut state.retired));
            drop(state);
            drop(leftovers);
            return;
        }
        // A missing spare delays a cell; a retired engine only holds memory.
        if !state.failing && state.spares.len() < state.wanted(inner.depth) {
            drop(state);
            let r = &inner.recipe;
            match Vm::prepare(&r.limits, &r.host, PreludeGeneration::CURRENT) {
                Ok(vm) => {
                    let mut state = lock();
                    // The room may have shrunk while it was prepared.
                    if state.spares.len() < state.wanted(inner.depth) {
                        state.spares.push(vm);
                    } else {
                        drop(state);
                        drop(vm);
                    }
                }
                Err(_) => lock().failing = true,
            }
            continue;
        }
        let retired = std::mem::take(&mut state.retired);
        drop(state);
        drop(retired);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::host::BareHost;

    /// A pool with no factory thread (nothing frees what it keeps) that
    /// keeps `max_retired` ended engines at most.
    fn starved_pool(max_retired: usize) -> EnginePool<BareHost> {
        let recipe = Recipe { limits: Arc::default(), host: BareHost };
        EnginePool {
            inner: Arc::new(Inner {
                recipe,
                depth: 2,
                max_retired,
                state: Mutex::new(State::default()),
                wake: Condvar::new(),
                takes: Default::default(),
            }),
        }
    }

    #[test]
    fn retired_engines_waiting_for_a_starved_factory_are_bounded() {
        for bound in [MAX_RETIRED, MAX_RETIRED_IDLE] {
            let pool = starved_pool(bound);
            for _ in 0..bound {
                let vm = pool.take().expect("an engine is prepared inline when no spare is ready");
                pool.retire(vm);
            }
            assert_eq!(pool.lock().retired.len(), bound, "exactly at the bound, all are kept");
            // One over: the caller frees it.
            pool.retire(pool.take().expect("an engine"));
            assert_eq!(pool.lock().retired.len(), bound);
        }
    }

    /// The scheduling policy of each of this process's threads named
    /// `name` (`/proc/self/task/*/stat`, field 41; names are cut at 15
    /// bytes).
    #[expect(clippy::disallowed_methods, reason = "a test reads its own process's threads in /proc")]
    fn policies_of(name: &str) -> Vec<u32> {
        let tasks = std::fs::read_dir("/proc/self/task").expect("this process's threads");
        tasks
            .flatten()
            .filter(|task| std::fs::read_to_string(task.path().join("comm")).is_ok_and(|c| c.trim() == name))
            .map(|task| {
                let stat = std::fs::read_to_string(task.path().join("stat")).expect("its stat");
                // After `pid (comm)`, field 3 is the first: 41 is the 39th.
                let fields: Vec<&str> = stat.rsplit_once(')').expect("comm ends").1.split_whitespace().collect();
                fields[38].parse().expect("a policy number")
            })
            .collect()
    }

    #[test]
    fn a_pool_keeps_no_more_spares_than_engines_may_still_be_taken() {
        let pool = EnginePool::start(Recipe { limits: Arc::default(), host: BareHost }, 2).expect("the factory starts");
        pool.await_spares(2);
        // Less room than spares: those past it are freed at once.
        pool.room_for(1);
        assert_eq!(pool.spare_count(), 1);
        pool.room_for(0);
        assert_eq!(pool.spare_count(), 0);
        // A take past the room still gets an engine, prepared inline.
        let (vm, spare) = pool.take_telling().expect("an engine");
        assert!(!spare, "no spare was kept");
        pool.retire(vm);
        // Room made: the factory prepares up to it, and no more than its depth.
        pool.room_for(1);
        pool.await_spares(1);
        pool.room_for(5);
        pool.await_spares(2);
        pool.stop();
    }

    #[test]
    fn a_factory_started_at_idle_priority_runs_under_sched_idle_and_still_makes_spares() {
        let pool = EnginePool::start_at(Recipe { limits: Arc::default(), host: BareHost }, 1, FactoryPriority::Idle)
            .expect("the factory starts");
        let policy = u32::try_from(libc::SCHED_IDLE).expect("a small number");
        assert!(policies_of("codemode-engine").contains(&policy), "{:?}", policies_of("codemode-engine"));
        assert_eq!(pool.inner.max_retired, MAX_RETIRED_IDLE, "a starved idle factory holds fewer ended engines");
        // On a machine with an idle moment, it prepares its spare.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while pool.lock().spares.is_empty() {
            assert!(std::time::Instant::now() < deadline, "an idle-priority factory made no spare in 20 s");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(pool.take_telling().expect("an engine").1, "the take found the spare");
        pool.stop();
    }
}
