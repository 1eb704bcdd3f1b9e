//! Engine workers (`isolation = "process"`): the supervised pool of
//! confined processes that cells' engines run in, and how a cell gets one.
//!
//! Each worker is bound for its life to one key — a principal, a session,
//! or one shared key, as [`WorkerSharing`] says — so two keys' cells never
//! share a process, at once or one after the other. A cell leases its
//! worker for its whole life (parked included); the pool bounds workers,
//! cells per worker and cells per worker's life, keeps spares warm and
//! replaces a worker that died.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use codemode_sandbox::PoolStats;
use codemode_sandbox::{PoolConfig, WorkerCommand, WorkerFactory, WorkerPool};

use crate::cell::guest_host::{CellHost, RemoteEngine};
use crate::cell::requests::HostRequest;
use crate::engine::pool::{EngineTakes, TakeCounts};
use crate::engine::remote::EngineLimits;
use crate::engine::remote::client::{EngineWorker, PreludeBytecode, RemoteCell, RemoteError};
use crate::engine::remote::mirror::Reopen;
use crate::engine::remote::protocol::{CellRecipe, WorkerConfig};
use crate::engine::vm;
use crate::limits::Limits;

/// Which cells may share an engine worker process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WorkerSharing {
    /// Cells of one principal (the client a server authenticated, or the
    /// session where there is none): the default.
    #[default]
    Principal,
    /// Cells of one session.
    Session,
    /// Every cell (one trust domain: a single-user host).
    Shared,
}

/// How engine workers are started and pooled (`isolation = "process"`).
#[derive(Clone, Debug)]
pub struct EngineWorkers {
    /// The program a worker runs: one whose `main` calls
    /// [`engine_worker`](crate::engine_worker) (the default: this program,
    /// with the argument `engine-worker`, which the `codemode` binary
    /// serves).
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Which cells may share a worker.
    pub sharing: WorkerSharing,
    /// Engine threads per worker: its cells run on them, each on one.
    pub threads: usize,
    /// Workers kept started ahead, not yet bound to a key.
    pub warm: usize,
    /// Workers alive at most.
    pub max_workers: usize,
    /// Workers one key (a principal, by default) may hold at once; in
    /// effect at most `max_workers`, so one client cannot hold every
    /// worker another needs.
    pub max_workers_per_key: usize,
    /// Cells one worker runs at once (running or parked).
    pub cells_per_worker: usize,
    /// Cells a worker runs in its life before it is replaced.
    pub recycle_after: u64,
    /// How long a bound worker with no cell is kept for its key.
    pub idle_ttl: Duration,
    /// The most address space a worker may map, in bytes (`RLIMIT_AS`).
    /// `None`: derived from the cells' limits ([`default_address_space`]):
    /// every cell it may hold at its heap limit, plus the process's own.
    /// There is no unlimited setting; a large value is the way to say
    /// "as much as the machine has".
    pub address_space: Option<u64>,
    /// Accept a worker whose program started threads before it handed
    /// over to the engine (a `#[tokio::main]` that calls
    /// [`engine_worker`](crate::engine_worker) inside): such a worker
    /// cannot leave the host's namespaces, so its filter is its only
    /// wall. Off: such a worker is refused, and the runtime does not
    /// start, saying how to write its `main`.
    pub accept_threaded_handoff: bool,
}

/// A worker's own address space beside its cells' heaps: the program,
/// the C library, the prelude and spares, each engine thread's 16 MiB
/// stack and its allocator arena's 64 MiB reservation (measured: an idle
/// worker with two engine threads maps about 50 MiB; the base leaves room
/// for the allocator's fragmentation).
const WORKER_BASE_ADDRESS_SPACE: u64 = 1024 * 1024 * 1024;
const PER_THREAD_ADDRESS_SPACE: u64 = 80 * 1024 * 1024;

/// The address space bound a worker gets unless one is set: its own
/// (a fixed base and each engine thread's) plus `cells_per_worker` cells
/// at their heap limit. Past it an allocation fails in the engine — the
/// cell fails out of memory — rather than the host running out.
#[must_use]
pub fn default_address_space(workers: &EngineWorkers, limits: &Limits) -> u64 {
    let threads = u64::try_from(workers.threads.max(1)).unwrap_or(u64::MAX);
    let cells = u64::try_from(workers.cells_per_worker.max(1)).unwrap_or(u64::MAX);
    let heap = u64::try_from(limits.memory_limit_bytes).unwrap_or(u64::MAX);
    WORKER_BASE_ADDRESS_SPACE
        .saturating_add(threads.saturating_mul(PER_THREAD_ADDRESS_SPACE))
        .saturating_add(cells.saturating_mul(heap))
}

impl EngineWorkers {
    /// Workers that run `program` with `args`, with the default pool.
    #[must_use]
    pub fn new(program: impl Into<PathBuf>, args: impl IntoIterator<Item = impl Into<OsString>>) -> Self {
        Self {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            sharing: WorkerSharing::default(),
            threads: 2,
            warm: 1,
            max_workers: 64,
            max_workers_per_key: 16,
            cells_per_worker: 64,
            recycle_after: 1_000,
            idle_ttl: Duration::from_secs(60),
            address_space: None,
            accept_threaded_handoff: false,
        }
    }

    /// Workers that run this program as `<this program> engine-worker`.
    ///
    /// # Errors
    /// The path of this program cannot be read.
    pub fn this_program() -> io::Result<Self> {
        Ok(Self::new(std::env::current_exe()?, [WORKER_ARGUMENT]))
    }
}

/// The argument [`EngineWorkers::this_program`] starts a worker with, and
/// [`engine_worker_if_asked`](crate::engine_worker_if_asked) looks for.
pub(crate) const WORKER_ARGUMENT: &str = "engine-worker";

/// How long a new worker has to say it is confined and ready.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Starts engine workers.
struct Factory {
    command: WorkerCommand,
    accept_threaded: bool,
    config: WorkerConfig,
    /// This process's prelude bytecode, sent to each worker.
    prelude: Option<PreludeBytecode>,
}

impl WorkerFactory for Factory {
    type Worker = EngineWorker<HostRequest>;

    fn start(&self) -> io::Result<Self::Worker> {
        EngineWorker::spawn(&self.command, self.config.clone(), self.prelude.as_ref(), HANDSHAKE, self.accept_threaded)
            .map_err(io::Error::other)
    }
}

/// A runtime's engine workers.
pub(crate) struct Workers {
    pool: WorkerPool<Factory, String>,
    sharing: WorkerSharing,
    limits: Arc<Limits>,
    /// How the workers' cells took their engines, as they reported it.
    takes: Arc<TakeCounts>,
}

impl Workers {
    /// Starts the pool for cells under `limits` whose tool globals are
    /// `tools`.
    pub(crate) fn start(workers: &EngineWorkers, limits: Arc<Limits>, tools: Vec<String>) -> io::Result<Self> {
        let mut command = WorkerCommand::new(&workers.program);
        for arg in &workers.args {
            command = command.arg(arg.clone());
        }
        let config = WorkerConfig {
            limits: EngineLimits::of(&limits),
            tools,
            threads: workers.threads.max(1),
            // Two: its factory prepares them only on CPUs no cell wants,
            // so one is ready more often for the next cell.
            spares: 2,
            cells_at_once: workers.cells_per_worker,
            cells_in_life: workers.recycle_after,
            address_space: Some(workers.address_space.unwrap_or_else(|| default_address_space(workers, &limits))),
            // Named by the prelude sent with it, if any (`EngineWorker::spawn`).
            prelude_build: None,
        };
        // Compiled here once (or already, by `warm_up`) and sent to each
        // worker, which then need not compile it. One that does not
        // compile here will not in a worker either: the worker's own try
        // reports why.
        let prelude = vm::prelude_bytecode()
            .inspect_err(|e| tracing::warn!("the prelude did not compile in the host: {e:?}"))
            .ok()
            .map(|bytes| PreludeBytecode { build: vm::prelude_build(), bytes });
        let pool = PoolConfig {
            warm: workers.warm,
            max_workers: workers.max_workers.max(1),
            max_workers_per_key: workers.max_workers_per_key.clamp(1, workers.max_workers.max(1)),
            cells_per_worker: workers.cells_per_worker.max(1),
            recycle_after: workers.recycle_after.max(1),
            idle_ttl: workers.idle_ttl,
            ..PoolConfig::default()
        };
        let factory = Factory { command, accept_threaded: workers.accept_threaded_handoff, config, prelude };
        // One worker started now: a program that is not a worker (its
        // `main` never hands over), hangs, or hands over too late is
        // refused here, by name, not at the first cell.
        let first = factory.start().map_err(|e| {
            io::Error::other(format!(
                "the engine worker program {} did not start as a worker: {e}. Its `main` must call \
                 codemode_runtime::engine_worker_if_asked() first, before anything starts threads",
                workers.program.display()
            ))
        })?;
        let pool = WorkerPool::start(factory, pool)?;
        pool.adopt_spare(first);
        Ok(Self { pool, sharing: workers.sharing, limits, takes: Arc::default() })
    }

    /// The key of a cell of `principal` in `session`.
    fn key(&self, principal: Option<&str>, session: Option<&str>) -> String {
        // Prefixed, so a principal named like a session never shares its
        // worker.
        match (self.sharing, principal, session) {
            (WorkerSharing::Shared, ..) => "shared".to_owned(),
            (WorkerSharing::Principal, Some(principal), _) => format!("principal:{principal}"),
            (_, _, Some(session)) => format!("session:{session}"),
            // Headless cells have no session: their principal's, or one
            // key for those with none.
            (WorkerSharing::Session, Some(principal), None) => format!("headless:{principal}"),
            (_, None, None) => "headless".to_owned(),
        }
    }

    /// An engine for a cell of `principal` in `session` on a worker of its
    /// key; `recipe` when it needs an engine made for it.
    pub(crate) fn open(
        self: &Arc<Self>,
        principal: Option<&str>,
        session: Option<&str>,
        recipe: Option<CellRecipe>,
        host: CellHost,
    ) -> Result<RemoteEngine, String> {
        let key = self.key(principal, session);
        let (cell, lease) = self.open_cell(&key, recipe.clone())?;
        let workers = Arc::clone(self);
        let reopen: Reopen<HostRequest> = Box::new(move || workers.open_cell(&key, recipe));
        let takes = Arc::clone(&self.takes);
        Ok(RemoteEngine::new(cell, host, &self.limits, takes, lease, Some(reopen)))
    }

    /// A cell on a worker of `key`, and the lease that keeps the worker
    /// for it.
    fn open_cell(
        &self,
        key: &String,
        recipe: Option<CellRecipe>,
    ) -> Result<(RemoteCell<HostRequest>, Box<dyn Send + Sync>), String> {
        // A worker that died since its last cell (killed, say) and whose
        // end its reader has not taken yet is failed here, and a fresh
        // one leased: no guest code ran, so nothing is lost by the retry.
        let mut tries = 0;
        loop {
            tries += 1;
            let lease = self.pool.lease(key).map_err(|e| e.to_string())?;
            let opened = if lease.worker().running() {
                lease.worker().open(recipe.clone())
            } else {
                Err(RemoteError::Crashed("it had exited before the cell was opened".into()))
            };
            match opened {
                Ok(cell) => return Ok((cell, Box::new(lease))),
                Err(e) => {
                    lease.fail();
                    if tries >= 2 {
                        return Err(e.to_string());
                    }
                }
            }
        }
    }

    /// How the workers' cells took their engines: a spare, or one
    /// prepared while the cell waited.
    pub(crate) fn takes(&self) -> EngineTakes {
        self.takes.get()
    }

    /// What the pool has done so far, and the workers bound now.
    pub(crate) fn snapshot(&self) -> EngineWorkersSnapshot {
        let workers = self
            .pool
            .bound()
            .into_iter()
            .map(|(key, worker, cells)| BoundWorker { key, pid: worker.pid(), cells })
            .collect();
        EngineWorkersSnapshot { pool: self.pool.stats(), workers }
    }
}

/// What a runtime's engine workers have done, and which run now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineWorkersSnapshot {
    /// Started, crashed, recycled, expired and alive workers; leases.
    pub pool: PoolStats,
    /// The workers bound to a key now.
    pub workers: Vec<BoundWorker>,
}

/// A worker bound to a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundWorker {
    /// Whose cells it runs (`principal:…`, `session:…`, `shared`, …).
    pub key: String,
    /// Its process id.
    pub pid: u32,
    /// Cells on it now (running or parked).
    pub cells: usize,
}

impl codemode_sandbox::Worker for EngineWorker<HostRequest> {
    fn alive(&self) -> bool {
        self.running()
    }

    fn stop(&self) {
        EngineWorker::stop(self, "its pool stopped it");
    }
}
