//! The host's side of an engine worker: spawning it, the handshake, and
//! one conversation per cell.
//!
//! Everything the worker sends is untrusted input. A frame past the bound,
//! a message that does not decode, a message for a cell that is not
//! waiting for one, a worker that says nothing by a step's deadline, or
//! one that exits: each *fails the worker* — it is killed, and every cell
//! on it gets [`RemoteError::Crashed`] with the reason — and nothing else.
//!
//! A worker has a channel (hellos, its configuration, aborts) and a lane
//! per engine thread; each cell is placed on a lane for its life. No
//! thread reads a lane for its own sake: a cell's step that waits for the
//! worker reads the lane itself, so the message it waits for reaches it
//! with no hand-over between threads. When two cells on one lane wait at
//! once, one reads (the leader) and puts a message for the other where the
//! other finds it (at most one per waiting cell: an honest worker answers
//! each message before it sends the next). A thread per worker reads its
//! channel, where an honest worker sends nothing once ready, to learn at
//! once that it died.

use std::collections::HashMap;
use std::os::unix::net::UnixStream;
use std::process::Child;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use codemode_sandbox::frame::{FrameError, FrameReader, check_hello, hello, read_frame, write_frame};
use codemode_sandbox::{SpawnedWorker, WorkerCommand};

use super::protocol::{
    Answer, CellRecipe, Control, FromWorker, MAX_FRAME_BYTES, Query, StepReport, ToWorker, VERSION, WorkerConfig,
    decode, encode, routes_list,
};
use crate::engine::host::GuestHost;
use crate::engine::settlement::Settlement;

/// Why a worker, or a cell on it, could not go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RemoteError {
    /// The worker died, misbehaved or fell silent; every cell on it ends.
    #[error("the engine worker crashed: {0}")]
    Crashed(String),
    /// The worker refused this cell (no engine could be prepared).
    #[error("the engine worker could not run the cell: {0}")]
    Refused(String),
}

struct Inner<R> {
    /// The channel's writing side: aborts.
    control: Mutex<UnixStream>,
    lanes: Box<[Lane<R>]>,
    /// Each open cell's lane, by id.
    cells: Mutex<HashMap<u64, usize>>,
    /// Why the worker failed, once it has.
    failed: Mutex<Option<String>>,
    /// How the process had ended when the host failed it, if it had
    /// (not killed by the host).
    died: Mutex<Option<std::process::ExitStatus>>,
    child: Mutex<Child>,
    next_cell: AtomicU64,
}

/// One engine thread's lane: its cells' messages both ways.
struct Lane<R> {
    writer: Mutex<UnixStream>,
    inbox: Mutex<LaneInbox<R>>,
    /// A message was put for a waiting cell, the reading side came back,
    /// or the worker failed.
    changed: Condvar,
    /// Cells placed on it now.
    placed: AtomicUsize,
    /// The latest time a step sent on it must report by: a step sent
    /// behind one still running waits for it on the worker's engine
    /// thread, so it may report that much later.
    busy_until: Mutex<Option<Instant>>,
}

struct LaneInbox<R> {
    /// The lane's reading side; `None` while a waiting cell reads it.
    reader: Option<FrameReader<UnixStream>>,
    /// The cells waiting for a message, each with the one another cell
    /// read for it, if any.
    waiting: HashMap<u64, Option<FromWorker<R>>>,
    /// Waiting cells asleep on `changed` (none: nobody to wake).
    asleep: usize,
}

/// The prelude compiled by this build: its bytecode, and the build's name
/// ([`crate::engine::vm::prelude_build`]) a worker checks before it reads it.
pub(crate) struct PreludeBytecode {
    pub build: String,
    pub bytes: &'static [u8],
}

/// What a worker says when it is ready: its filter's allowed system
/// calls, and whether it left the host's namespaces (or why not).
type Ready = (usize, Result<(), String>);

/// A running engine worker.
pub(crate) struct EngineWorker<R> {
    inner: Arc<Inner<R>>,
}

impl<R> Clone for EngineWorker<R> {
    fn clone(&self) -> Self {
        Self { inner: Arc::clone(&self.inner) }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<R: serde::de::DeserializeOwned + Send + 'static> EngineWorker<R> {
    /// Starts `command` as a worker configured with `config` (and given
    /// `prelude`, this build's prelude bytecode, when there is one), and
    /// waits (at most `within`) for it to be confined and ready.
    /// A worker whose program started threads before its handoff (and so
    /// kept the host's namespaces) is refused unless `accept_threaded`.
    pub(crate) fn spawn(
        command: &WorkerCommand,
        mut config: WorkerConfig,
        prelude: Option<&PreludeBytecode>,
        within: Duration,
        accept_threaded: bool,
    ) -> Result<Self, RemoteError> {
        let crashed = |what: &str, e: &dyn std::fmt::Display| RemoteError::Crashed(format!("{what}: {e}"));
        config.threads = config.threads.max(1);
        // The worker waits for the prelude's frame only when told one comes.
        config.prelude_build = prelude.map(|p| p.build.clone());
        let prelude = prelude.map(|p| p.bytes);
        let SpawnedWorker { mut child, channel, lanes } = command
            .clone()
            .lanes(config.threads)
            .spawn()
            .map_err(|e| crashed("the worker could not be started", &e))?;
        let handshake = || -> Result<(Ready, UnixStream), RemoteError> {
            channel.set_read_timeout(Some(within)).map_err(|e| crashed("the channel", &e))?;
            let mut reader = channel.try_clone().map_err(|e| crashed("the channel", &e))?;
            let mut writer = &channel;
            let theirs = read_frame(&mut reader, 64).map_err(|e| crashed("its hello", &e))?;
            check_hello(&theirs, VERSION).map_err(|e| crashed("its hello", &e))?;
            write_frame(&mut writer, &hello(VERSION), 64).map_err(|e| crashed("our hello", &e))?;
            let configure = encode(&ToWorker::Configure(config)).map_err(|e| crashed("the configuration", &e))?;
            write_frame(&mut writer, &configure, MAX_FRAME_BYTES).map_err(|e| crashed("the configuration", &e))?;
            if let Some(bytes) = prelude {
                write_frame(&mut writer, bytes, MAX_FRAME_BYTES).map_err(|e| crashed("the prelude", &e))?;
            }
            let frame = read_frame(&mut reader, MAX_FRAME_BYTES).map_err(|e| crashed("its ready message", &e))?;
            let ready = match decode::<FromWorker<R>>(&frame) {
                Ok(FromWorker::Ready { namespaces: Err(why), threaded: true, .. }) if !accept_threaded => {
                    return Err(RemoteError::Refused(format!(
                        "the engine worker kept the host's namespaces because {why}: call \
                         codemode_runtime::engine_worker_if_asked() first thing in a plain `fn main()`, before \
                         any runtime starts threads (a `#[tokio::main]` does), or set \
                         EngineWorkers::accept_threaded_handoff to accept the weaker confinement"
                    )));
                }
                Ok(FromWorker::Ready { syscalls_allowed, namespaces, .. }) => (syscalls_allowed, namespaces),
                Ok(_) => return Err(RemoteError::Crashed("its first message was not `Ready`".into())),
                Err(e) => return Err(crashed("its ready message", &e)),
            };
            reader.set_read_timeout(None).map_err(|e| crashed("the channel", &e))?;
            Ok((ready, reader))
        };
        let lanes = lanes
            .into_iter()
            .map(|lane| {
                let reader = lane.try_clone()?;
                // Set once: a read wakes this often to look at its deadline.
                reader.set_read_timeout(Some(DEADLINE_TICK))?;
                let reader = Some(FrameReader::new(reader, MAX_FRAME_BYTES));
                Ok(Lane {
                    writer: Mutex::new(lane),
                    inbox: Mutex::new(LaneInbox { reader, waiting: HashMap::new(), asleep: 0 }),
                    changed: Condvar::new(),
                    placed: AtomicUsize::new(0),
                    busy_until: Mutex::new(None),
                })
            })
            .collect::<std::io::Result<Box<[_]>>>()
            .map_err(|e| crashed("a lane", &e));
        let (ready, reader, lanes) = match lanes.and_then(|lanes| handshake().map(|(r, c)| (r, c, lanes))) {
            Ok(done) => done,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        let inner = Arc::new(Inner {
            control: Mutex::new(channel),
            lanes,
            cells: Mutex::new(HashMap::new()),
            failed: Mutex::new(None),
            died: Mutex::new(None),
            child: Mutex::new(child),
            next_cell: AtomicU64::new(1),
        });
        let (syscalls, namespaces) = ready;
        tracing::debug!(
            pid = lock(&inner.child).id(),
            syscalls,
            namespaces = namespaces.err().as_deref().unwrap_or("left"),
            "engine worker confined and ready"
        );
        // The watcher holds the worker weakly: once every handle is gone,
        // dropping it kills the process, which ends the watcher's read.
        let watching = Arc::downgrade(&inner);
        std::thread::Builder::new()
            .name("codemode-engine-watch".into())
            .stack_size(64 * 1024)
            .spawn(move || watch(&watching, reader))
            .map_err(|e| {
                fail(&inner, format!("no watcher thread: {e}"));
                crashed("no watcher thread", &e)
            })?;
        Ok(Self { inner })
    }

    /// The worker's process id.
    pub(crate) fn pid(&self) -> u32 {
        lock(&self.inner.child).id()
    }

    /// Whether the worker is running and has not failed.
    pub(crate) fn running(&self) -> bool {
        self.failure().is_none() && matches!(lock(&self.inner.child).try_wait(), Ok(None))
    }

    /// Why the worker failed, if it has.
    pub(crate) fn failure(&self) -> Option<String> {
        lock(&self.inner.failed).clone()
    }

    /// Whether the worker failed because it was killed (`SIGKILL`) before
    /// the host stopped it: by an operator or the OOM killer — or by
    /// itself, which its filter allows (signals to its own process; or it
    /// closed its sockets and the host's kill ended it), so a worker that
    /// does so only costs one more worker start. The host's kills of a
    /// worker it failed for what it did are not counted.
    pub(crate) fn killed_from_outside(&self) -> bool {
        use std::os::unix::process::ExitStatusExt;
        // Set only by its first failure.
        lock(&self.inner.died).is_some_and(|status| status.signal() == Some(libc::SIGKILL))
    }

    /// A new cell on this worker, on a spare engine or (`recipe`) one
    /// made for it, placed on the lane with fewest cells.
    pub(crate) fn open(&self, recipe: Option<CellRecipe>) -> Result<RemoteCell<R>, RemoteError> {
        if let Some(why) = self.failure() {
            return Err(RemoteError::Crashed(why));
        }
        // A lane with no step running first, so a cell shares an engine
        // thread with a running one only when every lane runs one; then
        // the one with fewest cells.
        let lanes = &self.inner.lanes;
        let now = Instant::now();
        let lane = (0..lanes.len())
            .min_by_key(|&i| {
                let running = lock(&lanes[i].busy_until).is_some_and(|until| until > now);
                (running, lanes[i].placed.load(Ordering::Relaxed))
            })
            .unwrap_or(0);
        lanes[lane].placed.fetch_add(1, Ordering::Relaxed);
        let id = self.inner.next_cell.fetch_add(1, Ordering::Relaxed);
        lock(&self.inner.cells).insert(id, lane);
        Ok(RemoteCell { id, lane, worker: self.clone(), recipe: Mutex::new(recipe) })
    }

    /// Ends the worker: it is killed and reaped, and its cells fail.
    pub(crate) fn stop(&self, why: &str) {
        // One that already ended is failed for how it ended (a filter's
        // SIGSYS, a kill), whoever notices first — its pool sweeping dead
        // workers, or its watcher.
        let exited = lock(&self.inner.child).try_wait().ok().flatten().is_some();
        if exited {
            fail_ended(&self.inner);
        } else {
            fail(&self.inner, why.to_owned());
        }
    }

    /// Ends the worker for breaking the protocol (`why`); returns the
    /// reason that stands (the first).
    pub(crate) fn fail_for(&self, why: String) -> String {
        fail(&self.inner, why)
    }

    /// Sends `message` on the channel (`lane: None`) or on a lane.
    fn send(&self, lane: Option<usize>, message: &ToWorker) -> Result<(), RemoteError> {
        if let Some(why) = self.failure() {
            return Err(RemoteError::Crashed(why));
        }
        let payload = encode(message).map_err(|e| RemoteError::Refused(e.to_string()))?;
        // A value the worker would refuse to decode (a tool's result nested
        // past the bound) fails its cell here, not the worker.
        let depth = super::protocol::nesting(&payload);
        if depth > super::protocol::MAX_MESSAGE_DEPTH {
            return Err(RemoteError::Refused(format!(
                "a value nested {depth} levels deep cannot be sent to the engine process (the bound is {})",
                super::protocol::MAX_MESSAGE_DEPTH
            )));
        }
        let written = match lane {
            None => write_frame(&mut *lock(&self.inner.control), &payload, MAX_FRAME_BYTES),
            Some(lane) => write_frame(&mut *lock(&self.inner.lanes[lane].writer), &payload, MAX_FRAME_BYTES),
        };
        match written {
            Ok(()) => Ok(()),
            // Past the bound: this message cannot be sent, the worker is fine.
            Err(e @ FrameError::Oversized { .. }) => Err(RemoteError::Refused(e.to_string())),
            // Its end of the socket is closed: it is dying; say how it ended.
            Err(FrameError::Io(e))
                if matches!(e.kind(), std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset) =>
            {
                Err(RemoteError::Crashed(fail_ended(&self.inner)))
            }
            Err(e) => Err(RemoteError::Crashed(fail(&self.inner, format!("writing to it failed: {e}")))),
        }
    }
}

/// Fails the worker for `why` (the first reason stands): kills and reaps
/// it, and wakes every waiting cell to see it. Returns the reason that
/// stands. Never called with a lane's inbox locked.
fn fail<R>(inner: &Inner<R>, why: String) -> String {
    fail_as(inner, why, false)
}

/// Fails a worker whose channel or lane closed (it is ending, or ended),
/// keeping how it ended.
fn fail_ended<R>(inner: &Inner<R>) -> String {
    let why = ended(inner);
    fail_as(inner, why, true)
}

/// Fails the worker for `why`; `ended`: the worker closed its end first.
fn fail_as<R>(inner: &Inner<R>, why: String, ended: bool) -> String {
    let (why, first) = {
        let mut failed = lock(&inner.failed);
        match &*failed {
            Some(earlier) => (earlier.clone(), false),
            None => (failed.insert(why).clone(), true),
        }
    };
    if first {
        // How it ended, when it ended on its own (or by another's hand): it
        // had exited before the host failed it, or it was exiting — its
        // end of the socket closes as it exits, after its exit status is
        // fixed, which the host's kill then no longer changes. Only at
        // the first failure: a later one (its watcher seeing it end)
        // would find the host's own kill.
        let mut child = lock(&inner.child);
        let before = child.try_wait().ok().flatten();
        let _ = child.kill();
        let after = child.wait().ok();
        if let Some(status) = before.or(after.filter(|_| ended)) {
            *lock(&inner.died) = Some(status);
        }
    }
    for lane in &inner.lanes {
        let _inbox = lock(&lane.inbox);
        lane.changed.notify_all();
    }
    why
}

/// How a worker whose channel or lane closed ended: a worker that closes
/// one is most likely dying, so it is given a moment, and the reason
/// names how it ended.
fn ended<R>(inner: &Inner<R>) -> String {
    let mut status = None;
    for _ in 0..20 {
        status = lock(&inner.child).try_wait().ok().flatten();
        if status.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    status.map_or_else(|| "it closed its channel".to_owned(), |s| format!("it exited ({s})"))
}

/// Reads the worker's channel, where an honest worker sends nothing once
/// ready: learns that it died (or misbehaved) even while no cell waits.
fn watch<R>(worker: &std::sync::Weak<Inner<R>>, mut reader: UnixStream) {
    let read = read_frame(&mut reader, MAX_FRAME_BYTES);
    let Some(inner) = worker.upgrade() else { return };
    match read {
        Ok(_) => fail(&inner, "it sent on its channel after `Ready`".to_owned()),
        Err(FrameError::Closed) => fail_ended(&inner),
        Err(e) => fail(&inner, format!("its channel: {e}")),
    };
}

/// One cell's conversation with its worker.
pub(crate) struct RemoteCell<R> {
    id: u64,
    /// The lane it is placed on.
    lane: usize,
    worker: EngineWorker<R>,
    /// The engine to make for the cell instead of a spare, sent with its
    /// first start.
    recipe: Mutex<Option<CellRecipe>>,
}

impl<R: serde::de::DeserializeOwned + Send + 'static> RemoteCell<R> {
    /// The worker this cell runs on.
    pub(crate) fn worker(&self) -> &EngineWorker<R> {
        &self.worker
    }

    /// Applies `controls` and starts `source` (with `recipe`, an engine
    /// made for it); `answer` answers the worker's queries. The worker
    /// must report by `by`, or it is failed.
    pub(crate) fn start(
        &self,
        source: &str,
        controls: Vec<Control>,
        answer: &mut dyn FnMut(Query) -> Answer,
        by: Instant,
    ) -> Result<StepReport<R>, RemoteError> {
        let recipe = lock(&self.recipe).take();
        let message = ToWorker::Start { cell: self.id, source: source.to_owned(), controls, recipe };
        self.exchange(&message, answer, by)
    }

    /// Applies `controls`, delivers `settlements` and runs the guest until
    /// it is idle (see [`start`](Self::start)).
    pub(crate) fn step(
        &self,
        settlements: Vec<Settlement>,
        controls: Vec<Control>,
        answer: &mut dyn FnMut(Query) -> Answer,
        by: Instant,
    ) -> Result<StepReport<R>, RemoteError> {
        let message = ToWorker::Step { cell: self.id, settlements, controls };
        self.exchange(&message, answer, by)
    }

    /// Interrupts the cell's running step; callable from any thread, for
    /// as long as the worker lives.
    pub(crate) fn aborter(&self) -> impl Fn() + Send + Sync + 'static {
        let (worker, cell) = (self.worker.clone(), self.id);
        move || {
            // A worker that cannot be told is failing: its cells end anyway.
            let _ = worker.send(None, &ToWorker::Abort { cell });
        }
    }

    fn lane(&self) -> &Lane<R> {
        &self.worker.inner.lanes[self.lane]
    }

    fn exchange(
        &self,
        message: &ToWorker,
        answer: &mut dyn FnMut(Query) -> Answer,
        by: Instant,
    ) -> Result<StepReport<R>, RemoteError> {
        // Waiting from before the message goes: its answer may be read by
        // another cell's step as soon as it is sent.
        let _waiting = Waiting::start(self);
        // Behind a step still running on the lane, this one starts when
        // that one ends: it may report up to that much later (its guest
        // deadline is its window's, a point in time, so it is no later).
        let by = {
            let mut busy = lock(&self.lane().busy_until);
            let by = match *busy {
                Some(until) if until > Instant::now() => by.max(until + QUEUED_GRACE),
                _ => by,
            };
            *busy = Some(busy.map_or(by, |until| until.max(by)));
            by
        };
        self.worker.send(Some(self.lane), message)?;
        loop {
            match self.receive(by)? {
                FromWorker::Report { report, .. } => return Ok(*report),
                FromWorker::Query { query, .. } => {
                    let answer = answer(query);
                    let sent = self.worker.send(Some(self.lane), &ToWorker::Answer { cell: self.id, answer });
                    if let Err(RemoteError::Refused(why)) = &sent {
                        // The step waits for an answer: it gets the reason
                        // this one cannot be sent, not silence.
                        let answer = Answer::Unsendable(why.clone());
                        self.worker.send(Some(self.lane), &ToWorker::Answer { cell: self.id, answer })?;
                    } else {
                        sent?;
                    }
                }
                FromWorker::Failed { message, .. } => return Err(RemoteError::Refused(message)),
                FromWorker::Ready { .. } => {
                    let why = "it said `Ready` twice".to_owned();
                    return Err(RemoteError::Crashed(fail(&self.worker.inner, why)));
                }
            }
        }
    }

    /// The next message for this cell, read from its lane by this thread,
    /// or put there by another waiting cell's thread that read it; by `by`.
    fn receive(&self, by: Instant) -> Result<FromWorker<R>, RemoteError> {
        let (inner, lane) = (&*self.worker.inner, self.lane());
        let mut inbox = lock(&lane.inbox);
        loop {
            if let Some(message) = inbox.waiting.get_mut(&self.id).and_then(Option::take) {
                return Ok(message);
            }
            if let Some(why) = self.worker.failure() {
                return Err(RemoteError::Crashed(why));
            }
            let left = by.saturating_duration_since(Instant::now());
            if left.is_zero() {
                drop(inbox);
                let why = format!("it did not finish a step within its deadline (+{:?})", by.elapsed());
                return Err(RemoteError::Crashed(fail(inner, why)));
            }
            let Some(mut reader) = inbox.reader.take() else {
                inbox.asleep += 1;
                inbox = lane.changed.wait_timeout(inbox, left).unwrap_or_else(PoisonError::into_inner).0;
                inbox.asleep -= 1;
                continue;
            };
            drop(inbox);
            // Decoded before the lane is locked: a large report holds no
            // other waiting cell up.
            let read = read_by(&mut reader, by)
                .and_then(|frame| decode::<FromWorker<R>>(&frame).map_err(|e| Broken::Why(format!("it sent {e}"))));
            inbox = lock(&lane.inbox);
            let routed = read.and_then(|message| self.route(&mut inbox, message));
            match routed {
                Ok(mine) => {
                    inbox.reader = Some(reader);
                    // Another cell's message, or the reading side free
                    // for whoever waits next.
                    if inbox.asleep > 0 {
                        lane.changed.notify_all();
                    }
                    if let Some(message) = mine {
                        return Ok(message);
                    }
                }
                Err(Broken::Ended) => {
                    drop(inbox);
                    return Err(RemoteError::Crashed(fail_ended(inner)));
                }
                Err(Broken::Why(why)) => {
                    drop(inbox);
                    return Err(RemoteError::Crashed(fail(inner, why)));
                }
            }
        }
    }

    /// Whose `message` is (see [`route`]).
    fn route(&self, inbox: &mut LaneInbox<R>, message: FromWorker<R>) -> Result<Option<FromWorker<R>>, Broken> {
        let inner = &self.worker.inner;
        let opened = Opened {
            lane_of: &|cell| lock(&inner.cells).get(&cell).copied(),
            next: inner.next_cell.load(Ordering::Relaxed),
        };
        route(self.id, self.lane, &mut inbox.waiting, &opened, message)
    }
}

/// The cells the host opened on a worker: each open one's lane, and the
/// id the next will get (every id below it was opened once).
pub(super) struct Opened<'a> {
    pub(super) lane_of: &'a dyn Fn(u64) -> Option<usize>,
    pub(super) next: u64,
}

/// Whose `message`, read on `lane` by the waiting cell `me`, is: `me`'s
/// (returned), another waiting cell's on this lane (put in its slot in
/// `waiting`, at most one), a closed cell's (dropped), or nobody's the
/// worker may speak for (`Err`: the worker broke the protocol).
pub(super) fn route<R>(
    me: u64,
    lane: usize,
    waiting: &mut HashMap<u64, Option<FromWorker<R>>>,
    opened: &Opened<'_>,
    message: FromWorker<R>,
) -> Result<Option<FromWorker<R>>, Broken> {
    let cell = match &message {
        FromWorker::Ready { .. } => return Err(Broken::Why("it said `Ready` twice".into())),
        FromWorker::Query { cell, .. } | FromWorker::Report { cell, .. } | FromWorker::Failed { cell, .. } => *cell,
    };
    if cell == me {
        return Ok(Some(message));
    }
    if let Some(slot) = waiting.get_mut(&cell) {
        if slot.is_some() {
            return Err(Broken::Why(format!("it sent cell {cell} a second message before the host answered")));
        }
        *slot = Some(message);
        return Ok(None);
    }
    match (opened.lane_of)(cell) {
        Some(placed) if placed == lane => {
            Err(Broken::Why(format!("it spoke for cell {cell}, which was not waiting for it")))
        }
        Some(_) => Err(Broken::Why(format!("it spoke for cell {cell} on another cell's lane"))),
        None if cell >= opened.next => {
            Err(Broken::Why(format!("it spoke for cell {cell}, which the host never opened on it")))
        }
        // The cell ended meanwhile: what it was sent is moot.
        None => Ok(None),
    }
}

/// Why a lane cannot be read on.
#[derive(Debug)]
pub(super) enum Broken {
    /// It closed: the worker is ending.
    Ended,
    /// It broke the protocol, or fell silent past a deadline.
    Why(String),
}

/// How long a step queued behind another on its lane may take to report
/// once that one's time is up: its own deadline has passed by then, so it
/// is interrupted at once and only drains and reports.
const QUEUED_GRACE: Duration = Duration::from_secs(1);

/// How often a cell reading its lane looks at its deadline: the read
/// timeout, set once per lane (a step's deadline already has a second's
/// grace).
const DEADLINE_TICK: Duration = Duration::from_millis(50);

/// One frame from a lane, by the deadline `by`.
fn read_by(reader: &mut FrameReader<UnixStream>, by: Instant) -> Result<Vec<u8>, Broken> {
    loop {
        match reader.next_frame() {
            Ok(frame) => return Ok(frame),
            Err(FrameError::Closed) => return Err(Broken::Ended),
            // Reset: it closed the lane with a message of ours unread — a
            // worker that died as it was sent one.
            Err(FrameError::Io(e)) if e.kind() == std::io::ErrorKind::ConnectionReset => return Err(Broken::Ended),
            Err(FrameError::Io(e))
                if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
            {
                if Instant::now() >= by {
                    return Err(Broken::Why(format!(
                        "it did not finish a step within its deadline (+{:?})",
                        by.elapsed()
                    )));
                }
            }
            Err(e) => return Err(Broken::Why(format!("its lane: {e}"))),
        }
    }
}

/// A cell's wait for messages on its lane, from before its message is
/// sent until its exchange ends, however it ends.
struct Waiting<'a, R> {
    cell: &'a RemoteCell<R>,
}

impl<'a, R> Waiting<'a, R> {
    fn start(cell: &'a RemoteCell<R>) -> Self {
        lock(&cell.worker.inner.lanes[cell.lane].inbox).waiting.insert(cell.id, None);
        Self { cell }
    }
}

impl<R> Drop for Waiting<'_, R> {
    fn drop(&mut self) {
        let cell = self.cell;
        lock(&cell.worker.inner.lanes[cell.lane].inbox).waiting.remove(&cell.id);
    }
}

impl<R> Drop for RemoteCell<R> {
    fn drop(&mut self) {
        let inner = &self.worker.inner;
        lock(&inner.cells).remove(&self.id);
        inner.lanes[self.lane].placed.fetch_sub(1, Ordering::Relaxed);
        if lock(&inner.failed).is_none()
            && let Ok(payload) = encode(&ToWorker::Close { cell: self.id })
        {
            // A worker that cannot be told is failing: its watcher says so.
            let _ = write_frame(&mut *lock(&inner.lanes[self.lane].writer), &payload, MAX_FRAME_BYTES);
        }
    }
}

impl<R> Drop for Inner<R> {
    fn drop(&mut self) {
        let child = self.child.get_mut().unwrap_or_else(PoisonError::into_inner);
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// The most methods a worker's suggestion query may name, and the most
/// bytes of names in all: a namespace's members, with room to spare. The
/// worker chose the strings; the host checks the size before any work.
pub(super) const MAX_SUGGESTION_METHODS: usize = 16_384;
pub(super) const MAX_SUGGESTION_BYTES: usize = 1024 * 1024;

/// Why a worker's suggestion query is refused unread, if it is too large.
pub(super) fn suggestion_too_large(wanted: &str, methods: &[String]) -> Option<String> {
    let bytes = methods.iter().map(String::len).fold(wanted.len(), usize::saturating_add);
    (methods.len() > MAX_SUGGESTION_METHODS || bytes > MAX_SUGGESTION_BYTES).then(|| {
        format!(
            "an MCP name suggestion was asked among {} methods of {bytes} bytes: at most {MAX_SUGGESTION_METHODS} \
             methods and {MAX_SUGGESTION_BYTES} bytes are compared",
            methods.len()
        )
    })
}

/// The host's answer to a worker's query, from the same host an engine in
/// process asks.
pub(crate) fn answer<H: GuestHost>(host: &H, query: Query) -> Answer {
    match query {
        Query::ToolMeta(index) => Answer::Text(host.tool_meta(index).map_err(|e| e.reason)),
        Query::McpTree => Answer::Text(host.mcp_tree().map_err(|e| e.reason)),
        Query::McpRoutes(tree) => Answer::Routes(host.mcp_routes(&tree).map(|r| r.map(|r| routes_list(&r)))),
        Query::McpSuggestion { wanted, methods } => Answer::Suggestion(match suggestion_too_large(&wanted, &methods) {
            Some(refusal) => Err(refusal),
            None => host.mcp_suggestion(&wanted, &methods).map_err(|e| e.reason),
        }),
        Query::CompleteArguments { hub, tool, mut args } => {
            Answer::Arguments(host.complete_arguments(hub, &tool, &mut args).map(|()| args))
        }
    }
}
