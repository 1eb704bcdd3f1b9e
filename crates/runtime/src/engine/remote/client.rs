//! The host's side of an engine worker: spawning it, the handshake, and
//! one conversation per cell.
//!
//! Everything the worker sends is untrusted input. A frame past the bound,
//! a message that does not decode, an answer for a cell that is not
//! waiting, a worker that says nothing by a step's deadline, or one that
//! exits: each *fails the worker* — it is killed, and every cell on it
//! gets [`RemoteError::Crashed`] with the reason — and nothing else. A
//! reader thread per worker reads its frames (blocking, so a silent worker
//! costs that thread only) and hands each to its cell's queue; a cell's
//! step waits on its queue with the step's deadline.

use std::collections::HashMap;
use std::os::unix::net::UnixStream;
use std::process::Child;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use codemode_sandbox::frame::{FrameError, check_hello, hello, read_frame, write_frame};
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
    writer: Mutex<UnixStream>,
    /// Each live cell's queue, by id.
    cells: Mutex<HashMap<u64, Sender<FromWorker<R>>>>,
    /// Why the worker failed, once it has.
    failed: Mutex<Option<String>>,
    child: Mutex<Child>,
    next_cell: AtomicU64,
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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<R: serde::de::DeserializeOwned + Send + 'static> EngineWorker<R> {
    /// Starts `command` as a worker configured with `config`, and waits
    /// (at most `within`) for it to be confined and ready.
    pub(crate) fn spawn(command: &WorkerCommand, config: WorkerConfig, within: Duration) -> Result<Self, RemoteError> {
        let crashed = |what: &str, e: &dyn std::fmt::Display| RemoteError::Crashed(format!("{what}: {e}"));
        let SpawnedWorker { mut child, channel } =
            command.spawn().map_err(|e| crashed("the worker could not be started", &e))?;
        let handshake = || -> Result<(Ready, UnixStream), RemoteError> {
            channel.set_read_timeout(Some(within)).map_err(|e| crashed("the channel", &e))?;
            let mut reader = channel.try_clone().map_err(|e| crashed("the channel", &e))?;
            let mut writer = &channel;
            let theirs = read_frame(&mut reader, 64).map_err(|e| crashed("its hello", &e))?;
            check_hello(&theirs, VERSION).map_err(|e| crashed("its hello", &e))?;
            write_frame(&mut writer, &hello(VERSION), 64).map_err(|e| crashed("our hello", &e))?;
            let configure = encode(&ToWorker::Configure(config)).map_err(|e| crashed("the configuration", &e))?;
            write_frame(&mut writer, &configure, MAX_FRAME_BYTES).map_err(|e| crashed("the configuration", &e))?;
            let frame = read_frame(&mut reader, MAX_FRAME_BYTES).map_err(|e| crashed("its ready message", &e))?;
            let ready = match decode::<FromWorker<R>>(&frame) {
                Ok(FromWorker::Ready { syscalls_allowed, namespaces }) => (syscalls_allowed, namespaces),
                Ok(_) => return Err(RemoteError::Crashed("its first message was not `Ready`".into())),
                Err(e) => return Err(crashed("its ready message", &e)),
            };
            reader.set_read_timeout(None).map_err(|e| crashed("the channel", &e))?;
            Ok((ready, reader))
        };
        let (ready, reader) = match handshake() {
            Ok(done) => done,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        let inner = Arc::new(Inner {
            writer: Mutex::new(channel),
            cells: Mutex::new(HashMap::new()),
            failed: Mutex::new(None),
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
        // The reader holds the worker weakly: once every handle is gone,
        // dropping it kills the process, which ends the reader's read.
        let reading = Arc::downgrade(&inner);
        std::thread::Builder::new()
            .name("codemode-engine-reader".into())
            // Decoding a message recurses once per level of nesting.
            .stack_size(16 * 1024 * 1024)
            .spawn(move || read_loop(&reading, reader))
            .map_err(|e| {
                fail(&inner, format!("no reader thread: {e}"));
                crashed("no reader thread", &e)
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

    /// A new cell on this worker, on a spare engine or (`recipe`) one
    /// made for it.
    pub(crate) fn open(&self, recipe: Option<CellRecipe>) -> Result<RemoteCell<R>, RemoteError> {
        if let Some(why) = self.failure() {
            return Err(RemoteError::Crashed(why));
        }
        let id = self.inner.next_cell.fetch_add(1, Ordering::Relaxed);
        let (to_cell, inbox) = mpsc::channel();
        lock(&self.inner.cells).insert(id, to_cell);
        Ok(RemoteCell { id, inbox, worker: self.clone(), recipe: Mutex::new(recipe) })
    }

    /// Ends the worker: it is killed and reaped, and its cells fail.
    pub(crate) fn stop(&self, why: &str) {
        fail(&self.inner, why.to_owned());
    }

    /// Ends the worker for breaking the protocol (`why`); returns the
    /// reason that stands (the first).
    pub(crate) fn fail_for(&self, why: String) -> String {
        fail(&self.inner, why)
    }

    fn send(&self, message: &ToWorker) -> Result<(), RemoteError> {
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
        let written = write_frame(&mut *lock(&self.inner.writer), &payload, MAX_FRAME_BYTES);
        match written {
            Ok(()) => Ok(()),
            // Past the bound: this message cannot be sent, the worker is fine.
            Err(e @ FrameError::Oversized { .. }) => Err(RemoteError::Refused(e.to_string())),
            Err(e) => Err(RemoteError::Crashed(fail(&self.inner, format!("writing to it failed: {e}")))),
        }
    }
}

/// Fails the worker for `why` (the first reason stands): kills and reaps
/// it, and drops every cell's queue so each waiting step sees it. Returns
/// the reason that stands.
fn fail<R>(inner: &Inner<R>, why: String) -> String {
    let why = lock(&inner.failed).get_or_insert(why).clone();
    {
        let mut child = lock(&inner.child);
        let _ = child.kill();
        let _ = child.wait();
    }
    lock(&inner.cells).clear();
    why
}

fn read_loop<R: serde::de::DeserializeOwned>(worker: &std::sync::Weak<Inner<R>>, mut reader: UnixStream) {
    loop {
        let read = read_frame(&mut reader, MAX_FRAME_BYTES);
        let Some(inner) = worker.upgrade() else { return };
        let inner = &*inner;
        let message = match read {
            Ok(frame) => match decode::<FromWorker<R>>(&frame) {
                Ok(message) => message,
                Err(e) => {
                    fail(inner, format!("it sent {e}"));
                    return;
                }
            },
            Err(FrameError::Closed) => {
                // A worker that closed its channel is most likely dying:
                // give it a moment, so the reason names how it ended.
                let mut status = None;
                for _ in 0..20 {
                    status = lock(&inner.child).try_wait().ok().flatten();
                    if status.is_some() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                let how = status.map_or_else(|| "it closed its channel".to_owned(), |s| format!("it exited ({s})"));
                fail(inner, how);
                return;
            }
            Err(e) => {
                fail(inner, format!("its channel: {e}"));
                return;
            }
        };
        let cell = match &message {
            FromWorker::Ready { .. } => {
                fail(inner, "it said `Ready` twice".into());
                return;
            }
            FromWorker::Query { cell, .. } | FromWorker::Report { cell, .. } | FromWorker::Failed { cell, .. } => *cell,
        };
        let to_cell = lock(&inner.cells).get(&cell).cloned();
        match to_cell {
            Some(to_cell) => {
                // The cell ended meanwhile: what it was sent is moot.
                let _ = to_cell.send(message);
            }
            // A worker speaking for a cell the host never opened on it (or
            // closed) is lying about whose cell it runs.
            None if cell >= inner.next_cell.load(Ordering::Relaxed) => {
                fail(inner, format!("it spoke for cell {cell}, which the host never opened on it"));
                return;
            }
            None => {}
        }
    }
}

/// One cell's conversation with its worker.
pub(crate) struct RemoteCell<R> {
    id: u64,
    inbox: Receiver<FromWorker<R>>,
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
            let _ = worker.send(&ToWorker::Abort { cell });
        }
    }

    fn exchange(
        &self,
        message: &ToWorker,
        answer: &mut dyn FnMut(Query) -> Answer,
        by: Instant,
    ) -> Result<StepReport<R>, RemoteError> {
        self.worker.send(message)?;
        loop {
            let wait = by.saturating_duration_since(Instant::now());
            match self.inbox.recv_timeout(wait) {
                Ok(FromWorker::Report { report, .. }) => return Ok(*report),
                Ok(FromWorker::Query { query, .. }) => {
                    let answer = answer(query);
                    self.worker.send(&ToWorker::Answer { cell: self.id, answer })?;
                }
                Ok(FromWorker::Failed { message, .. }) => return Err(RemoteError::Refused(message)),
                Ok(FromWorker::Ready { .. }) => {
                    let why = "it said `Ready` twice".to_owned();
                    return Err(RemoteError::Crashed(fail(&self.worker.inner, why)));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let why = format!("it did not finish a step within its deadline (+{:?})", by.elapsed());
                    return Err(RemoteError::Crashed(fail(&self.worker.inner, why)));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let why = self.worker.failure().unwrap_or_else(|| "it went away".into());
                    return Err(RemoteError::Crashed(why));
                }
            }
        }
    }
}

impl<R> Drop for RemoteCell<R> {
    fn drop(&mut self) {
        lock(&self.worker.inner.cells).remove(&self.id);
        if lock(&self.worker.inner.failed).is_none()
            && let Ok(payload) = encode(&ToWorker::Close { cell: self.id })
        {
            // A worker that cannot be told is failing: its reader says so.
            let _ = write_frame(&mut *lock(&self.worker.inner.writer), &payload, MAX_FRAME_BYTES);
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

/// The host's answer to a worker's query, from the same host an engine in
/// process asks.
pub(crate) fn answer<H: GuestHost>(host: &H, query: Query) -> Answer {
    match query {
        Query::ToolMeta(index) => Answer::Text(host.tool_meta(index).map_err(|e| e.reason)),
        Query::McpTree => Answer::Text(host.mcp_tree().map_err(|e| e.reason)),
        Query::McpRoutes(tree) => Answer::Routes(host.mcp_routes(&tree).map(|r| r.map(|r| routes_list(&r)))),
        Query::McpSuggestion { wanted, methods } => {
            Answer::Suggestion(host.mcp_suggestion(&wanted, &methods).map_err(|e| e.reason))
        }
        Query::CompleteArguments { hub, tool, mut args } => {
            Answer::Arguments(host.complete_arguments(hub, &tool, &mut args).map(|()| args))
        }
    }
}
