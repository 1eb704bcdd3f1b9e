//! The engine protocol: what a host and its engine worker say to each
//! other, inside `codemode_sandbox`'s bounded frames, as JSON.
//!
//! After both hellos the host sends [`ToWorker::Configure`] once on the
//! worker's channel; the worker answers [`FromWorker::Ready`] when it has
//! confined itself. Then the channel carries only `Abort`, and each cell
//! is a conversation by its id on the lane the host placed it on (one per
//! engine thread): the host sends `Start` or
//! `Step` (with the controls to apply first), the worker may ask
//! [`Query`]s while guest code runs (each answered before the step goes
//! on), and every `Start` and `Step` ends with exactly one
//! [`FromWorker::Report`] or [`FromWorker::Failed`]. `Abort` interrupts a
//! running step at once; `Close` frees the cell's engine.
//!
//! JSON, not a binary format: it is what every value here already is
//! (tool inputs and outputs, output entries), and a malformed frame is
//! refused with a message that says where.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::EngineLimits;
use crate::engine::clock::ClockRun;
use crate::engine::control::{Costs, Stop};
use crate::engine::determinism::{EnvKey, EnvSource, McpRoute, Setup};
use crate::engine::link::{AdmissionError, Outcome};
use crate::engine::output::PendingOutput;
use crate::engine::settlement::Settlement;
use crate::engine::vm::StartError;

/// The protocol's version, in both hellos: a host and a worker of
/// different builds refuse each other.
pub(crate) const VERSION: u32 = 6;

/// The largest frame either side sends or accepts. A report carries at
/// most a window's output budget (10 MiB at most) and the requests one
/// step made; a settlement, one tool result.
pub(crate) const MAX_FRAME_BYTES: usize = 64 * 1024 * 1024;

/// How a worker is set up, once, before it confines itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct WorkerConfig {
    /// What every engine enforces.
    pub limits: EngineLimits,
    /// The tool globals' callable names, in order (the same for every
    /// cell of a runtime).
    pub tools: Vec<String>,
    /// Engine threads: cells run on them, each cell on one for its life.
    pub threads: usize,
    /// Engines kept prepared for the next cells.
    pub spares: usize,
    /// The most cells the host places on the worker at once, and in its
    /// life: a worker with room for fewer keeps fewer spares.
    pub cells_at_once: usize,
    /// See `cells_at_once`.
    pub cells_in_life: u64,
    /// The most address space the worker may map, in bytes.
    pub address_space: Option<u64>,
    /// The build that wrote the prelude bytecode sent in the next frame
    /// (`None`: no frame follows; the worker compiles the prelude).
    pub prelude_build: Option<String>,
}

/// What the host says to a worker.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum ToWorker {
    /// The first message: how to set up.
    Configure(WorkerConfig),
    /// Compiles and starts `source` in cell `cell`'s engine (taking one on
    /// the first start; a source that does not compile runs nothing, and
    /// another may be started instead).
    Start { cell: u64, source: String, controls: Vec<Control>, recipe: Option<CellRecipe> },
    /// Applies `controls`, delivers `settlements` and runs the guest until
    /// it is idle.
    Step { cell: u64, settlements: Vec<Settlement>, controls: Vec<Control> },
    /// The answer to the cell's pending query.
    Answer { cell: u64, answer: Answer },
    /// Interrupts the cell's guest code now, and every later step.
    Abort { cell: u64 },
    /// The cell ended: its engine is freed.
    Close { cell: u64 },
}

/// An engine made for one cell instead of a spare: a resumed run's own
/// tool globals, or the prelude behaviour of the build that started it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CellRecipe {
    /// The tool globals' callable names, in order.
    pub tools: Vec<String>,
    /// The prelude generation (`PreludeGeneration`).
    pub prelude: u32,
}

/// What the host's side of the cell did to the engine since the last
/// step: applied in order, before the next step runs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Control {
    /// The clock, `Math.random` and configuration reads' set-up.
    SetUp(Setup),
    /// Guest code is interrupted at this point of the monotonic clock
    /// both sides read (a window opened): a step that waited on its
    /// engine thread behind another cell's starts no later deadline than
    /// its window's. `None`: no deadline (the window closed).
    DeadlineAt(Option<u64>),
    /// The run replays its journal: its CPU is not budgeted.
    PauseCpuBudget,
    /// The replay is over: the run goes on with these costs.
    ResumeCosts(Costs),
    /// These timers fired: their slots are free.
    TimersFired(Vec<u64>),
    /// This many ordinary requests settled: their slots are free.
    ReleaseSlots(usize),
    /// The replay diverged, for this reason.
    Diverge(String),
    /// The journaled steps are replayed.
    EndReplay,
    /// Measure the engine's heap exactly (as its memory limit counts it)
    /// after this step: the report's `memory`.
    NoteHeap,
    /// Where the compiled source's positions are in the cell as written
    /// (a TypeScript cell, stripped): tool errors' call sites use them.
    Positions(crate::source::Positions),
}

/// A synchronous read of the host's configuration, asked while guest code
/// runs.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(crate) enum Query {
    /// A tool handle's metadata, as JSON text.
    ToolMeta(usize),
    /// The MCP namespace, as JSON text.
    McpTree,
    /// Where a replayed namespace's servers are in the host.
    McpRoutes(String),
    /// An unknown MCP member's closest method.
    McpSuggestion { wanted: String, methods: Vec<String> },
    /// An MCP call's arguments completed from its tool's schema.
    CompleteArguments { hub: usize, tool: String, args: Map<String, Value> },
}

/// The host's answer to a [`Query`].
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(crate) enum Answer {
    /// Metadata or the namespace, or why it could not be read.
    Text(Result<String, String>),
    /// The routes (`None`: where the namespace says), or why not.
    Routes(Result<Option<Vec<(usize, McpRoute)>>, String>),
    /// The closest method, if any, or why the host could not say.
    Suggestion(Result<Option<String>, String>),
    /// The completed arguments, or which are missing.
    Arguments(Result<Map<String, Value>, String>),
    /// The answer could not be sent (past the frame or nesting bound):
    /// why.
    Unsendable(String),
}

/// What a worker says to its host.
#[derive(Debug, Serialize, Deserialize)]
#[serde(bound(deserialize = "R: serde::de::DeserializeOwned"))]
pub(crate) enum FromWorker<R> {
    /// Confined and ready for cells.
    Ready {
        /// System calls its filter allows.
        syscalls_allowed: usize,
        /// Whether it left the host's namespaces, or why not.
        namespaces: Result<(), String>,
        /// It kept them because its program had started threads before
        /// the handoff (its `main`'s doing, not the kernel's).
        threaded: bool,
    },
    /// Cell `cell`'s step asks the host.
    Query { cell: u64, query: Query },
    /// What cell `cell`'s start or step produced.
    Report { cell: u64, report: Box<StepReport<R>> },
    /// Cell `cell` could not run (no engine could be prepared, or a
    /// message named a cell this worker does not have).
    Failed { cell: u64, message: String },
}

/// What one start or step of a cell produced, taken from its engine.
#[derive(Debug, Serialize, Deserialize)]
#[serde(bound(deserialize = "R: serde::de::DeserializeOwned"))]
pub(crate) struct StepReport<R> {
    /// For a start: whether the source compiled and started.
    pub started: Option<Result<(), StartError>>,
    /// Requests made, with their ids, in order.
    pub made: Vec<(u64, R)>,
    /// Timers cleared.
    pub cleared: Vec<u64>,
    /// Output emitted during the step.
    pub output: PendingOutput,
    /// The console hit its budget during the step.
    pub console_marker: bool,
    /// How the top-level promise settled, if it did during the step.
    pub outcome: Option<Outcome>,
    /// The admission bound the guest exceeded (sticky).
    pub admission: Option<AdmissionError>,
    /// The guest read network-derived metadata synchronously.
    pub network: bool,
    /// Clock reads made during the step, as runs continuing the last
    /// report's.
    pub clock: Vec<ClockRun>,
    /// Configuration reads made during the step: which, and where each
    /// was answered from (the host has the values: it gave them).
    pub env: Vec<(EnvKey, EnvSource)>,
    /// More reads than a journal keeps were made: none are kept.
    pub overflow: bool,
    /// Why the replay diverged, if it did.
    pub diverged: Option<String>,
    /// Why guest code was interrupted, if it was.
    pub interruption: Option<Stop>,
    /// What the guest has cost so far.
    pub costs: Costs,
    /// Bytes the engine holds now, as its memory limit counts them, when
    /// measured (asked for, or the cell failed); 0 otherwise.
    pub memory: usize,
    /// In the first report of a cell's engine: whether it was a spare
    /// (`false`: prepared while the cell waited). Counted for operators
    /// and benchmarks only; nothing the host decides depends on it.
    pub took_spare: Option<bool>,
}

/// The deepest nesting of arrays and objects a message may have: a value's
/// own bound (`convert::MAX_DEPTH`, 512) and room for the message around
/// it. Checked before decoding, so no message can exhaust the decoder's
/// stack.
pub(crate) const MAX_MESSAGE_DEPTH: usize = 1024;

/// Why a message could not be read.
#[derive(Debug, thiserror::Error)]
#[error("a malformed engine message: {0}")]
pub(crate) struct Malformed(String);

/// `message` as a frame's payload. Fails only for a value JSON cannot
/// hold (a non-finite number), which the caller reports as a failed cell.
pub(crate) fn encode<T: Serialize>(message: &T) -> Result<Vec<u8>, Malformed> {
    serde_json::to_vec(message).map_err(|e| Malformed(e.to_string()))
}

/// A frame's payload as a message.
pub(crate) fn decode<T: serde::de::DeserializeOwned>(payload: &[u8]) -> Result<T, Malformed> {
    let depth = nesting(payload);
    if depth > MAX_MESSAGE_DEPTH {
        return Err(Malformed(format!("nested {depth} levels deep, past the bound of {MAX_MESSAGE_DEPTH}")));
    }
    let mut decoder = serde_json::Deserializer::from_slice(payload);
    // Bounded above instead: serde_json's own limit (128) is below what a
    // guest value may have.
    decoder.disable_recursion_limit();
    let message = T::deserialize(&mut decoder).map_err(|e| Malformed(e.to_string()))?;
    decoder.end().map_err(|e| Malformed(e.to_string()))?;
    Ok(message)
}

/// How deep arrays and objects nest in the JSON text `json` (outside
/// strings). A scan by hand: what it needs is one counter, before any
/// parser recurses.
pub(crate) fn nesting(json: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &byte in json {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The routes as a list, for the wire.
pub(crate) fn routes_list(routes: &crate::engine::host::McpRoutes) -> Vec<(usize, McpRoute)> {
    let mut list: Vec<(usize, McpRoute)> = routes.iter().map(|(k, v)| (*k, v.clone())).collect();
    list.sort_by_key(|(k, _)| *k);
    list
}
