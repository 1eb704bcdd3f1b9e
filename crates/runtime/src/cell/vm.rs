//! One cell's QuickJS runtime and context.
//!
//! Each cell gets its own QuickJS runtime (so its memory limit, stack limit
//! and interrupt deadline are its own) with one fresh context (GA-1.2). The
//! host drives it in *steps*: settle some host requests, then run every
//! pending job until the guest is idle again.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Instant;

use codemode_bridge::OutputEntry;
use rquickjs::context::EvalOptions;
use rquickjs::function::Opt;
use rquickjs::{
    Array, CatchResultExt, CaughtError, Context, Ctx, Function, JsLifetime, Module, Object, Runtime, Value,
    WriteOptions,
};

use crate::mcp::McpHub;
use codemode_catalog::Registry;
use codemode_store::StoreLimits;

use super::bridge::{Bounds, Bridge, GuestError, Outcome, Submitted};
use super::convert;
use crate::limits::Limits;
use crate::source::USER_FILE;

const PRELUDE: &str = include_str!("prelude.js");

/// The heap size at which a cell's first garbage collection runs.
const GC_THRESHOLD_BYTES: usize = 2 * 1024 * 1024;

/// The parts of the prelude loaded on first use, by name (`host.lazy`).
const SECTIONS: [(&str, &str); 5] = [
    ("text", include_str!("prelude/text.js")),
    ("console", include_str!("prelude/console.js")),
    ("catalog", include_str!("prelude/catalog.js")),
    ("mcp", include_str!("prelude/mcp.js")),
    ("nodes", include_str!("prelude/nodes.js")),
];

type Compiled = OnceLock<Result<Vec<u8>, String>>;

/// A prelude part compiled once per process to stripped QuickJS bytecode:
/// loading the core takes ~50 µs per cell, parsing its source ~1 ms.
fn bytecode(name: &str, source: &str, slot: &'static Compiled) -> Result<&'static [u8], StartError> {
    slot.get_or_init(|| {
        let source = format!("export default {};", source.trim_end().trim_end_matches(';'));
        let runtime = Runtime::new().map_err(|e| e.to_string())?;
        let context = Context::full(&runtime).map_err(|e| e.to_string())?;
        context.with(|ctx| {
            // Debug info kept: a guest-visible stack names prelude frames
            // (`codemode:prelude:LINE:COL`) instead of `<null>:0:1`.
            let options = WriteOptions { strip_source: true, strip_debug: false, ..WriteOptions::default() };
            Module::declare(ctx.clone(), format!("codemode:{name}"), source)
                .and_then(|m| m.write(options))
                .map_err(|e| format!("the guest prelude ({name}) does not compile: {e}"))
        })
    })
    .as_deref()
    .map_err(|e| StartError::Engine(e.clone()))
}

/// Evaluates a compiled prelude part and returns its default export.
fn load_compiled<'js>(ctx: &Ctx<'js>, name: &str, bytes: &[u8]) -> Result<Function<'js>, StartError> {
    let fail = |e: rquickjs::Error| StartError::Engine(format!("the guest prelude ({name}) failed to load: {e}"));
    #[expect(unsafe_code, reason = "loading bytecode is unsafe in general; this bytecode is our own")]
    // SAFETY: the bytes were written by `Module::write` in this process,
    // by the same QuickJS build, from prelude source compiled in.
    let module = unsafe { Module::load(ctx.clone(), bytes) }.map_err(fail)?;
    let (module, _evaluated) = module.eval().map_err(fail)?;
    drain_jobs(ctx);
    module.get("default").map_err(fail)
}

fn load_prelude<'js>(ctx: &Ctx<'js>) -> Result<Function<'js>, StartError> {
    static CORE: Compiled = OnceLock::new();
    load_compiled(ctx, "prelude", bytecode("prelude", PRELUDE, &CORE)?)
}

/// A lazily loaded part of the prelude, by name.
fn load_section<'js>(ctx: &Ctx<'js>, name: &str) -> Result<Function<'js>, StartError> {
    static COMPILED: [Compiled; 5] = [const { OnceLock::new() }; 5];
    let Some(i) = SECTIONS.iter().position(|(n, _)| *n == name) else {
        return Err(StartError::Engine(format!("no prelude section {name:?}")));
    };
    load_compiled(ctx, name, bytecode(name, SECTIONS[i].1, &COMPILED[i])?)
}

/// Cross-thread control of a running cell: its deadline and abort flag,
/// read by the QuickJS interrupt handler.
#[derive(Debug)]
pub(crate) struct CellControl {
    epoch: Instant,
    deadline_ns: AtomicU64,
    aborted: AtomicBool,
    interrupted: AtomicBool,
}

impl CellControl {
    pub(crate) fn new() -> Self {
        Self {
            epoch: Instant::now(),
            deadline_ns: AtomicU64::new(u64::MAX),
            aborted: AtomicBool::new(false),
            interrupted: AtomicBool::new(false),
        }
    }

    fn nanos(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.epoch).as_nanos()).unwrap_or(u64::MAX)
    }

    /// Sets the instant after which guest code is interrupted.
    pub(crate) fn set_deadline(&self, at: Instant) {
        self.deadline_ns.store(self.nanos(at), Ordering::Relaxed);
    }

    /// No deadline: the cell is parked and runs no guest code.
    pub(crate) fn clear_deadline(&self) {
        self.deadline_ns.store(u64::MAX, Ordering::Relaxed);
    }

    /// Asks a running step to stop as soon as possible.
    pub(crate) fn abort(&self) {
        self.aborted.store(true, Ordering::Relaxed);
    }

    pub(crate) fn is_aborted(&self) -> bool {
        self.aborted.load(Ordering::Relaxed)
    }

    /// Whether the interrupt handler stopped guest code.
    pub(crate) fn was_interrupted(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
    }

    fn should_interrupt(&self) -> bool {
        let stop = self.aborted.load(Ordering::Relaxed)
            || self.nanos(Instant::now()) > self.deadline_ns.load(Ordering::Relaxed);
        if stop {
            self.interrupted.store(true, Ordering::Relaxed);
        }
        stop
    }
}

/// A host request the host has settled, ready to deliver to the guest.
#[derive(Debug)]
pub(crate) struct Settlement {
    pub id: u64,
    pub ok: bool,
    /// JSON text of the value (or of the error description when `!ok`).
    pub payload: String,
}

/// Why a cell could not start.
#[derive(Debug)]
pub(crate) enum StartError {
    /// The cell's source does not compile; `message` names the location.
    Syntax(String),
    /// The engine failed (out of memory while installing the prelude, …).
    Engine(String),
}

/// The prelude's functions the host drives a cell with, kept in the
/// runtime's user data so that no guest-reachable global holds them.
struct Hooks<'js> {
    settle: Function<'js>,
    run: Function<'js>,
}

#[expect(
    unsafe_code,
    reason = "rquickjs requires an unsafe impl to store JS values as user data; Hooks only holds 'js values"
)]
// SAFETY: `Hooks` has exactly one lifetime, 'js, and `Changed` substitutes it.
unsafe impl<'js> JsLifetime<'js> for Hooks<'js> {
    type Changed<'to> = Hooks<'to>;
}

/// One cell's engine: a runtime and a fresh context with the guest API
/// installed, not yet running any cell code.
pub(crate) struct Vm {
    // Field order matters: the context is dropped before its runtime.
    context: Context,
    runtime: Runtime,
    bridge: Arc<Mutex<Bridge>>,
    control: Arc<CellControl>,
}

fn lock(bridge: &Mutex<Bridge>) -> MutexGuard<'_, Bridge> {
    // A panic while holding the lock already fails the cell; its state is
    // still consistent enough to report from.
    bridge.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Vm {
    /// A fresh runtime and context with the cell's limits and the guest
    /// API installed. No guest code has run in it.
    pub(crate) fn prepare(limits: &Limits, tools: &Registry, mcp: &McpHub) -> Result<Self, StartError> {
        let engine = |e: rquickjs::Error| StartError::Engine(e.to_string());
        let control = Arc::new(CellControl::new());
        let bridge = Arc::new(Mutex::new(Bridge::new(Bounds {
            max_in_flight: limits.max_in_flight,
            max_queued: limits.max_queued,
            max_timers: limits.max_timers,
            max_output_bytes: limits.max_output_bytes,
        })));
        let runtime = Runtime::new().map_err(engine)?;
        runtime.set_memory_limit(limits.memory_limit_bytes);
        runtime.set_max_stack_size(limits.max_stack_bytes);
        // A fresh engine already holds ~200 KiB; QuickJS's default 256 KiB
        // threshold would collect in nearly every cell. Later thresholds
        // grow with the heap, and the memory limit still bounds it.
        runtime.set_gc_threshold(GC_THRESHOLD_BYTES);
        let interrupt = Arc::clone(&control);
        runtime.set_interrupt_handler(Some(Box::new(move || interrupt.should_interrupt())));
        let context = Context::full(&runtime).map_err(engine)?;
        let vm = Self { context, runtime, bridge, control };
        vm.install(tools, mcp)?;
        Ok(vm)
    }

    /// Bytes the engine has allocated now (to tell an out-of-memory `null`
    /// from a thrown one).
    pub(crate) fn memory_used(&self) -> usize {
        usize::try_from(self.runtime.memory_usage().malloc_size).unwrap_or(0)
    }

    /// The cell's control: deadline and abort flag.
    pub(crate) fn control(&self) -> &Arc<CellControl> {
        &self.control
    }

    /// The cell's bridge state.
    pub(crate) fn bridge(&self) -> &Arc<Mutex<Bridge>> {
        &self.bridge
    }

    fn install(&self, tools: &Registry, mcp: &McpHub) -> Result<(), StartError> {
        self.context.with(|ctx| {
            let engine = |e: rquickjs::Error| StartError::Engine(e.to_string());
            // Before any guest code: the host's lossy string reads use it.
            convert::capture(&ctx).map_err(engine)?;
            let host = self.host_object(&ctx, tools, mcp).map_err(engine)?;
            let names = Array::new(ctx.clone()).map_err(engine)?;
            for (i, entry) in tools.entries().iter().enumerate() {
                names.set(i, entry.metadata.callable_name.as_str()).map_err(engine)?;
            }
            let prelude = load_prelude(&ctx)?;
            let api: Object = prelude.call((host, names)).catch(&ctx).map_err(|e| StartError::Engine(e.to_string()))?;
            let settle: Function = api.get("settle").map_err(engine)?;
            let run: Function = api.get("run").map_err(engine)?;
            if ctx.store_userdata(Hooks { settle, run }).is_err() {
                return Err(StartError::Engine("could not store the cell hooks".into()));
            }
            Ok(())
        })
    }

    /// Compiles the wrapped cell source and runs it until it first waits on
    /// the host. A syntax error runs nothing.
    pub(crate) fn start(&self, wrapped: &str) -> Result<(), StartError> {
        // The engine may have been made on another thread: point QuickJS's
        // stack-overflow check at this thread's stack before compiling
        // (running the empty job queue does that).
        let _ = self.runtime.execute_pending_job();
        self.context.with(|ctx| {
            let cell: Function = match eval(&ctx, wrapped, USER_FILE).catch(&ctx) {
                Ok(cell) => cell,
                Err(e) => return Err(StartError::Syntax(syntax_message(&e))),
            };
            let Some(run) = ctx.userdata::<Hooks>().map(|h| h.run.clone()) else {
                return Err(StartError::Engine("the cell hooks are missing".into()));
            };
            // `run` reports every guest outcome through `finish`; an error
            // here means the engine itself stopped (interrupt, out of memory).
            // The host calls the cell itself, so the prelude's `run` is not
            // a frame under the cell's first synchronous part.
            if let Ok(promise) = cell.call::<_, Value>(()).catch(&ctx) {
                let _ = run.call::<_, ()>((promise,)).catch(&ctx);
            }
            drain_jobs(&ctx);
            Ok(())
        })
    }

    /// Delivers settled host requests and runs the guest until it is idle.
    /// An error thrown by a timer callback fails the cell.
    pub(crate) fn step(&self, settlements: Vec<Settlement>) {
        if settlements.is_empty() {
            return;
        }
        self.context.with(|ctx| {
            let Some(hooks) = ctx.userdata::<Hooks>() else {
                return;
            };
            let settle = hooks.settle.clone();
            drop(hooks);
            for s in settlements {
                let value = if s.payload == "null" {
                    Value::new_null(ctx.clone())
                } else {
                    match ctx.json_parse(s.payload) {
                        Ok(v) => v,
                        Err(e) => {
                            let _ = ctx.catch();
                            self.fail_from_host(format!("could not deliver a host reply: {e}"));
                            return;
                        }
                    }
                };
                if let Err(err) = settle.call::<_, ()>((s.id as f64, s.ok, value)).catch(&ctx) {
                    let mut bridge = lock(&self.bridge);
                    if bridge.outcome.is_none() {
                        bridge.outcome = Some(Outcome::Error(caught_to_guest(&ctx, &err, "in a setTimeout callback")));
                    }
                    return;
                }
                drain_jobs(&ctx);
            }
        });
    }

    fn fail_from_host(&self, message: String) {
        let mut bridge = lock(&self.bridge);
        if bridge.outcome.is_none() {
            bridge.outcome = Some(Outcome::Error(GuestError::Thrown(message)));
        }
    }

    fn host_object<'js>(&self, ctx: &Ctx<'js>, tools: &Registry, mcp: &McpHub) -> rquickjs::Result<Object<'js>> {
        let host = Object::new(ctx.clone())?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "call",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, index: u32, input: Opt<Value<'js>>| {
                // JSON.stringify semantics (toJSON, dropped functions), then
                // parsed back in the engine and converted: lone surrogates
                // become U+FFFD and depth is bounded, never a silent null.
                let input = match input.0 {
                    Some(v) if !v.is_undefined() => match ctx.json_stringify(v) {
                        Ok(Some(s)) => {
                            let text = s.to_string()?;
                            convert::parse_to_json(&ctx, &text, "the tool input").map_err(|e| e.throw(&ctx))?
                        }
                        Ok(None) => serde_json::Value::Null,
                        Err(_) => {
                            let _ = ctx.catch();
                            return Err(rquickjs::Exception::throw_type(
                                &ctx,
                                "tool input must be JSON-serializable (no cycles or BigInt values)",
                            ));
                        }
                    },
                    _ => serde_json::Value::Object(serde_json::Map::new()),
                };
                let id = lock(&b).submit_call(index as usize, input);
                id.map(|id| id as f64).map_err(|e| rquickjs::Exception::throw_message(&ctx, &e.0))
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "yield",
            Function::new(ctx.clone(), move |reason: Opt<Option<String>>| {
                lock(&b).submit_yield(reason.0.flatten()) as f64
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "timer",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, delay: f64| {
                // The prelude has already made `delay` a finite integer ≥ 0.
                let id = lock(&b).submit_timer(delay.clamp(0.0, 1e15) as u64);
                id.map(|id| id as f64).map_err(|e| rquickjs::Exception::throw_range(&ctx, &e.0))
            })?,
        )?;
        // Handle metadata, looked up synchronously: serializing or reading a
        // handle never starts a bridge request (GA-8.1).
        let registry = tools.clone();
        host.set(
            "meta",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, index: u32| {
                let meta = registry.get(index as usize).map(|e| serde_json::to_string(&e.metadata)).transpose();
                meta.map_err(|e| rquickjs::Exception::throw_internal(&ctx, &e.to_string()))
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "search",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, query: String, limit: Opt<Option<f64>>| {
                let limit = limit.0.flatten();
                ordinary(&ctx, &b, |id| Submitted::Search { id, query, limit })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "describe",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, index: u32| {
                ordinary(&ctx, &b, |id| Submitted::Describe { id, tool: index as usize })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "apiList",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, prefix: String| {
                ordinary(&ctx, &b, |id| Submitted::ApiList { id, prefix })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "apiRead",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, path: String| {
                ordinary(&ctx, &b, |id| Submitted::ApiRead { id, path })
            })?,
        )?;
        // store/load and results: the key and value checks that need no
        // session run here, synchronously (GA-7.2, GA-7.3).
        let b = Arc::clone(&self.bridge);
        host.set(
            "store",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, key: Value<'js>, value: Opt<Value<'js>>| {
                let key = store_key(&ctx, key)?;
                // No value deletes; a value is the prelude's projection.
                let value = match value.0 {
                    Some(v) => {
                        Some(convert::to_json(&ctx, &v, "the stored value").map_err(|e| e.throw(&ctx))?.to_string())
                    }
                    None => None,
                };
                if let Some(v) = &value
                    && let Err(e) = codemode_store::validate_value(v, &StoreLimits::default())
                {
                    return Err(rquickjs::Exception::throw_range(&ctx, &e.to_string()));
                }
                ordinary(&ctx, &b, |id| Submitted::Store { id, key, value })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "load",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, key: Value<'js>| {
                let key = store_key(&ctx, key)?;
                ordinary(&ctx, &b, |id| Submitted::Load { id, key })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "resultSave",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, value: Value<'js>| {
                let value = convert::to_json(&ctx, &value, "the saved value").map_err(|e| e.throw(&ctx))?;
                let json = value.to_string();
                ordinary(&ctx, &b, |id| Submitted::ResultSave { id, value, json })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "resultLoad",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, result_id: Value<'js>| {
                let result_id = result_id_arg(&ctx, result_id)?;
                ordinary(&ctx, &b, |id| Submitted::ResultLoad { id, result_id })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "resultDelete",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, result_id: Value<'js>| {
                let result_id = result_id_arg(&ctx, result_id)?;
                ordinary(&ctx, &b, |id| Submitted::ResultDelete { id, result_id })
            })?,
        )?;
        // MCP: the namespace is read when a cell first touches `MCP`, so
        // it reflects the servers' tools at that moment, not at spare time.
        let b = Arc::clone(&self.bridge);
        host.set("markNetwork", Function::new(ctx.clone(), move || lock(&b).network = true)?)?;
        let hub = mcp.clone();
        host.set(
            "mcpTree",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>| {
                serde_json::to_string(&hub.tree())
                    .map_err(|e| rquickjs::Exception::throw_internal(&ctx, &e.to_string()))
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "mcpCall",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, server: u32, tool: String, args: String| {
                let args = mcp_args(&ctx, &args)?;
                ordinary(&ctx, &b, |id| Submitted::McpCall { id, server: server as usize, tool, args })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "mcpOp",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, server: u32, op: String, args: String| {
                let args = mcp_args(&ctx, &args)?;
                ordinary(&ctx, &b, |id| Submitted::McpOp { id, server: server as usize, op, args })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "mcpApi",
            Function::new(
                ctx.clone(),
                move |ctx: Ctx<'js>, server: i32, method: Opt<Option<String>>, schema: Opt<bool>| {
                    let server = usize::try_from(server).ok();
                    let method = method.0.flatten();
                    let schema = schema.0.unwrap_or(false);
                    ordinary(&ctx, &b, |id| Submitted::McpApi { id, server, method, schema })
                },
            )?,
        )?;
        // nodes (GA-10): the prelude has checked the argument types.
        let b = Arc::clone(&self.bridge);
        host.set(
            "nodesList",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>| ordinary(&ctx, &b, |id| Submitted::NodesList { id }))?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "nodesGet",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, query: String| {
                ordinary(&ctx, &b, |id| Submitted::NodesGet { id, query })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "nodesInvoke",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, node: String, command: String, params: String| {
                let params =
                    convert::parse_to_json(&ctx, &params, "the nodes.invoke params").map_err(|e| e.throw(&ctx))?;
                ordinary(&ctx, &b, |id| Submitted::NodesInvoke { id, node, command, params })
            })?,
        )?;
        host.set(
            "lazy",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, name: String| {
                load_section(&ctx, &name).map_err(|e| {
                    let message = match e {
                        StartError::Engine(m) | StartError::Syntax(m) => m,
                    };
                    rquickjs::Exception::throw_internal(&ctx, &message)
                })
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set("cancel", Function::new(ctx.clone(), move |id: f64| lock(&b).cancel_timer(id as u64))?)?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "emit",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, kind: u32, value: Value<'js>| {
                // text and console: strings, lone surrogates as U+FFFD;
                // json: the projected value, converted without JSON text.
                let entry = if kind == 1 {
                    let value = convert::to_json(&ctx, &value, "the json() value").map_err(|e| e.throw(&ctx))?;
                    OutputEntry::Json { value }
                } else {
                    OutputEntry::Text { text: convert::text_lossy(&ctx, &value)? }
                };
                let mut bridge = lock(&b);
                match entry {
                    OutputEntry::Text { text } if kind == 2 => Ok::<_, rquickjs::Error>(bridge.emit_console(text)),
                    entry => {
                        bridge.output.push(entry);
                        Ok(true)
                    }
                }
            })?,
        )?;
        let b = Arc::clone(&self.bridge);
        host.set(
            "finish",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, ok: bool, payload: Value<'js>| {
                let outcome = if ok {
                    // The projected final value; a value that cannot cross
                    // fails the cell with why, never becomes null.
                    match convert::to_json(&ctx, &payload, "the returned value") {
                        Ok(value) => Outcome::Value(value),
                        Err(e) => Outcome::Error(GuestError::Error {
                            name: e.js_name().to_owned(),
                            message: e.to_string(),
                            stack: String::new(),
                        }),
                    }
                } else {
                    Outcome::Error(describe_error_object(&ctx, &payload))
                };
                let mut bridge = lock(&b);
                if bridge.outcome.is_none() {
                    bridge.outcome = Some(outcome);
                }
            })?,
        )?;
        Ok(host)
    }
}

/// A store key: a non-empty string of at most 256 UTF-16 units, else a
/// `TypeError` (GA-7.2).
fn store_key<'js>(ctx: &Ctx<'js>, key: Value<'js>) -> rquickjs::Result<String> {
    let limits = StoreLimits::default();
    let key = key.as_string().and_then(|s| s.to_string().ok());
    match key {
        Some(k) if codemode_store::validate_key(&k, &limits).is_ok() => Ok(k),
        _ => Err(rquickjs::Exception::throw_type(
            ctx,
            &codemode_store::StoreError::Key(limits.max_key_units).to_string(),
        )),
    }
}

/// MCP arguments from the prelude's JSON text: an object, else a
/// `TypeError` (never silently `{}`).
fn mcp_args<'js>(ctx: &Ctx<'js>, text: &str) -> rquickjs::Result<serde_json::Map<String, serde_json::Value>> {
    match convert::parse_to_json(ctx, text, "the MCP arguments").map_err(|e| e.throw(ctx))? {
        serde_json::Value::Object(map) => Ok(map),
        other => Err(rquickjs::Exception::throw_type(
            ctx,
            &format!(
                "MCP arguments must be an object, not {}",
                codemode_bridge::budget::utf8_prefix(&other.to_string(), 64)
            ),
        )),
    }
}

/// A results id: a non-empty string, else a `TypeError`.
fn result_id_arg<'js>(ctx: &Ctx<'js>, id: Value<'js>) -> rquickjs::Result<String> {
    match id.as_string().and_then(|s| s.to_string().ok()) {
        Some(s) if !s.trim().is_empty() => Ok(s),
        _ => Err(rquickjs::Exception::throw_type(ctx, "results reference id must be a non-empty string.")),
    }
}

/// Admits an ordinary request or throws the sticky admission error.
fn ordinary(ctx: &Ctx<'_>, bridge: &Mutex<Bridge>, request: impl FnOnce(u64) -> Submitted) -> rquickjs::Result<f64> {
    let id = lock(bridge).submit_ordinary(request);
    id.map(|id| id as f64).map_err(|e| rquickjs::Exception::throw_message(ctx, &e.0))
}

fn eval<'js, V: rquickjs::FromJs<'js>>(ctx: &Ctx<'js>, source: &str, file: &str) -> rquickjs::Result<V> {
    let mut options = EvalOptions::default();
    options.global = true;
    options.strict = false;
    options.backtrace_barrier = true;
    options.filename = Some(file.to_owned());
    ctx.eval_with_options(source, options)
}

fn drain_jobs(ctx: &Ctx<'_>) {
    while ctx.execute_pending_job() {}
}

/// A string property, lone surrogates as U+FFFD; `None` when absent or not
/// a string.
fn string_field<'js>(ctx: &Ctx<'js>, obj: &Object<'js>, key: &str) -> Option<String> {
    let value: Value = obj.get(key).ok()?;
    value.as_string().and_then(|s| convert::string_lossy(ctx, s).ok())
}

/// Reads the prelude's `{name, message, stack}` / `{thrown}` / `{bare,
/// stage}` description.
fn describe_error_object<'js>(ctx: &Ctx<'js>, payload: &Value<'js>) -> GuestError {
    let Some(obj) = payload.as_object() else {
        return GuestError::Thrown("[unknown error]".into());
    };
    if let Some(thrown) = string_field(ctx, obj, "thrown") {
        return GuestError::Thrown(thrown);
    }
    if let Some(bare) = string_field(ctx, obj, "bare") {
        let building_value = string_field(ctx, obj, "stage").is_some_and(|s| s == "value");
        return GuestError::Bare { value: bare, building_value };
    }
    GuestError::Error {
        name: string_field(ctx, obj, "name").unwrap_or_else(|| "Error".into()),
        message: string_field(ctx, obj, "message").unwrap_or_default(),
        stack: string_field(ctx, obj, "stack").unwrap_or_default(),
    }
}

fn caught_to_guest<'js>(ctx: &Ctx<'js>, err: &CaughtError<'js>, context: &str) -> GuestError {
    match err {
        CaughtError::Exception(e) => {
            let obj = e.as_object();
            let message = string_field(ctx, obj, "message").unwrap_or_default();
            let name = string_field(ctx, obj, "name").unwrap_or_else(|| "Error".into());
            let stack = string_field(ctx, obj, "stack").unwrap_or_default();
            GuestError::Error { name, message: format!("{message} ({context})"), stack }
        }
        CaughtError::Value(v) if v.is_null() || v.is_undefined() => {
            let value = if v.is_null() { "null" } else { "undefined" };
            GuestError::Bare { value: value.to_owned(), building_value: false }
        }
        CaughtError::Value(v) => GuestError::Thrown(format!("{v:?} ({context})")),
        CaughtError::Error(e) => GuestError::Thrown(format!("{e} ({context})")),
    }
}

/// `SyntaxError at user.js:LINE:COL: message…` with user-relative lines.
fn syntax_message(err: &CaughtError<'_>) -> String {
    let (message, stack) = match err {
        CaughtError::Exception(e) => (e.message().unwrap_or_default(), e.stack().unwrap_or_default()),
        other => (other.to_string(), String::new()),
    };
    let location = crate::source::first_user_location(&stack)
        .map(|(line, col)| format!(" at {USER_FILE}:{line}:{col}"))
        .unwrap_or_default();
    format!(
        "SyntaxError{location}: {message}. No tools were dispatched; correct the JavaScript source and submit it again."
    )
}
