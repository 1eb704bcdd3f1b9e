//! The QuickJS side of a cell: its runtime and context ([`vm::Vm`]), the
//! guest link its native functions record into ([`link::GuestLink`]), the
//! clock and configuration reads a journal records ([`determinism`]), value
//! conversion ([`convert`]) and the pool of prepared engines ([`pool`]).
//!
//! [`Engine`] is the part a cell owns: it steps the guest and reads what
//! the guest asked for, and gives the engine back to the pool when the
//! cell ends.

pub(crate) mod args;
pub(crate) mod cell_clock;
pub(crate) mod clock;
pub(crate) mod control;
pub(crate) mod convert;
pub(crate) mod determinism;
pub(crate) mod heap;
pub(crate) mod host;
pub(crate) mod intrinsics;
pub(crate) mod link;
pub(crate) mod local_time;
pub(crate) mod output;
pub(crate) mod pool;
pub(crate) mod remote;
pub(crate) mod settlement;
pub(crate) mod vm;

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use crate::jsthreads::ThreadLease;
use crate::source::Positions;
use control::CellControl;
use determinism::{Determinism, Setup};
use host::{GuestHost, McpRoutes};
use link::{AdmissionError, GuestLink, Outcome};
use output::PendingOutput;
use pool::EnginePool;
pub(crate) use remote::mirror::RemoteEngine;
use remote::protocol::Control;
use settlement::Settlement;
use vm::{StartError, SyntaxFailure, Vm};

/// Why guest code stopped running before its window ended: aborted, past
/// its window's deadline, or past the run's guest-CPU budget.
pub(crate) use control::Stop as Interruption;

/// Starts compiling the guest prelude on a thread of its own, so that a
/// process about to run its first cell overlaps the compile (~6 M
/// instructions, once per process) with its own start-up: parsing its
/// arguments, opening the store. Without it, the first engine compiles
/// the prelude when the runtime starts. Calling it more than once, or
/// after a runtime started, costs a thread that finds the work done.
pub fn warm_up() {
    let spawned = std::thread::Builder::new()
        .name("codemode-warm-up".into())
        // The parser's recursion is measured against the native stack, as
        // on the engine threads.
        .stack_size(4 * 1024 * 1024)
        .spawn(|| {
            // A failure is kept: the first engine reports it.
            let _ = vm::compile_prelude();
        });
    if let Err(e) = spawned {
        tracing::debug!("no thread to compile the prelude early ({e}); the first engine compiles it");
    }
}

/// The cell `wrapped` stripped of its types, when it may compile as
/// JavaScript but TypeScript reads it differently: it has the text of a
/// generic call, parses as TypeScript, and stripping changes it. `None`
/// for every other cell (most never meet the TypeScript parser): those
/// mean what JavaScript says, or do not compile as JavaScript and are
/// stripped after.
#[cfg(feature = "typescript")]
fn typescript_reading(wrapped: &str) -> Option<String> {
    if !crate::typescript::may_be_a_generic_call(wrapped) {
        return None;
    }
    // Not TypeScript (a parse error, or past the stripper's size bound):
    // JavaScript decides.
    crate::typescript::strip(wrapped).ok().filter(|stripped| stripped != wrapped)
}

/// Where a cell's engine runs.
pub(crate) enum Backing<H: GuestHost> {
    /// In this process: `vm`, given back to `pool` when the cell ends.
    Local { vm: Vm<H>, pool: EnginePool<H> },
    /// In an engine worker process.
    Remote(Box<RemoteEngine<H>>),
}

impl<H: GuestHost> Backing<H> {
    /// Interrupts the cell's guest code, from any thread.
    pub(crate) fn aborter(&self) -> Arc<dyn Fn() + Send + Sync> {
        match self {
            Self::Local { vm, .. } => {
                let control = Arc::clone(vm.control());
                Arc::new(move || control.abort())
            }
            Self::Remote(remote) => Arc::new(remote.aborter()),
        }
    }
}

enum Side<H: GuestHost> {
    /// `vm` is `None` once given back (the cell's state is being dropped).
    Local {
        vm: Option<Vm<H>>,
        pool: EnginePool<H>,
    },
    Remote(Box<RemoteEngine<H>>),
}

/// One cell's engine, as the cell drives it: in this process or in a
/// worker, behind the same methods. Of a remote engine, `link` is the
/// host's copy that each step's report fills, and `control` keeps the
/// host's side of the costs (time waiting on the host).
pub(crate) struct Engine<H: GuestHost> {
    side: Side<H>,
    link: Arc<Mutex<GuestLink<H::Request>>>,
    control: Arc<CellControl>,
    /// Counts the cell against its JS thread; marks the thread busy while
    /// guest code runs (or the thread waits for a worker's step).
    lease: ThreadLease,
    /// Where the compiled source's positions are in the cell as written.
    positions: Positions,
}

impl<H: GuestHost> Engine<H> {
    /// The cell's engine, on the thread `lease` counts it on.
    pub(crate) fn new(backing: Backing<H>, lease: ThreadLease) -> Self {
        let (side, link, control) = match backing {
            Backing::Local { vm, pool } => {
                let (link, control) = (Arc::clone(vm.link()), Arc::clone(vm.control()));
                (Side::Local { vm: Some(vm), pool }, link, control)
            }
            Backing::Remote(remote) => {
                let (link, control) = (Arc::clone(remote.link()), Arc::clone(remote.control()));
                (Side::Remote(remote), link, control)
            }
        };
        Self { side, link, control, lease, positions: Positions::default() }
    }

    /// Compiles and starts `source` (the cell, wrapped, maybe stripped).
    fn start_source(&self, source: &str) -> Result<(), StartError> {
        match &self.side {
            Side::Local { vm: Some(vm), .. } => self.guest(|| vm.start(source)),
            Side::Local { vm: None, .. } => Err(StartError::Engine("the cell's engine is gone".into())),
            Side::Remote(remote) => self.guest(|| remote.start(source, &self.link)),
        }
    }

    /// A remote engine's control to apply before its next step; nothing
    /// for an engine in process (its methods act at once).
    fn queue(&self, control: impl FnOnce() -> Control) {
        if let Side::Remote(remote) = &self.side {
            remote.queue(control());
        }
    }

    /// Sends a remote engine's queued controls now and takes its report.
    fn flush(&self) {
        if let Side::Remote(remote) = &self.side {
            self.guest(|| remote.step(Vec::new(), &self.link));
        }
    }

    /// Whether the cell's engine worker process failed (an engine in
    /// process never does).
    pub(crate) fn worker_failed(&self) -> bool {
        match &self.side {
            Side::Local { .. } => false,
            Side::Remote(remote) => remote.worker_failed(),
        }
    }

    /// Why the cell's engine worker failed it, if it did.
    pub(crate) fn crash(&self) -> Option<String> {
        match &self.side {
            Side::Local { .. } => None,
            Side::Remote(remote) => remote.crash(),
        }
    }

    /// Compiles the wrapped cell source and runs it until it first waits
    /// on the host. A cell is TypeScript when it parses as TypeScript and
    /// stripping its types changes it: one with the text of a generic call
    /// is stripped first (JavaScript would read the call as comparisons),
    /// and one that does not compile as JavaScript is compiled again
    /// stripped. A syntax error runs nothing; its position is in the cell
    /// as written.
    pub(crate) fn start(&mut self, wrapped: &str) -> Result<(), StartError> {
        let started = self.start_once(wrapped);
        if matches!(started, Err(StartError::Engine(_))) && self.reopen() {
            return self.start_once(wrapped);
        }
        started
    }

    /// A remote engine whose worker was killed before it reported, opened
    /// again on another worker ([`RemoteEngine::reopen`]).
    fn reopen(&mut self) -> bool {
        match &mut self.side {
            Side::Local { .. } => false,
            Side::Remote(remote) => remote.reopen(),
        }
    }

    fn start_once(&mut self, wrapped: &str) -> Result<(), StartError> {
        #[cfg(feature = "typescript")]
        if let Some(stripped) = typescript_reading(wrapped) {
            return self.start_stripped(wrapped, &stripped);
        }
        match self.start_source(wrapped) {
            Err(StartError::Syntax(js)) => {
                let js = self.mapped(js, false);
                self.start_typescript(wrapped, js)
            }
            other => other,
        }
    }

    /// `failure` from the engine, at its position in the cell as written.
    fn mapped(&self, mut failure: SyntaxFailure, typescript: bool) -> SyntaxFailure {
        failure.at = failure.at.map(|(line, col)| self.positions.user(line, col));
        failure.typescript = typescript;
        failure
    }

    /// A cell that is not JavaScript: strips its types and compiles it
    /// again. The error reported is TypeScript's when its parser read the
    /// cell further than the engine did (the cell is TypeScript) or found
    /// a construct it cannot strip; otherwise the engine's.
    #[cfg(feature = "typescript")]
    fn start_typescript(&mut self, wrapped: &str, js: SyntaxFailure) -> Result<(), StartError> {
        let stripped = match crate::typescript::strip(wrapped) {
            Ok(stripped) if stripped != wrapped => stripped,
            // Nothing to strip: a JavaScript syntax error.
            Ok(_) => return Err(StartError::Syntax(js)),
            Err(diagnostics) => {
                let Some(d) = diagnostics.into_iter().next() else { return Err(StartError::Syntax(js)) };
                let further = js.at.is_none_or(|at| (d.line, d.column) > at);
                if !(d.unsupported || further) {
                    return Err(StartError::Syntax(js));
                }
                let failure = SyntaxFailure { message: d.message, at: Some((d.line, d.column)), typescript: true };
                return Err(StartError::Syntax(failure));
            }
        };
        self.start_stripped(wrapped, &stripped)
    }

    /// Compiles and starts `stripped`, the cell `wrapped` with its types
    /// stripped; positions are mapped back to the cell as written.
    #[cfg(feature = "typescript")]
    fn start_stripped(&mut self, wrapped: &str, stripped: &str) -> Result<(), StartError> {
        self.positions = Positions::stripped(wrapped, stripped);
        self.link().positions = self.positions.clone();
        self.queue(|| Control::Positions(self.positions.clone()));
        match self.start_source(stripped) {
            Err(StartError::Syntax(failure)) => Err(StartError::Syntax(self.mapped(failure, true))),
            other => other,
        }
    }

    /// A cell that is not JavaScript, in a build without TypeScript
    /// support: the engine's error, saying so when the cell looks like
    /// TypeScript.
    #[cfg(not(feature = "typescript"))]
    fn start_typescript(&mut self, wrapped: &str, mut js: SyntaxFailure) -> Result<(), StartError> {
        if crate::typescript::looks_like_typescript(wrapped) {
            js.message.push_str(
                " (this looks like TypeScript, which this build of codemode does not accept: it was built without \
                 its `typescript` feature; write plain JavaScript)",
            );
        }
        Err(StartError::Syntax(js))
    }

    /// Where the compiled source's positions are in the cell as written.
    pub(crate) fn positions(&self) -> &Positions {
        &self.positions
    }

    /// Delivers `settlements` and runs the guest until it is idle.
    pub(crate) fn step(&self, settlements: Vec<Settlement>) {
        if settlements.is_empty() {
            return;
        }
        match &self.side {
            Side::Local { vm: Some(vm), .. } => self.guest(|| vm.step(settlements)),
            Side::Local { vm: None, .. } => {}
            Side::Remote(remote) => self.guest(|| remote.step(settlements, &self.link)),
        }
    }

    /// Runs guest code: the thread is marked busy and the step's CPU
    /// time counted while `f` runs.
    fn guest<T>(&self, f: impl FnOnce() -> T) -> T {
        let _busy = self.lease.guest_step();
        self.control.begin_step();
        let out = f();
        self.control.end_step();
        out
    }

    /// The guest link (never contended: the cell and its native functions
    /// run on one thread, one after the other). Private: everything a cell
    /// gives or reads of its engine is a method of [`Engine`], in data, so
    /// that an engine in another process has the same interface.
    fn link(&self) -> MutexGuard<'_, GuestLink<H::Request>> {
        vm::lock(&self.link)
    }

    /// Sets up the clock, `Math.random` and configuration reads, before
    /// the cell starts.
    pub(crate) fn set_up(&self, setup: Setup) {
        match &self.side {
            Side::Local { .. } => self.link().determinism.set_up(setup),
            Side::Remote(remote) => {
                self.link().determinism.host_side(&setup);
                remote.queue(Control::SetUp(setup));
            }
        }
    }

    /// Guest code is interrupted once `at` passes (a window opened; the
    /// guest waits on the host until its next step).
    pub(crate) fn set_deadline(&self, at: Instant) {
        self.control.set_deadline(at);
        if let Side::Remote(remote) = &self.side {
            remote.set_deadline(Some(at));
        }
    }

    /// No deadline: the window closed and the cell is parked.
    pub(crate) fn clear_deadline(&self) {
        self.control.clear_deadline();
        if let Side::Remote(remote) = &self.side {
            remote.set_deadline(None);
        }
    }

    /// The run replays its journal: its guest CPU is neither budgeted nor
    /// counted until [`resume_costs`](Self::resume_costs).
    pub(crate) fn pause_cpu_budget(&self) {
        self.control.pause_cpu_budget();
        self.queue(|| Control::PauseCpuBudget);
    }

    /// The replay is over: the run goes on with the costs its journal
    /// recorded, under its CPU budget again.
    pub(crate) fn resume_costs(&self, recorded: control::Costs) {
        self.control.resume_costs(recorded);
        self.queue(|| Control::ResumeCosts(recorded));
    }

    /// Timers `fired` settled: their slots are free.
    pub(crate) fn timers_fired(&self, fired: impl IntoIterator<Item = u64>) {
        match &self.side {
            Side::Local { .. } => {
                let mut link = self.link();
                for id in fired {
                    link.timer_fired(id);
                }
            }
            Side::Remote(remote) => {
                let fired: Vec<u64> = fired.into_iter().collect();
                // The host's copy counts live timers too (a worker's
                // reports are held to the same bound).
                let mut link = self.link();
                for id in &fired {
                    link.timer_fired(*id);
                }
                drop(link);
                if !fired.is_empty() {
                    remote.queue(Control::TimersFired(fired));
                }
            }
        }
    }

    /// Where a replayed cell's MCP servers are in this process, once the
    /// cell read its namespace (`None`: where the namespace says).
    pub(crate) fn mcp_routes(&self) -> Option<Arc<McpRoutes>> {
        self.link().determinism.mcp_routes.clone()
    }

    /// Why the replay diverged from its journal, if it did.
    pub(crate) fn diverged(&self) -> Option<String> {
        self.link().determinism.diverged.clone()
    }

    /// The replay diverged, for `why` (the first reason is kept).
    pub(crate) fn diverge(&self, why: String) {
        self.queue(|| Control::Diverge(why.clone()));
        self.link().determinism.diverged.get_or_insert(why);
    }

    /// The journaled steps are replayed: reads go live from here, and a
    /// clock read the journal has left is a divergence.
    pub(crate) fn end_replay(&self) {
        match &self.side {
            Side::Local { .. } => self.link().determinism.end_replay(),
            Side::Remote(remote) => {
                // What it says of the replay is read right after.
                remote.queue(Control::EndReplay);
                self.flush();
            }
        }
    }

    /// Whether the cell's top-level promise settled.
    pub(crate) fn settled(&self) -> bool {
        self.link().outcome.is_some()
    }

    /// The admission bound the guest exceeded (sticky), and how its
    /// top-level promise settled (taken: reported once).
    pub(crate) fn take_ending(&self) -> (Option<AdmissionError>, Option<Outcome>) {
        let mut link = self.link();
        (link.admission.clone(), link.outcome.take())
    }

    /// Whether the guest read network-derived metadata synchronously.
    pub(crate) fn network(&self) -> bool {
        self.link().network
    }

    /// The output kept and not yet taken, for a stream to send what is new.
    pub(crate) fn kept_output(&self) -> KeptOutput<'_, H::Request> {
        KeptOutput(self.link())
    }

    /// What the guest read from the clock and the configuration, for the
    /// run's journal.
    pub(crate) fn reads(&self) -> Reads<'_, H::Request> {
        Reads(self.link())
    }

    /// Why guest code was interrupted, if it was.
    pub(crate) fn interruption(&self) -> Option<Interruption> {
        match &self.side {
            Side::Local { .. } => self.control.stopped(),
            Side::Remote(remote) => remote.interruption(),
        }
    }

    /// What the guest has cost so far.
    pub(crate) fn costs(&self) -> control::Costs {
        match &self.side {
            Side::Local { .. } => self.control.costs(),
            Side::Remote(remote) => remote.costs(&self.control),
        }
    }

    /// Notes the engine's heap peak for the receipt (counted as the engine
    /// allocates: nothing is walked).
    pub(crate) fn note_heap(&self) {
        match &self.side {
            Side::Local { vm: Some(vm), .. } => self.control.note_heap(vm.heap_peak()),
            // Given back (nothing left to note), or in a worker, which
            // notes it in the costs of every report.
            Side::Local { vm: None, .. } | Side::Remote(_) => {}
        }
    }

    /// Bytes the engine holds now (to tell an out-of-memory `null` from a
    /// thrown one).
    pub(crate) fn memory_used(&self) -> usize {
        match &self.side {
            Side::Local { vm, .. } => vm.as_ref().map_or(0, Vm::<H>::memory_used),
            Side::Remote(remote) => {
                if !remote.memory_fresh() {
                    remote.queue(Control::NoteHeap);
                    self.flush();
                }
                remote.memory()
            }
        }
    }

    /// The requests the guest made and the timers it cleared since the
    /// last call; `network` is whether it read network-derived metadata.
    pub(crate) fn take_requests(&self) -> Requests<H::Request> {
        let mut link = self.link();
        Requests {
            made: std::mem::take(&mut link.submitted),
            cleared: std::mem::take(&mut link.cancelled),
            network: link.network,
        }
    }

    /// `n` ordinary requests settled: their admission slots are free.
    pub(crate) fn release_slots(&self, n: usize) {
        if n == 0 {
            return;
        }
        // The host's copy counts them in both modes (a worker's reports
        // are held to the same bound).
        let mut link = self.link();
        link.outstanding_calls = link.outstanding_calls.saturating_sub(n);
        drop(link);
        if let Side::Remote(remote) = &self.side {
            remote.queue(Control::ReleaseSlots(n));
        }
    }

    /// The output entries emitted since the last delivery, and whether
    /// the console hit its budget since then.
    pub(crate) fn take_output(&self) -> (PendingOutput, bool) {
        let mut link = self.link();
        let marker = std::mem::take(&mut link.console_marker_emitted);
        (link.output.take(), marker)
    }
}

impl<H: GuestHost> Drop for Engine<H> {
    fn drop(&mut self) {
        // Freeing an engine costs about a third of preparing one; the
        // pool's thread does it, off the JS thread. A remote engine is
        // freed by its worker when its cell is dropped.
        if let Side::Local { vm, pool } = &mut self.side
            && let Some(vm) = vm.take()
        {
            pool.retire(vm);
        }
    }
}

/// What the guest asked for during a step.
pub(crate) struct Requests<R> {
    /// Requests made, with their ids, in order.
    pub made: Vec<(u64, R)>,
    /// Timers cleared.
    pub cleared: Vec<u64>,
    /// The guest read network-derived metadata synchronously.
    pub network: bool,
}

/// The output an engine keeps, borrowed from it.
pub(crate) struct KeptOutput<'a, R>(MutexGuard<'a, GuestLink<R>>);

impl<R> KeptOutput<'_, R> {
    /// The entries kept, oldest first.
    pub(crate) fn entries(&self) -> &[codemode_protocol::OutputEntry] {
        self.0.output.kept()
    }
}

/// The clock and configuration reads of an engine's cell, borrowed from it.
pub(crate) struct Reads<'a, R>(MutexGuard<'a, GuestLink<R>>);

impl<R> Reads<'_, R> {
    /// Whether the guest read network-derived metadata synchronously.
    pub(crate) fn network(&self) -> bool {
        self.0.network
    }
}

impl<R> std::ops::Deref for Reads<'_, R> {
    type Target = Determinism;

    fn deref(&self) -> &Determinism {
        &self.0.determinism
    }
}
