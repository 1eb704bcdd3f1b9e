//! The engine worker: a process that runs cells' engines for one host and
//! can do nothing else.
//!
//! [`serve`] is its whole life. First, while it has one thread, it leaves
//! the host's namespaces where the kernel lets it; it takes its channel,
//! exchanges hellos and reads its [`WorkerConfig`]; it starts its engine
//! threads and the factory that keeps engines prepared; then it confines
//! itself (`codemode_sandbox::confine`: descriptors, resource limits, a
//! seccomp-bpf allow-list) and says it is ready. Only then does any guest
//! code run.
//!
//! Each engine thread has a lane of its own (a socket pair the host made
//! for it, `codemode_sandbox::take_lanes`): the host places each cell on
//! a lane for the cell's life (its QuickJS runtime cannot move between
//! threads), and the thread reads its lane itself, so a step's message
//! reaches the thread that runs it with no hand-over between threads. An
//! engine thread runs one step at a time; a query it asks the host while
//! guest code runs is answered on its lane, and messages for its other
//! cells that arrive meanwhile wait their turn. The main thread reads the
//! channel, where only `Abort` comes once the worker is ready: it sets the
//! cell's abort flag, which the running step's interrupt handler reads.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::io;
use std::marker::PhantomData;
use std::os::unix::net::UnixStream;
use std::process::ExitCode;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};

use codemode_sandbox::frame::{FrameReader, check_hello, hello, read_frame, write_frame};
use serde_json::{Map, Value};

use super::RequestTable;
use super::protocol::{
    Answer, CellRecipe, Control, FromWorker, MAX_FRAME_BYTES, Query, StepReport, ToWorker, VERSION, decode, encode,
};
use crate::engine::args::Args;
use crate::engine::control::CellControl;
use crate::engine::determinism::{ConfigReadError, McpRoute};
use crate::engine::host::{CompleteArguments, GuestHost, McpRoutes, RequestForm};
use crate::engine::link::Outcome;
use crate::engine::pool::{EnginePool, Recipe};
use crate::engine::settlement::Settlement;
use crate::engine::vm::{self, PreludeGeneration, StartError, Vm};

/// Each engine thread's stack: as a JS thread's in the host, so that the
/// engine's stack limit (at most 8 MiB) is what stops a deep recursion.
const ENGINE_STACK_BYTES: usize = 16 * 1024 * 1024;

/// Runs an engine worker on this process's channel until the host hangs
/// up. Call it first thing in the worker's `main`, while the process has
/// one thread.
pub(crate) fn serve<T: RequestTable>() -> ExitCode {
    match run::<T>() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Stderr is the host's choice (null unless it asked to see it).
            eprintln!("codemode engine worker: {e}");
            ExitCode::from(70)
        }
    }
}

/// Why a worker stopped before its host hung up.
#[derive(Debug, thiserror::Error)]
enum WorkerError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("the channel: {0}")]
    Frame(#[from] codemode_sandbox::frame::FrameError),
    #[error("{0}")]
    Malformed(#[from] super::protocol::Malformed),
    #[error("the host's first message was not the configuration")]
    NotConfigured,
    #[error("the host sent a cell's message on the channel, not on a lane")]
    Misrouted,
    #[error("no engine could be prepared: {0:?}")]
    Engine(StartError),
    #[error("confining itself: {0}")]
    Confine(#[from] codemode_sandbox::ConfineError),
}

fn run<T: RequestTable>() -> Result<(), WorkerError> {
    codemode_sandbox::one_malloc_arena();
    codemode_sandbox::drop_root()?;
    let (namespaces, threaded) = match codemode_sandbox::leave_host_namespaces() {
        codemode_sandbox::Namespaces::Left => (Ok(()), false),
        codemode_sandbox::Namespaces::Kept(why) => (Err(why), false),
        codemode_sandbox::Namespaces::Threaded(n) => {
            (Err(format!("the program ran {n} threads before it handed over to engine_worker()")), true)
        }
    };
    // One descriptor for both directions (confinement closes every other).
    let channel = codemode_sandbox::take_channel()?;
    let mut reader: &UnixStream = &channel;
    let mut writer: &UnixStream = &channel;
    write_frame(&mut writer, &hello(VERSION), MAX_FRAME_BYTES)?;
    check_hello(&read_frame(&mut reader, 64)?, VERSION)?;
    let ToWorker::Configure(config) = decode(&read_frame(&mut reader, MAX_FRAME_BYTES)?)? else {
        return Err(WorkerError::NotConfigured);
    };
    // The host's prelude bytecode, when it sent it: a worker of its build
    // reads it instead of compiling the prelude (over a millisecond of
    // each worker's start).
    let given = match &config.prelude_build {
        Some(build) => Some((build.clone(), read_frame(&mut reader, MAX_FRAME_BYTES)?)),
        None => None,
    };
    let lanes = codemode_sandbox::take_lanes(config.threads)?;
    if !given.is_some_and(|(build, bytes)| vm::adopt_prelude(&build, bytes)) {
        // Compiled before the filter: the prelude's bytecode is made once.
        vm::compile_prelude().map_err(WorkerError::Engine)?;
    }
    // Every thread of a worker runs engines: local time is the cells'
    // zone even outside a step, so nothing here ever reads the host's
    // zone files (which the filter forbids).
    crate::engine::local_time::set_process_zone(&config.limits.time_zone);
    let host = WorkerHost::<T> { tools: config.tools.clone().into(), table: PhantomData };
    let recipe = Recipe { limits: Arc::new(config.limits.limits()), host };
    let pool = EnginePool::start_at(recipe, config.spares, crate::engine::pool::FactoryPriority::Idle)?;
    let controls = Controls::default();
    let occupancy = Arc::new(Occupancy::new(config.cells_at_once, config.cells_in_life));
    let (started, running) = mpsc::channel();
    for (i, lane) in lanes.into_iter().enumerate() {
        let (pool, controls, started) = (pool.clone(), controls.clone(), started.clone());
        let occupancy = Arc::clone(&occupancy);
        std::thread::Builder::new().name(format!("codemode-engine-{i}")).stack_size(ENGINE_STACK_BYTES).spawn(
            move || {
                let _ = started.send(());
                engine_thread(lane, &pool, &controls, &occupancy);
            },
        )?;
    }
    // Every thread runs before the filter: a thread's own start-up
    // (`rseq`, its signal stack) is not on the allow-list.
    for _ in 0..config.threads {
        running.recv().map_err(|_| io::Error::other("an engine thread ended as it started"))?;
    }
    let mut confinement = codemode_sandbox::Confinement::new();
    for fd in (codemode_sandbox::WORKER_FD..).take(config.threads + 1) {
        confinement = confinement.keep(fd);
    }
    if let Some(bytes) = config.address_space {
        confinement = confinement.address_space(bytes);
    }
    let confined = codemode_sandbox::confine(&confinement)?;
    let ready = FromWorker::<T::Request>::Ready { syscalls_allowed: confined.syscalls_allowed, namespaces, threaded };
    write_frame(&mut writer, &encode(&ready)?, MAX_FRAME_BYTES)?;
    aborts(reader, &controls)
}

/// Reads the channel, where the host sends only aborts once the worker
/// is ready, until the host hangs up.
fn aborts(mut reader: &UnixStream, controls: &Controls) -> Result<(), WorkerError> {
    loop {
        let message: ToWorker = match read_frame(&mut reader, MAX_FRAME_BYTES) {
            Ok(frame) => decode(&frame)?,
            Err(codemode_sandbox::frame::FrameError::Closed) => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        match message {
            ToWorker::Abort { cell } => controls.abort(cell),
            ToWorker::Configure(_) => return Err(WorkerError::NotConfigured),
            ToWorker::Start { .. } | ToWorker::Step { .. } | ToWorker::Answer { .. } | ToWorker::Close { .. } => {
                return Err(WorkerError::Misrouted);
            }
        }
    }
}

/// The abort flags of the cells, by id: set by the main thread while a
/// step runs on an engine thread.
#[derive(Clone, Default)]
struct Controls(Arc<Mutex<HashMap<u64, ControlSlot>>>);

#[derive(Default)]
struct ControlSlot {
    control: Option<Arc<CellControl>>,
    aborted: bool,
}

impl Controls {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, ControlSlot>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Aborts cell `cell`, now if its engine is running, or as soon as it
    /// has one.
    fn abort(&self, cell: u64) {
        let mut slots = self.lock();
        let slot = slots.entry(cell).or_default();
        slot.aborted = true;
        if let Some(control) = &slot.control {
            control.abort();
        }
    }

    /// Cell `cell` has an engine with `control`.
    fn register(&self, cell: u64, control: &Arc<CellControl>) {
        let mut slots = self.lock();
        let slot = slots.entry(cell).or_default();
        if slot.aborted {
            control.abort();
        }
        slot.control = Some(Arc::clone(control));
    }

    fn forget(&self, cell: u64) {
        self.lock().remove(&cell);
    }
}

/// How many cells hold an engine of this worker, and how many have in its
/// life, against the host's bounds for it: the pool keeps no more spares
/// than cells may still come (a full worker, or one at the end of its
/// life, holds none). Only the spares depend on it: a count that drifts
/// from the host's (a start racing another cell's close) costs a spare
/// or an engine prepared inline, never a cell.
struct Occupancy {
    counts: Mutex<(usize, u64)>,
    at_once: usize,
    in_life: u64,
}

impl Occupancy {
    fn new(at_once: usize, in_life: u64) -> Self {
        Self { counts: Mutex::new((0, 0)), at_once, in_life }
    }

    /// A cell took an engine.
    fn took<H: crate::engine::host::GuestHost>(&self, pool: &EnginePool<H>) {
        self.change(pool, |live, served| {
            *live += 1;
            *served += 1;
        });
    }

    /// A cell that held an engine closed.
    fn closed<H: crate::engine::host::GuestHost>(&self, pool: &EnginePool<H>) {
        self.change(pool, |live, _| *live = live.saturating_sub(1));
    }

    /// Counts a change and tells the pool the room left, under the lock,
    /// so two lanes' counts reach it in order.
    fn change<H: crate::engine::host::GuestHost>(
        &self,
        pool: &EnginePool<H>,
        count: impl FnOnce(&mut usize, &mut u64),
    ) {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        let (live, served) = &mut *counts;
        count(live, served);
        let life_left = usize::try_from(self.in_life.saturating_sub(*served)).unwrap_or(usize::MAX);
        pool.room_for(self.at_once.saturating_sub(*live).min(life_left));
    }
}

/// An engine thread's lane: its messages from the host and its frames to
/// it, and the cell whose step is running (the one a query is asked for).
struct Lane {
    channel: FrameReader<UnixStream>,
    /// Messages that arrived while a step waited for an answer.
    deferred: VecDeque<ToWorker>,
    running: Option<u64>,
}

impl Lane {
    fn read(&mut self) -> Result<ToWorker, WorkerError> {
        Ok(decode(&self.channel.next_frame()?)?)
    }

    fn send<R: serde::Serialize>(&self, message: &FromWorker<R>) -> Result<(), WorkerError> {
        Ok(write_frame(&mut self.channel.get_ref(), &encode(message)?, MAX_FRAME_BYTES)?)
    }
}

thread_local! {
    static LANE: RefCell<Option<Lane>> = const { RefCell::new(None) };
}

/// The next message for this engine thread; `None` once the worker ends
/// (the host hung up, or sent what does not decode).
fn next_message() -> Option<ToWorker> {
    LANE.with(|lane| {
        let mut lane = lane.borrow_mut();
        let lane = lane.as_mut()?;
        match lane.deferred.pop_front() {
            Some(message) => Some(message),
            None => lane.read().ok(),
        }
    })
}

/// Sends `message` to the host on this thread's lane.
fn send<R: serde::Serialize>(message: &FromWorker<R>) -> Result<(), WorkerError> {
    LANE.with(|lane| match lane.borrow().as_ref() {
        Some(lane) => lane.send(message),
        None => Err(WorkerError::Io(io::Error::other("this thread has no lane"))),
    })
}

/// Marks `cell`'s step as the one running on this thread.
fn running(cell: Option<u64>) {
    LANE.with(|lane| {
        if let Some(lane) = lane.borrow_mut().as_mut() {
            lane.running = cell;
        }
    });
}

/// Asks the host `query` for the step running on this thread, and waits
/// for the answer. `None`: the host is gone (the worker is ending).
fn ask(query: Query) -> Option<Answer> {
    LANE.with(|lane| {
        let mut lane = lane.borrow_mut();
        let lane = lane.as_mut()?;
        let cell = lane.running?;
        lane.send::<()>(&FromWorker::Query { cell, query }).ok()?;
        loop {
            match lane.read().ok()? {
                ToWorker::Answer { cell: c, answer } if c == cell => return Some(answer),
                other => lane.deferred.push_back(other),
            }
        }
    })
}

/// A cell's engine on its thread, and how much of its reads the host has.
struct Cell<T: RequestTable> {
    vm: Vm<WorkerHost<T>>,
    clock_sent: usize,
    env_sent: usize,
    note_heap: bool,
    /// Whether its engine was a spare, until a report said so.
    took_spare: Option<bool>,
}

fn engine_thread<T: RequestTable>(
    lane: UnixStream,
    pool: &EnginePool<WorkerHost<T>>,
    controls: &Controls,
    occupancy: &Occupancy,
) {
    let lane = Lane { channel: FrameReader::new(lane, MAX_FRAME_BYTES), deferred: VecDeque::new(), running: None };
    LANE.with(|slot| *slot.borrow_mut() = Some(lane));
    serve_lane(pool, controls, occupancy);
    // Closes the lane: the host sees it, and ends the worker.
    LANE.with(|slot| slot.borrow_mut().take());
}

/// Runs the cells whose messages come on this thread's lane until the
/// host hangs up.
fn serve_lane<T: RequestTable>(pool: &EnginePool<WorkerHost<T>>, controls: &Controls, occupancy: &Occupancy) {
    let mut cells: HashMap<u64, Cell<T>> = HashMap::new();
    while let Some(message) = next_message() {
        let sent = match message {
            ToWorker::Start { cell, source, controls: applied, recipe } => {
                let entry = match cells.entry(cell) {
                    std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                    std::collections::hash_map::Entry::Vacant(e) => match made(pool, recipe) {
                        Ok((vm, spare)) => {
                            occupancy.took(pool);
                            controls.register(cell, vm.control());
                            e.insert(Cell { vm, clock_sent: 0, env_sent: 0, note_heap: false, took_spare: Some(spare) })
                        }
                        Err(err) => {
                            let message = format!("no engine could be prepared: {err:?}");
                            if send::<T::Request>(&FromWorker::Failed { cell, message }).is_err() {
                                return;
                            }
                            continue;
                        }
                    },
                };
                apply(entry, applied);
                #[cfg(feature = "test-hooks")]
                test_hook::<T>(&source, entry.vm.link());
                running(Some(cell));
                let started = guest(&entry.vm, || entry.vm.start(&source));
                running(None);
                send_report(cell, entry, Some(started))
            }
            ToWorker::Step { cell, settlements, controls: applied } => match cells.get_mut(&cell) {
                Some(entry) => {
                    apply(entry, applied);
                    running(Some(cell));
                    step(&entry.vm, settlements);
                    running(None);
                    send_report(cell, entry, None)
                }
                None => send::<T::Request>(&FromWorker::Failed {
                    cell,
                    message: format!("cell {cell} has not started on this worker"),
                }),
            },
            ToWorker::Close { cell } => {
                if let Some(entry) = cells.remove(&cell) {
                    pool.retire(entry.vm);
                    occupancy.closed(pool);
                }
                controls.forget(cell);
                Ok(())
            }
            // An answer nobody waits for (its step ended): nothing to do.
            ToWorker::Answer { .. } => Ok(()),
            // The channel's messages, on a lane: the host is confused.
            ToWorker::Configure(_) | ToWorker::Abort { .. } => return,
        };
        if sent.is_err() {
            // The host is gone: so is the point of going on.
            return;
        }
    }
}

/// The tests' way to make a cell do, inside its confined worker, what an
/// engine exploit would try: a line `// codemode-test-hook: <what> <arg>`
/// in its source. Only in builds with the `test-hooks` feature (never a
/// release build).
#[cfg(feature = "test-hooks")]
#[expect(clippy::disallowed_methods, reason = "the hook tries exactly what confinement forbids")]
fn test_hook<T: RequestTable>(source: &str, link: &Mutex<crate::engine::link::GuestLink<T::Request>>) {
    use std::io::Write as _;
    let Some(line) = source.lines().find_map(|l| l.trim().strip_prefix("// codemode-test-hook: ")) else { return };
    let (what, arg) = line.split_once(' ').unwrap_or((line, ""));
    let tried = match what {
        "open" => format!("{:?}", std::fs::read(arg).map(|b| b.len())),
        "connect" => format!("{:?}", std::net::TcpStream::connect(arg).map(|_| ())),
        "exec" => format!("{:?}", std::process::Command::new(arg).status()),
        "environ" => format!("{:?}", std::fs::read(format!("/proc/{arg}/environ")).map(|b| b.len())),
        "garbage" | "oversized" => LANE.with(|lane| {
            let lane = lane.borrow();
            let Some(lane) = lane.as_ref() else { return "no lane".to_owned() };
            let claimed: u32 = if what == "garbage" { u32::MAX } else { (MAX_FRAME_BYTES + 1) as u32 };
            let mut stream = lane.channel.get_ref();
            let _ = stream.write_all(&claimed.to_le_bytes());
            let _ = stream.write_all(b"not a frame");
            "sent".to_owned()
        }),
        // A message for another cell, as if the engine were subverted:
        // the host must not hand it to that cell.
        "speak-for" => match arg.parse::<u64>() {
            Ok(cell) => {
                let message = FromWorker::<()>::Failed { cell, message: "forged by a test hook".to_owned() };
                format!("{:?}", send(&message))
            }
            Err(e) => format!("not a cell id: {e}"),
        },
        #[expect(unsafe_code, reason = "raise is a libc call")]
        // SAFETY: a signal to this process.
        "stop" => format!("raise returned {}", unsafe { libc::raise(libc::SIGSTOP) }),
        // A request decoding would never make, as if the engine were
        // subverted: the host must refuse it.
        "forge" => match serde_json::from_str::<T::Request>(arg) {
            Ok(request) => {
                vm::lock(link).submitted.push((u64::MAX / 2, request));
                "forged".to_owned()
            }
            Err(e) => format!("not a request: {e}"),
        },
        // Many well-formed requests at once, past what its engine admits:
        // the host must count them under the same bounds.
        "flood" => {
            let (count, request) = arg.split_once(' ').unwrap_or((arg, ""));
            match (count.parse::<u64>(), serde_json::from_str::<T::Request>(request)) {
                (Ok(count), Ok(_)) => {
                    let mut link = vm::lock(link);
                    for i in 0..count {
                        if let Ok(request) = serde_json::from_str::<T::Request>(request) {
                            link.submitted.push((u64::MAX / 2 + i, request));
                        }
                    }
                    format!("flooded {count}")
                }
                (count, request) => format!("not a count and a request: {count:?} {request:?}"),
            }
        }
        other => format!("no test hook {other:?}"),
    };
    eprintln!("codemode engine worker: test hook {what} survived: {tried}");
}

/// A spare engine, or one made for a cell's `recipe`; and whether it was
/// a spare.
fn made<T: RequestTable>(
    pool: &EnginePool<WorkerHost<T>>,
    recipe: Option<CellRecipe>,
) -> Result<(Vm<WorkerHost<T>>, bool), StartError> {
    let Some(recipe) = recipe else { return pool.take_telling() };
    let (limits, host) = pool.recipe();
    let host = WorkerHost { tools: recipe.tools.into(), ..host.clone() };
    Vm::prepare(limits, &host, PreludeGeneration(recipe.prelude)).map(|vm| (vm, false))
}

/// Runs guest code, counting its CPU time.
fn guest<T: RequestTable, O>(vm: &Vm<WorkerHost<T>>, f: impl FnOnce() -> O) -> O {
    vm.control().begin_step();
    let out = f();
    vm.control().end_step();
    out
}

fn step<T: RequestTable>(vm: &Vm<WorkerHost<T>>, settlements: Vec<Settlement>) {
    guest(vm, || vm.step(settlements));
}

/// Applies the host's controls, in order.
fn apply<T: RequestTable>(cell: &mut Cell<T>, controls: Vec<Control>) {
    let (vm, control) = (&cell.vm, cell.vm.control());
    for c in controls {
        match c {
            Control::SetUp(setup) => vm::lock(vm.link()).determinism.set_up(setup),
            Control::DeadlineAt(Some(at)) => control.set_deadline(crate::engine::control::instant_at(at)),
            Control::DeadlineAt(None) => control.clear_deadline(),
            Control::PauseCpuBudget => control.pause_cpu_budget(),
            Control::ResumeCosts(costs) => control.resume_costs(costs),
            Control::TimersFired(ids) => {
                let mut link = vm::lock(vm.link());
                for id in ids {
                    link.timer_fired(id);
                }
            }
            Control::ReleaseSlots(n) => {
                let mut link = vm::lock(vm.link());
                link.outstanding_calls = link.outstanding_calls.saturating_sub(n);
            }
            Control::Diverge(why) => {
                vm::lock(vm.link()).determinism.diverged.get_or_insert(why);
            }
            Control::EndReplay => vm::lock(vm.link()).determinism.end_replay(),
            Control::NoteHeap => cell.note_heap = true,
            Control::Positions(positions) => vm::lock(vm.link()).positions = positions,
        }
    }
}

/// Takes what the step produced from the cell's engine and sends it.
fn send_report<T: RequestTable>(
    cell: u64,
    entry: &mut Cell<T>,
    started: Option<Result<(), StartError>>,
) -> Result<(), WorkerError> {
    let report = take_report(entry, started);
    send(&FromWorker::Report { cell, report: Box::new(report) })
}

fn take_report<T: RequestTable>(
    entry: &mut Cell<T>,
    started: Option<Result<(), StartError>>,
) -> StepReport<T::Request> {
    // The peak is counted as the engine allocates: every report carries it.
    entry.vm.control().note_heap(entry.vm.heap_peak());
    // The exact figure walks the heap: measured when asked, and when the
    // cell failed (the host tells a bare throw at the memory limit by it,
    // and no guest code changes it meanwhile: a round trip saved).
    let failed = matches!(vm::lock(entry.vm.link()).outcome, Some(Outcome::Error(_)));
    let memory = if std::mem::take(&mut entry.note_heap) || failed { entry.vm.memory_used() } else { 0 };
    let control = entry.vm.control();
    let mut link = vm::lock(entry.vm.link());
    let determinism = &link.determinism;
    let (clock, env) = if determinism.overflow {
        (Vec::new(), Vec::new())
    } else {
        let clock = determinism.reads.runs_from(entry.clock_sent);
        let env = determinism.env.get(entry.env_sent..).unwrap_or_default().iter().map(|(key, _)| *key);
        let env = env.zip(determinism.env_sources.get(entry.env_sent..).unwrap_or_default().iter().copied()).collect();
        (clock, env)
    };
    entry.clock_sent = determinism.reads.len();
    entry.env_sent = determinism.env.len();
    let (overflow, diverged) = (determinism.overflow, determinism.diverged.clone());
    StepReport {
        started,
        made: std::mem::take(&mut link.submitted),
        cleared: std::mem::take(&mut link.cancelled),
        output: link.output.take(),
        console_marker: std::mem::take(&mut link.console_marker_emitted),
        outcome: link.outcome.take(),
        admission: link.admission.clone(),
        network: link.network,
        clock,
        env,
        overflow,
        diverged,
        interruption: control.stopped(),
        costs: control.costs(),
        memory,
        took_spare: entry.took_spare.take(),
    }
}

/// The engine's host inside a worker: the tool names it was configured
/// with; everything else it asks on the lane of the thread it runs on.
struct WorkerHost<T> {
    tools: Arc<[String]>,
    table: PhantomData<fn() -> T>,
}

impl<T> Clone for WorkerHost<T> {
    fn clone(&self) -> Self {
        Self { tools: Arc::clone(&self.tools), table: PhantomData }
    }
}

/// What a host that is gone, or that answered out of turn, leaves a read
/// with.
const NO_ANSWER: &str = "the host did not answer (the worker is ending)";

impl<T: RequestTable> CompleteArguments for WorkerHost<T> {
    fn complete_arguments(&self, hub: usize, tool: &str, args: &mut Map<String, Value>) -> Result<(), String> {
        let query = Query::CompleteArguments { hub, tool: tool.to_owned(), args: std::mem::take(args) };
        match ask(query) {
            Some(Answer::Arguments(Ok(completed))) => {
                *args = completed;
                Ok(())
            }
            Some(Answer::Arguments(Err(missing)) | Answer::Unsendable(missing)) => Err(missing),
            _ => Err(NO_ANSWER.into()),
        }
    }
}

impl<T: RequestTable> GuestHost for WorkerHost<T> {
    type Request = T::Request;

    fn requests() -> &'static [RequestForm] {
        T::forms()
    }

    fn decode(&self, op: usize, args: &Args<'_, '_>, routes: Option<&McpRoutes>) -> rquickjs::Result<T::Request> {
        T::decode(op, args, self, routes)
    }

    fn recheck(&self, _: &T::Request, _: Option<&McpRoutes>) -> Result<(), String> {
        // The worker decoded it itself; its host checks it again.
        Ok(())
    }

    fn tool_count(&self) -> usize {
        self.tools.len()
    }

    fn callable(&self, index: usize) -> Option<&str> {
        self.tools.get(index).map(String::as_str)
    }

    fn tool_meta(&self, index: usize) -> Result<String, ConfigReadError> {
        text(ask(Query::ToolMeta(index)), "a tool's metadata")
    }

    fn mcp_tree(&self) -> Result<String, ConfigReadError> {
        text(ask(Query::McpTree), "the MCP namespace")
    }

    fn mcp_routes(&self, tree: &str) -> Result<Option<Arc<McpRoutes>>, String> {
        match ask(Query::McpRoutes(tree.to_owned())) {
            Some(Answer::Routes(Ok(routes))) => {
                Ok(routes.map(|list| Arc::new(list.into_iter().collect::<HashMap<usize, McpRoute>>())))
            }
            Some(Answer::Routes(Err(why)) | Answer::Unsendable(why)) => Err(why),
            _ => Err(NO_ANSWER.into()),
        }
    }

    fn mcp_suggestion(&self, wanted: &str, methods: &[String]) -> Result<Option<String>, ConfigReadError> {
        let query = Query::McpSuggestion { wanted: wanted.to_owned(), methods: methods.to_vec() };
        let what = "an MCP method suggestion";
        match ask(query) {
            Some(Answer::Suggestion(suggestion)) => suggestion.map_err(|reason| ConfigReadError { what, reason }),
            Some(Answer::Unsendable(reason)) => Err(ConfigReadError { what, reason }),
            _ => Err(ConfigReadError { what, reason: NO_ANSWER.into() }),
        }
    }
}

fn text(answer: Option<Answer>, what: &'static str) -> Result<String, ConfigReadError> {
    match answer {
        Some(Answer::Text(Ok(text))) => Ok(text),
        Some(Answer::Text(Err(reason)) | Answer::Unsendable(reason)) => Err(ConfigReadError { what, reason }),
        _ => Err(ConfigReadError { what, reason: NO_ANSWER.into() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::host::BareHost;
    use crate::engine::pool::Recipe;

    #[test]
    fn a_worker_keeps_spares_only_for_cells_its_host_may_still_place_on_it() {
        let recipe = Recipe { limits: Arc::default(), host: BareHost };
        let pool = EnginePool::start(recipe, 2).expect("the factory starts");
        pool.await_spares(2);
        // Two cells at once, three in its life.
        let occupancy = Occupancy::new(2, 3);
        occupancy.took(&pool);
        assert_eq!(pool.spare_count(), 1, "room for one more cell: one spare");
        occupancy.took(&pool);
        assert_eq!(pool.spare_count(), 0, "full: no spare");
        occupancy.closed(&pool);
        pool.await_spares(1);
        occupancy.took(&pool);
        assert_eq!(pool.spare_count(), 0, "its life's last cell came: no spare");
        occupancy.closed(&pool);
        occupancy.closed(&pool);
        assert_eq!(pool.spare_count(), 0, "no cell may come any more");
        pool.stop();
    }
}
