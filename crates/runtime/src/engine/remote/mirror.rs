//! The host's copy of a remote engine's guest link: what the cell reads
//! of its engine (requests made, output, the ending, the reads for the
//! journal) is kept here, filled from each [`StepReport`], so the cell
//! reads a remote engine exactly as it reads one in process.
//!
//! What a worker reports is untrusted: request ids must be new and
//! increasing, an outcome or admission error is taken once, output is
//! bounded again by the host's own output cap, and clock runs are rebuilt
//! into the host's log (never copied as counts).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::client::{RemoteCell, RemoteError};
use super::protocol::{Answer, Control, Query, StepReport};
use crate::engine::control::{CellControl, Costs, Stop};
use crate::engine::determinism::{EnvKey, MAX_ENV_READS};
use crate::engine::host::{Admitted, GuestHost, McpRoutes};
use crate::engine::link::{Bounds, GuestLink};
use crate::engine::pool::TakeCounts;
use crate::engine::settlement::Settlement;
use crate::engine::vm::StartError;
use crate::limits::Limits;

/// How long past its step's deadline a worker may take to report before
/// it is failed: an interrupted step still drains its jobs and writes its
/// report.
const REPORT_GRACE: Duration = Duration::from_secs(1);

/// What the last report said that the link does not hold.
#[derive(Default)]
struct Last {
    interruption: Option<Stop>,
    costs: Costs,
    memory: usize,
    /// The last report measured the heap: no guest code ran since.
    memory_fresh: bool,
    /// The highest request id the worker has used.
    last_id: u64,
    /// Why the worker failed this cell, once it has.
    crashed: Option<String>,
    /// A report was taken for this cell: the host may have acted on it.
    reported: bool,
}

/// Opens the cell again on another worker: a new conversation, and the
/// lease that keeps that worker for it.
pub(crate) type Reopen<R> = Box<dyn FnOnce() -> Result<(RemoteCell<R>, Box<dyn Send + Sync>), String> + Send + Sync>;

/// What interrupts the cell's running step: its conversation's, replaced
/// when the cell is opened again on another worker.
type AbortSlot = Arc<Mutex<Arc<dyn Fn() + Send + Sync>>>;

/// A cell's engine in a worker, as its host drives it.
pub(crate) struct RemoteEngine<H: GuestHost> {
    cell: RemoteCell<H::Request>,
    host: H,
    /// The host's copy of the engine's guest link.
    link: Arc<Mutex<GuestLink<H::Request>>>,
    /// The host's side of the costs: time the guest waited on the host.
    control: Arc<CellControl>,
    /// Controls to apply before the next step.
    queued: Mutex<Vec<Control>>,
    /// The controls sent before the worker's first report (the set-up of
    /// the clock and replay, above all): a cell opened again on another
    /// worker sends them again.
    unreported: Mutex<Vec<Control>>,
    /// The window's deadline, sent with each step as the time left.
    deadline: Mutex<Option<Instant>>,
    /// How long a step without a deadline may take (the window timeout).
    timeout: Duration,
    last: Mutex<Last>,
    /// The configuration reads the host answered in the current step, in
    /// order: a reported live read takes its value from here.
    given: Mutex<VecDeque<(EnvKey, String)>>,
    /// Where the worker's takes of engines are counted.
    takes: Arc<TakeCounts>,
    /// Keeps the cell's worker leased while the cell lives.
    _lease: Box<dyn Send + Sync>,
    /// Opens the cell on another worker, once ([`reopen`](Self::reopen)).
    reopen: Option<Reopen<H::Request>>,
    abort: AbortSlot,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<H: GuestHost> RemoteEngine<H> {
    /// The engine of `cell` under `limits`, whose queries `host`
    /// answers; `lease` keeps its worker for it; how its engine was taken
    /// is counted in `takes`; `reopen` opens it on another worker.
    pub(crate) fn new(
        cell: RemoteCell<H::Request>,
        host: H,
        limits: &Limits,
        takes: Arc<TakeCounts>,
        lease: Box<dyn Send + Sync>,
        reopen: Option<Reopen<H::Request>>,
    ) -> Self {
        let link = GuestLink::new(Bounds {
            max_in_flight: limits.max_in_flight,
            max_queued: limits.max_queued,
            max_timers: limits.max_timers,
            max_output_bytes: limits.max_output_bytes,
        });
        let abort: AbortSlot = Arc::new(Mutex::new(Arc::new(cell.aborter())));
        Self {
            cell,
            host,
            link: Arc::new(Mutex::new(link)),
            control: Arc::new(CellControl::new(None)),
            queued: Mutex::default(),
            unreported: Mutex::default(),
            deadline: Mutex::default(),
            timeout: limits.timeout.max(limits.headless_timeout),
            last: Mutex::default(),
            given: Mutex::default(),
            takes,
            _lease: lease,
            reopen,
            abort,
        }
    }

    /// Opens the cell again on another worker when its worker was killed
    /// (`SIGKILL`, not by this host: an operator, the OOM killer) before
    /// it reported anything for the cell: the host acts only on reports,
    /// so nothing the cell did is lost or done twice — it starts over.
    /// Once per cell, and not for a worker that died of what it ran (a
    /// fault, a filter violation: other signals), fell silent or broke
    /// the protocol. Whether it was opened again.
    pub(crate) fn reopen(&mut self) -> bool {
        if lock(&self.last).reported || !self.cell.worker().killed_from_outside() {
            return false;
        }
        let Some(reopen) = self.reopen.take() else { return false };
        match reopen() {
            Ok((cell, lease)) => {
                tracing::debug!(
                    killed = self.cell.worker().pid(),
                    now = cell.worker().pid(),
                    "a cell's engine worker was killed before it reported; the cell starts on another"
                );
                *lock(&self.abort) = Arc::new(cell.aborter());
                self.cell = cell;
                self._lease = lease;
                *lock(&self.last) = Last::default();
                let mut again = std::mem::take(&mut *lock(&self.unreported));
                let mut queued = lock(&self.queued);
                again.append(&mut queued);
                *queued = again;
                true
            }
            Err(why) => {
                tracing::debug!("a cell's engine worker was killed before it reported, and no other opened: {why}");
                false
            }
        }
    }

    /// The host's copy of the engine's guest link.
    pub(crate) fn link(&self) -> &Arc<Mutex<GuestLink<H::Request>>> {
        &self.link
    }

    /// The host's side of the cell's costs.
    pub(crate) fn control(&self) -> &Arc<CellControl> {
        &self.control
    }

    /// Queues `control` for the next step.
    pub(crate) fn queue(&self, control: Control) {
        lock(&self.queued).push(control);
    }

    /// Sets or clears the window's deadline.
    pub(crate) fn set_deadline(&self, at: Option<Instant>) {
        *lock(&self.deadline) = at;
    }

    /// Interrupts the running step, from any thread.
    pub(crate) fn aborter(&self) -> impl Fn() + Send + Sync + 'static {
        let slot = Arc::clone(&self.abort);
        move || {
            let abort = Arc::clone(&lock(&slot));
            abort();
        }
    }

    /// Why guest code was interrupted, per the last report, or because
    /// the worker has failed since.
    pub(crate) fn interruption(&self) -> Option<Stop> {
        if let Some(why) = self.cell.worker().failure() {
            self.crashed(&RemoteError::Crashed(why));
        }
        lock(&self.last).interruption
    }

    /// Guest CPU and heap per the last report, host wait from `here`.
    pub(crate) fn costs(&self, here: &CellControl) -> Costs {
        let last = lock(&self.last).costs;
        Costs { host_wait: here.costs().host_wait, ..last }
    }

    /// Bytes the engine held when last measured.
    pub(crate) fn memory(&self) -> usize {
        lock(&self.last).memory
    }

    /// Whether the last report measured the heap (no guest code has run
    /// since, so it is the heap now).
    pub(crate) fn memory_fresh(&self) -> bool {
        lock(&self.last).memory_fresh
    }

    /// Starts `source` and keeps what it produced in `link`.
    pub(crate) fn start(&self, source: &str, link: &Mutex<GuestLink<H::Request>>) -> Result<(), StartError> {
        let started = self.exchange(link, |cell, controls, answer, by| cell.start(source, controls, answer, by));
        match started {
            Ok(Some(started)) => started,
            Ok(None) => Err(StartError::Engine("the engine worker reported a start without its result".into())),
            Err(e) => Err(StartError::Engine(e.to_string())),
        }
    }

    /// Delivers `settlements` (and the queued controls) and keeps what the
    /// step produced in `link`. A worker that fails ends the cell: its
    /// outcome becomes an engine failure the cell reports.
    pub(crate) fn step(&self, settlements: Vec<Settlement>, link: &Mutex<GuestLink<H::Request>>) {
        let _ = self.exchange(link, |cell, controls, answer, by| cell.step(settlements, controls, answer, by));
    }

    /// One start or step: sends it with the queued controls, answers the
    /// worker's queries, and takes its report into `link`. Returns the
    /// start's result, if the report had one.
    fn exchange(
        &self,
        link: &Mutex<GuestLink<H::Request>>,
        send: impl FnOnce(
            &RemoteCell<H::Request>,
            Vec<Control>,
            &mut dyn FnMut(Query) -> Answer,
            Instant,
        ) -> Result<StepReport<H::Request>, RemoteError>,
    ) -> Result<Option<Result<(), StartError>>, RemoteError> {
        if let Some(why) = lock(&self.last).crashed.clone() {
            return Err(RemoteError::Crashed(why));
        }
        let now = Instant::now();
        let deadline = *lock(&self.deadline);
        let mut controls = vec![Control::DeadlineAt(deadline.map(crate::engine::control::monotonic_at))];
        controls.append(&mut lock(&self.queued));
        let first = !lock(&self.last).reported;
        if first && self.reopen.is_some() {
            // Kept for a reopen: each step's deadline is sent afresh, the
            // rest again.
            lock(&self.unreported).extend(controls.iter().skip(1).cloned());
        }
        let by = deadline.unwrap_or(now + self.timeout).max(now) + REPORT_GRACE;
        let host = &self.host;
        lock(&self.given).clear();
        let mut answer = |query: Query| {
            let read = match &query {
                Query::ToolMeta(index) => u32::try_from(*index).ok().map(EnvKey::Meta),
                Query::McpTree => Some(EnvKey::McpTree),
                _ => None,
            };
            let answer = super::client::answer(host, query);
            if let (Some(key), Answer::Text(Ok(text))) = (read, &answer) {
                // Kept only for a run that keeps its reads, and no more
                // than its engine may record: a worker asking again and
                // again holds no more of the host's memory than an engine
                // in process reading as often.
                let link = crate::engine::vm::lock(link);
                let det = &link.determinism;
                let mut given = lock(&self.given);
                if det.recording && !det.overflow && given.len() + det.env.len() < MAX_ENV_READS {
                    given.push_back((key, text.clone()));
                }
            }
            // Where a replayed namespace's servers are is the host's own
            // answer, kept here as it gave it (never the worker's word).
            if let Answer::Routes(Ok(routes)) = &answer {
                let routes = routes.as_ref().map(|list| Arc::new(list.iter().cloned().collect()));
                crate::engine::vm::lock(link).determinism.mcp_routes = routes;
            }
            answer
        };
        match send(&self.cell, controls, &mut answer, by) {
            Ok(report) => {
                if first {
                    lock(&self.last).reported = true;
                    lock(&self.unreported).clear();
                }
                self.absorb(link, report)
            }
            Err(e) => {
                self.crashed(&e);
                Err(e)
            }
        }
    }

    /// The worker failed the cell: its guest code stops here, and the
    /// cell ends as its engine having crashed.
    fn crashed(&self, e: &RemoteError) {
        let mut last = lock(&self.last);
        last.crashed.get_or_insert_with(|| e.to_string());
        last.interruption = Some(Stop::Crashed);
    }

    /// Whether the cell's worker process failed (died, or was failed for
    /// breaking the protocol), not only refused one message.
    pub(crate) fn worker_failed(&self) -> bool {
        self.cell.worker().failure().is_some()
    }

    /// Why the cell's worker failed it, if it did.
    pub(crate) fn crash(&self) -> Option<String> {
        let _ = self.interruption();
        lock(&self.last).crashed.clone()
    }

    /// Takes `report` into `link`, checking what a worker could lie about:
    /// every request must have a new id, be one decoding could have made,
    /// and fit the admission bounds its engine keeps; reads are rebuilt
    /// and bounded as the engine bounds them. A report that fails a check
    /// fails the worker; what was taken of it is never journaled (the run
    /// is handed to its journal as of its last finished step).
    fn absorb(
        &self,
        link: &Mutex<GuestLink<H::Request>>,
        report: StepReport<H::Request>,
    ) -> Result<Option<Result<(), StartError>>, RemoteError> {
        let StepReport {
            started,
            made,
            cleared,
            output,
            console_marker,
            outcome,
            admission,
            network,
            clock,
            env,
            overflow,
            diverged,
            interruption,
            costs,
            memory,
            took_spare,
        } = report;
        if let Some(spare) = took_spare {
            self.takes.count(spare);
        }
        let mut guard = crate::engine::vm::lock(link);
        let link = &mut *guard;
        let checked = self.check_requests(&made, link.determinism.mcp_routes.as_deref()).and_then(|last_id| {
            link.determinism.absorb(clock, env, &mut lock(&self.given), overflow)?;
            link.take_reported(made, cleared, Admitted::admission)?;
            Ok(last_id)
        });
        let last_id = match checked {
            Ok(last_id) => last_id,
            Err(why) => {
                drop(guard);
                // The first reason stands for every cell on the worker.
                let why = self.cell.worker().fail_for(why);
                let e = RemoteError::Crashed(why);
                self.crashed(&e);
                return Err(e);
            }
        };
        link.output.absorb(output);
        link.console_marker_emitted |= console_marker;
        if link.outcome.is_none() {
            link.outcome = outcome;
        }
        if link.admission.is_none() {
            link.admission = admission;
        }
        link.network |= network;
        if let Some(why) = diverged {
            link.determinism.diverged.get_or_insert(why);
        }
        drop(guard);
        let mut last = lock(&self.last);
        last.last_id = last_id;
        if last.crashed.is_none() {
            last.interruption = interruption;
        }
        last.costs = costs;
        last.memory_fresh = memory > 0;
        if memory > 0 {
            last.memory = memory;
        }
        Ok(started)
    }

    /// Checks each request `made` as decoding would, and that ids
    /// increase; returns the last id.
    fn check_requests(&self, made: &[(u64, H::Request)], routes: Option<&McpRoutes>) -> Result<u64, String> {
        let mut last_id = lock(&self.last).last_id;
        for (id, request) in made {
            if *id <= last_id {
                return Err(format!("it reported request id {id}, which is not after the last one it used"));
            }
            self.host.recheck(request, routes).map_err(|why| format!("it sent a request decoding refuses: {why}"))?;
            last_id = *id;
        }
        Ok(last_id)
    }
}
