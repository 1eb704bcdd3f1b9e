//! One cell's QuickJS runtime and context.
//!
//! Each cell gets its own QuickJS runtime (so its memory limit, stack limit
//! and interrupt deadline are its own) with one fresh context (GA-1.2). The
//! host drives it in *steps*: settle some host requests, then run every
//! pending job until the guest is idle again.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use codemode_protocol::OutputEntry;
use rquickjs::function::Opt;
use rquickjs::promise::PromiseState;
use rquickjs::{
    Array, CatchResultExt, CaughtError, Context, Ctx, Function, JsLifetime, Module, Object, Promise, Runtime, Value,
    WriteOptions,
};

use super::args::Args;
use super::cell_clock::{CellClock, ClockScope};
use super::control::CellControl;
use super::convert;
use super::determinism::EnvKey;
use super::heap::{CountingAllocator, HeapMeter};
use super::host::{Answering, GuestHost};
use super::link::{Bounds, GuestError, GuestLink, Outcome};
use super::local_time::{CellTimeZone, ZoneScope};
use super::settlement::{Answer, Settlement};
use crate::limits::Limits;
use crate::source::USER_FILE;

const PRELUDE: &str = include_str!("prelude.js");

/// The heap size at which a cell's first garbage collection runs.
const GC_THRESHOLD_BYTES: usize = 2 * 1024 * 1024;

/// The parts of the prelude loaded on first use, by name (`host.lazy`).
const SECTIONS: [(&str, &str); 8] = [
    ("values", include_str!("prelude/values.js")),
    ("timers", include_str!("prelude/timers.js")),
    ("store", include_str!("prelude/store.js")),
    ("text", include_str!("prelude/text.js")),
    ("console", include_str!("prelude/console.js")),
    ("catalog", include_str!("prelude/catalog.js")),
    ("mcp", include_str!("prelude/mcp.js")),
    ("nodes", include_str!("prelude/nodes.js")),
];

type Compiled = OnceLock<Result<Vec<u8>, StartError>>;

/// A prelude part compiled once per process to stripped QuickJS bytecode:
/// loading the core takes ~50 µs per cell, parsing its source ~1 ms.
fn bytecode(name: &str, source: &str, slot: &'static Compiled) -> Result<&'static [u8], StartError> {
    slot.get_or_init(|| {
        // A section may be compiled for the first time while a cell runs:
        // the engine made for it seeds itself from the clock, which must
        // not be taken from the cell's (a replay would not repeat it).
        let _outside = ClockScope::outside();
        let source = format!("export default {};", source.trim_end().trim_end_matches(';'));
        let engine = |e: rquickjs::Error| StartError::Engine(e.to_string());
        let runtime = Runtime::new().map_err(engine)?;
        let context = Context::full(&runtime).map_err(engine)?;
        context.with(|ctx| {
            // Debug info kept: a guest-visible stack names prelude frames
            // (`codemode:prelude:LINE:COL`) instead of `<null>:0:1`.
            let options = WriteOptions { strip_source: true, strip_debug: false, ..WriteOptions::default() };
            Module::declare(ctx.clone(), format!("codemode:{name}"), source)
                .and_then(|m| m.write(options))
                .map_err(|e| StartError::Engine(format!("the guest prelude ({name}) does not compile: {e}")))
        })
    })
    .as_deref()
    .map_err(Clone::clone)
}

/// Evaluates a compiled prelude part and returns its default export.
fn load_compiled<'js>(ctx: &Ctx<'js>, name: &str, bytes: &[u8]) -> Result<Function<'js>, StartError> {
    let fail = |e: rquickjs::Error| StartError::Engine(format!("the guest prelude ({name}) failed to load: {e}"));
    #[expect(unsafe_code, reason = "loading bytecode is unsafe in general; this bytecode is our own")]
    // SAFETY: the bytes were written by `Module::write` from prelude
    // source compiled in, in this process or (`adopt_prelude`) in the
    // host that started this worker, a build with the same QuickJS, crate
    // version and prelude source; the host is the trusted side.
    let module = unsafe { Module::load(ctx.clone(), bytes) }.map_err(fail)?;
    let (module, _evaluated) = module.eval().map_err(fail)?;
    drain_jobs(ctx);
    module.get("default").map_err(fail)
}

static CORE: Compiled = OnceLock::new();

fn load_prelude<'js>(ctx: &Ctx<'js>) -> Result<Function<'js>, StartError> {
    load_compiled(ctx, "prelude", bytecode("prelude", PRELUDE, &CORE)?)
}

/// Compiles the prelude's core now (once per process; a concurrent first
/// engine waits for this compile instead of starting its own).
pub(crate) fn compile_prelude() -> Result<(), StartError> {
    bytecode("prelude", PRELUDE, &CORE).map(|_| ())
}

/// The prelude core's bytecode (compiled now if it is not yet), for an
/// engine worker of this build to adopt instead of compiling it again.
pub(crate) fn prelude_bytecode() -> Result<&'static [u8], StartError> {
    bytecode("prelude", PRELUDE, &CORE)
}

/// What names this build's prelude bytecode: the QuickJS version that
/// writes and reads it, this crate's version, and the prelude's source.
/// Bytecode is read only by the build that wrote it; a worker of another
/// build compiles its own.
pub(crate) fn prelude_build() -> String {
    use sha2::{Digest, Sha256};
    #[expect(unsafe_code, reason = "JS_GetVersion is a C call")]
    // SAFETY: it returns a pointer to a static NUL-terminated string.
    let quickjs = unsafe { std::ffi::CStr::from_ptr(rquickjs::qjs::JS_GetVersion()) };
    let mut hash = Sha256::new();
    for part in [quickjs.to_bytes(), env!("CARGO_PKG_VERSION").as_bytes(), PRELUDE.as_bytes()] {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part);
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Takes `bytes`, the prelude core's bytecode written by the build named
/// `build`, as this process's, when that build is this one and none is
/// compiled yet. Returns whether it was taken (if not, the prelude is
/// compiled here when first needed).
pub(crate) fn adopt_prelude(build: &str, bytes: Vec<u8>) -> bool {
    build == prelude_build() && CORE.set(Ok(bytes)).is_ok()
}

/// A lazily loaded part of the prelude, by name.
fn load_section<'js>(ctx: &Ctx<'js>, name: &str) -> Result<Function<'js>, StartError> {
    static COMPILED: [Compiled; SECTIONS.len()] = [const { OnceLock::new() }; SECTIONS.len()];
    let Some(i) = SECTIONS.iter().position(|(n, _)| *n == name) else {
        return Err(StartError::Engine(format!("no prelude section {name:?}")));
    };
    load_compiled(ctx, name, bytecode(name, SECTIONS[i].1, &COMPILED[i])?)
}

/// What an `emit` writes: the wire numbers the prelude reads from
/// `host.output` (name → number), written only here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OutputKind {
    /// `text(value)`: a string.
    Text,
    /// `json(value)`: the projected value, converted without JSON text.
    Json,
    /// A console line, within the console budget (GA-4.7).
    Console,
}

impl OutputKind {
    const ALL: [OutputKind; 3] = [OutputKind::Text, OutputKind::Json, OutputKind::Console];

    fn name(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Json => "json",
            Self::Console => "console",
        }
    }

    fn from_wire(n: u32) -> Option<Self> {
        Self::ALL.get(n as usize).copied()
    }
}

/// A `{name: number}` object the prelude reads wire numbers from (only
/// the prelude sees it: the host object is never reachable by guests).
fn wire_names<'js>(ctx: &Ctx<'js>, names: impl Iterator<Item = &'static str>) -> rquickjs::Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;
    for (i, name) in names.enumerate() {
        object.set(name, i as u32)?;
    }
    Ok(object)
}

/// What the prelude does that a journal depends on, by the build that
/// started the run: a run replays with the behaviour it ran with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct PreludeGeneration(pub u32);

impl PreludeGeneration {
    /// Tool globals are plain functions.
    pub(crate) const PLAIN_GLOBALS: Self = Self(0);
    /// Tool globals are their catalog handles, made (their metadata read,
    /// and journaled) the first time a cell touches them.
    pub(crate) const HANDLE_GLOBALS: Self = Self(1);
    /// What this build starts runs with.
    pub(crate) const CURRENT: Self = Self::HANDLE_GLOBALS;

    fn global_handles(self) -> bool {
        self > Self::PLAIN_GLOBALS
    }
}

/// A cell that does not compile: the message and where. [`Vm::start`]
/// gives the engine's position in the wrapped source; the cell's
/// [`Engine`](super::Engine) maps it to the cell as written.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct SyntaxFailure {
    pub message: String,
    /// Line and column.
    pub at: Option<(u32, u32)>,
    /// The cell was read as TypeScript (stripped, or refused by the
    /// stripper).
    pub typescript: bool,
}

impl std::fmt::Display for SyntaxFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SyntaxError")?;
        if let Some((line, col)) = self.at {
            write!(f, " at {USER_FILE}:{line}:{col}")?;
        }
        let (language, message) = if self.typescript {
            ("TypeScript", self.message.trim_end_matches('.'))
        } else {
            ("JavaScript", self.message.as_str())
        };
        write!(f, ": {message}. No tools were dispatched; correct the {language} source and submit it again.")
    }
}

/// Why a cell could not start.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) enum StartError {
    /// The cell's source does not compile; `message` names the location.
    Syntax(SyntaxFailure),
    /// The engine failed (out of memory while installing the prelude, …).
    Engine(String),
}

/// The prelude's functions the host drives a cell with, kept in the
/// runtime's user data so that no guest-reachable global holds them.
struct Hooks<'js> {
    /// Settles a request that is not a promise (a timer's callback).
    settle: Function<'js>,
    /// `rejectWith(reject, fault)`: rejects with the guest error `fault` names.
    reject_with: Function<'js>,
    /// `finish(ok, value)`: projects the cell's outcome and reports it.
    finish: Function<'js>,
    /// The cell's own promise until it settles. Its state is read from
    /// the engine after the guest ran ([`report_if_settled`]), never
    /// through `then`: a guest that replaced or deleted
    /// `Promise.prototype.then`, or watches `constructor` lookups, sees
    /// no call or lookup of the runtime's.
    cell: RefCell<Option<Promise<'js>>>,
    /// The resolving functions of every request promise not yet settled, by
    /// request id: the host settles a promise directly, with no JS-side
    /// table or settle frame in between.
    promises: RefCell<HashMap<u64, (Function<'js>, Function<'js>)>>,
    /// `callSite()`: the guest's stack where a nested call was made.
    call_site: Function<'js>,
    /// Where each nested call not yet settled was made: a rejected one's
    /// error carries its user frames as `.location`.
    sites: RefCell<HashMap<u64, Site>>,
}

/// Where a nested call was made.
enum Site {
    /// The guest's stack as the engine wrote it: its user frames are read
    /// only if the call is rejected (most calls succeed).
    Stack(String),
    /// A stack too long to keep, read when the call was made.
    Location(String),
}

/// The longest `.location` a tool error carries, in bytes.
const MAX_LOCATION_BYTES: usize = 8192;
/// The longest stack kept unread; a longer one is read at once. No more
/// than a location, so each call not yet settled keeps at most what it
/// kept when every stack was read at once (QuickJS writes at most 64
/// frames, well under it; a guest's `Error.prepareStackTrace` may write
/// more).
const MAX_SITE_STACK_BYTES: usize = MAX_LOCATION_BYTES;

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
pub(crate) struct Vm<H: GuestHost> {
    // Field order matters: the context is dropped before its runtime.
    context: Context,
    runtime: Runtime,
    link: Arc<Mutex<GuestLink<H::Request>>>,
    control: Arc<CellControl>,
    heap: HeapMeter,
    /// The zone local time is in while guest code runs.
    time_zone: CellTimeZone,
    /// The clock `Date` reads while guest code runs: the host's, journaled.
    clock: CellClock,
}

pub(crate) fn lock<R>(link: &Mutex<GuestLink<R>>) -> MutexGuard<'_, GuestLink<R>> {
    // A panic while holding the lock already fails the cell; its state is
    // still consistent enough to report from.
    link.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl<H: GuestHost> Vm<H> {
    /// A fresh runtime and context with the cell's limits and the guest
    /// API `host` offers installed. No guest code has run in it.
    pub(crate) fn prepare(limits: &Limits, host: &H, prelude: PreludeGeneration) -> Result<Self, StartError> {
        let engine = |e: rquickjs::Error| StartError::Engine(e.to_string());
        let control = Arc::new(CellControl::new(limits.cpu_budget));
        let link = Arc::new(Mutex::new(GuestLink::new(Bounds {
            max_in_flight: limits.max_in_flight,
            max_queued: limits.max_queued,
            max_timers: limits.max_timers,
            max_output_bytes: limits.max_output_bytes,
        })));
        let heap = HeapMeter::default();
        let runtime = Runtime::new_with_alloc(CountingAllocator(heap.clone())).map_err(engine)?;
        runtime.set_memory_limit(limits.memory_limit_bytes);
        runtime.set_max_stack_size(limits.max_stack_bytes);
        // A fresh engine already holds ~200 KiB; QuickJS's default 256 KiB
        // threshold would collect in nearly every cell. Later thresholds
        // grow with the heap, and the memory limit still bounds it.
        runtime.set_gc_threshold(GC_THRESHOLD_BYTES);
        let interrupt = Arc::clone(&control);
        runtime.set_interrupt_handler(Some(Box::new(move || interrupt.should_interrupt())));
        let context = super::intrinsics::context(&runtime).map_err(StartError::Engine)?;
        let b = Arc::clone(&link);
        let clock: CellClock = Arc::new(move || lock(&b).determinism.now(0));
        let vm = Self { context, runtime, link, control, heap, time_zone: limits.time_zone.clone(), clock };
        vm.install(host, prelude)?;
        Ok(vm)
    }

    /// What guest code running on this thread reads from the C library
    /// through the engine: the cell's zone and clock.
    fn enter(&self) -> (ZoneScope, ClockScope) {
        (ZoneScope::enter(&self.time_zone), ClockScope::enter(&self.clock))
    }

    /// Bytes the engine has allocated now, as its memory limit counts them
    /// (to tell an out-of-memory `null` from a thrown one). Walks the
    /// whole heap: [`heap_peak`](Self::heap_peak) is the cheap figure.
    pub(crate) fn memory_used(&self) -> usize {
        usize::try_from(self.runtime.memory_usage().malloc_size).unwrap_or(0)
    }

    /// The most bytes the engine has held from the allocator, counted as
    /// it allocated (reading it costs nothing).
    pub(crate) fn heap_peak(&self) -> usize {
        self.heap.peak()
    }

    /// The cell's control: deadline and abort flag.
    pub(crate) fn control(&self) -> &Arc<CellControl> {
        &self.control
    }

    /// The cell's guest link.
    pub(crate) fn link(&self) -> &Arc<Mutex<GuestLink<H::Request>>> {
        &self.link
    }

    fn install(&self, guest_host: &H, prelude: PreludeGeneration) -> Result<(), StartError> {
        self.context.with(|ctx| {
            let engine = |e: rquickjs::Error| StartError::Engine(e.to_string());
            // Before any guest code: the host's lossy string reads use it.
            convert::capture(&ctx).map_err(engine)?;
            let host = self.host_object(&ctx, guest_host).map_err(engine)?;
            host.set("globalHandles", prelude.global_handles()).map_err(engine)?;
            let names = Array::new(ctx.clone()).map_err(engine)?;
            for i in 0..guest_host.tool_count() {
                names.set(i, guest_host.callable(i).unwrap_or_default()).map_err(engine)?;
            }
            let prelude = load_prelude(&ctx)?;
            let api: Object = prelude.call((host, names)).catch(&ctx).map_err(|e| StartError::Engine(e.to_string()))?;
            let settle: Function = api.get("settle").map_err(engine)?;
            let reject_with: Function = api.get("rejectWith").map_err(engine)?;
            let finish: Function = api.get("finish").map_err(engine)?;
            let call_site: Function = api.get("callSite").map_err(engine)?;
            let hooks = Hooks {
                settle,
                reject_with,
                finish,
                cell: RefCell::default(),
                promises: RefCell::default(),
                call_site,
                sites: RefCell::default(),
            };
            if ctx.store_userdata(hooks).is_err() {
                return Err(StartError::Engine("could not store the cell hooks".into()));
            }
            Ok(())
        })
    }

    /// Compiles the wrapped cell source and runs it until it first waits on
    /// the host. A syntax error runs nothing (and another source may be
    /// started instead).
    pub(crate) fn start(&self, wrapped: &str) -> Result<(), StartError> {
        // The engine may have been made on another thread: point QuickJS's
        // stack-overflow check at this thread's stack before compiling
        // (running the empty job queue does that).
        let _ = self.runtime.execute_pending_job();
        let _scope = self.enter();
        self.context.with(|ctx| {
            if super::intrinsics::wants_all(wrapped) {
                super::intrinsics::add_all(&ctx)
                    .catch(&ctx)
                    .map_err(|e| StartError::Engine(format!("adding the engine's intrinsics: {e}")))?;
            }
            let cell: Function = match eval(&ctx, wrapped, USER_FILE).catch(&ctx) {
                Ok(cell) => cell,
                Err(e) => return Err(StartError::Syntax(syntax_failure(&e))),
            };
            let Some(hooks) = ctx.userdata::<Hooks>() else {
                return Err(StartError::Engine("the cell hooks are missing".into()));
            };
            // The host calls the cell itself, so no prelude frame is under
            // the cell's first synchronous part. An error here means the
            // engine itself stopped (interrupt, out of memory): an async
            // function's own errors are its promise's rejection.
            if let Ok(promise) = cell.call::<_, Promise>(()).catch(&ctx) {
                *hooks.cell.borrow_mut() = Some(promise);
            }
            drop(hooks);
            drain_jobs(&ctx);
            report_if_settled(&ctx);
            Ok(())
        })
    }

    /// Delivers settled host requests and runs the guest until it is idle.
    /// An error thrown by a timer callback fails the cell.
    pub(crate) fn step(&self, settlements: Vec<Settlement>) {
        if settlements.is_empty() {
            return;
        }
        let _scope = self.enter();
        self.context.with(|ctx| {
            let Some(hooks) = ctx.userdata::<Hooks>() else {
                return;
            };
            let (settle, reject_with) = (hooks.settle.clone(), hooks.reject_with.clone());
            drop(hooks);
            for s in settlements {
                let ok = s.is_ok();
                let value = match answer_value(&ctx, s.answer) {
                    Ok(v) => v,
                    Err(e) => {
                        let _ = ctx.catch();
                        self.fail_from_host(format!("could not deliver a host reply: {e}"));
                        return;
                    }
                };
                let (promise, stack) = ctx.userdata::<Hooks>().map_or((None, None), |h| {
                    (h.promises.borrow_mut().remove(&s.id), h.sites.borrow_mut().remove(&s.id))
                });
                let delivered = match promise {
                    Some((resolve, _)) if ok => resolve.call::<_, ()>((value,)),
                    Some((_, reject)) => {
                        let site = stack.map(|site| match site {
                            Site::Stack(stack) => location(&self.link, &stack),
                            Site::Location(location) => location,
                        });
                        reject_with.call::<_, ()>((reject, value, site))
                    }
                    None => settle.call::<_, ()>((s.id as f64, ok, value)),
                };
                if let Err(err) = delivered.catch(&ctx) {
                    let mut link = lock(&self.link);
                    if link.outcome.is_none() {
                        link.outcome = Some(Outcome::Error(caught_to_guest(&ctx, &err, "in a setTimeout callback")));
                    }
                    return;
                }
                drain_jobs(&ctx);
            }
            report_if_settled(&ctx);
        });
    }

    fn fail_from_host(&self, message: String) {
        let mut link = lock(&self.link);
        if link.outcome.is_none() {
            link.outcome = Some(Outcome::Error(GuestError::Thrown(message)));
        }
    }

    /// The hooks the prelude receives (never reachable from `globalThis`):
    /// `request`, the single entry point of every host request, and the
    /// synchronous ones (metadata, output, the outcome, lazy sections).
    fn host_object<'js>(&self, ctx: &Ctx<'js>, guest_host: &H) -> rquickjs::Result<Object<'js>> {
        let host = Object::new(ctx.clone())?;
        // One copy of the host per engine, shared by its native functions.
        let guest_host = Arc::new(guest_host.clone());
        host.set("ops", wire_names(ctx, H::requests().iter().map(|form| form.name))?)?;
        host.set("output", wire_names(ctx, OutputKind::ALL.iter().map(|k| k.name()))?)?;
        let b = Arc::clone(&self.link);
        let control = Arc::clone(&self.control);
        let requests = Arc::clone(&guest_host);
        host.set(
            "request",
            Function::new(
                ctx.clone(),
                move |ctx: Ctx<'js>, op: u32, a: Opt<Value<'js>>, b2: Opt<Value<'js>>, c: Opt<Value<'js>>| {
                    request(&ctx, &b, &control, &*requests, op, [a.0, b2.0, c.0])
                },
            )?,
        )?;
        // Handle metadata, looked up synchronously: serializing or reading a
        // handle never starts a host request (GA-8.1). Journaled, so a
        // replay after a deploy sees the metadata the run saw.
        let tools = Arc::clone(&guest_host);
        let b = Arc::clone(&self.link);
        host.set(
            "meta",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, index: u32| {
                let live = || tools.tool_meta(index as usize);
                let read = lock(&b).determinism.env_read(EnvKey::Meta(index), live);
                read.map(|(meta, _)| meta).map_err(|e| rquickjs::Exception::throw_type(&ctx, &e.to_string()))
            })?,
        )?;
        // MCP: the namespace is read when a cell first touches `MCP`, so
        // it reflects the servers' tools at that moment, not at spare time.
        let b = Arc::clone(&self.link);
        host.set("markNetwork", Function::new(ctx.clone(), move || lock(&b).network = true)?)?;
        // An unknown MCP member's closest method, by the one rule the
        // declarations' messages use (`codemode_mcp::naming::suggestion`).
        let suggests = Arc::clone(&guest_host);
        host.set(
            "mcpSuggest",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, wanted: rquickjs::String<'js>, methods: Array<'js>| {
                let wanted = convert::string_lossy(&ctx, &wanted)?;
                let methods: Vec<String> = methods.iter::<String>().collect::<rquickjs::Result<_>>()?;
                suggests
                    .mcp_suggestion(&wanted, &methods)
                    .map_err(|e| rquickjs::Exception::throw_internal(&ctx, &e.to_string()))
            })?,
        )?;
        // The namespace a cell sees, journaled: a replay builds the same
        // `MCP` tree even when the servers changed, are not connected yet,
        // or were removed; calls are then routed by server name.
        let mcp = Arc::clone(&guest_host);
        let b = Arc::clone(&self.link);
        host.set(
            "mcpTree",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>| {
                let mut link = lock(&b);
                let live = || mcp.mcp_tree();
                let (tree, replayed) = link
                    .determinism
                    .env_read(EnvKey::McpTree, live)
                    .map_err(|e| rquickjs::Exception::throw_internal(&ctx, &e.to_string()))?;
                if replayed {
                    let routes = mcp.mcp_routes(&tree).map_err(|e| {
                        let message = format!("the journaled MCP namespace does not parse: {e}");
                        rquickjs::Exception::throw_internal(&ctx, &message)
                    })?;
                    link.determinism.mcp_routes = routes;
                }
                Ok::<_, rquickjs::Error>(tree)
            })?,
        )?;
        host.set(
            "lazy",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, name: String| {
                load_section(&ctx, &name).map_err(|e| {
                    let message = match e {
                        StartError::Engine(m) => m,
                        StartError::Syntax(f) => f.message,
                    };
                    rquickjs::Exception::throw_internal(&ctx, &message)
                })
            })?,
        )?;
        self.clock_and_output(ctx, &host)?;
        Ok(host)
    }

    /// The hooks that need no configuration: the clock and randomness,
    /// clearing timers, output and the outcome.
    fn clock_and_output<'js>(&self, ctx: &Ctx<'js>, host: &Object<'js>) -> rquickjs::Result<()> {
        // The clock and randomness go through the host, which records them
        // for a replay.
        let b = Arc::clone(&self.link);
        host.set("now", Function::new(ctx.clone(), move |kind: u32| lock(&b).determinism.now(u8::from(kind == 1)))?)?;
        let b = Arc::clone(&self.link);
        // `Math.random` itself: a native function shaped as the engine's.
        let random = Function::new(ctx.clone(), move || lock(&b).determinism.random())?.with_name("random")?;
        random.set_constructor(false);
        host.set("random", random)?;
        let b = Arc::clone(&self.link);
        host.set("cancel", Function::new(ctx.clone(), move |id: f64| lock(&b).cancel_timer(id as u64))?)?;
        let b = Arc::clone(&self.link);
        host.set(
            "emit",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, kind: u32, value: Value<'js>| {
                emit(&ctx, &b, kind, &value)
            })?,
        )?;
        let b = Arc::clone(&self.link);
        host.set(
            "finish",
            Function::new(ctx.clone(), move |ctx: Ctx<'js>, ok: bool, payload: Value<'js>| {
                finish(&ctx, &b, ok, &payload);
            })?,
        )?;
        Ok(())
    }
}

/// `request(op, a, b, c)`, the one entry point of every host request:
/// decodes it, admits it, and returns the promise the host settles (made
/// from the engine's own `Promise`, whatever a guest did to the global). A
/// request that is malformed or refused rejects that promise, as an
/// executor that throws would. A timer settles a callback, not a promise:
/// it returns its request id, and a refused timer throws at once.
fn request<'js, H: GuestHost>(
    ctx: &Ctx<'js>,
    link: &Mutex<GuestLink<H::Request>>,
    control: &CellControl,
    host: &H,
    op: u32,
    args: [Option<Value<'js>>; 3],
) -> rquickjs::Result<Value<'js>> {
    let Some(form) = H::requests().get(op as usize) else {
        return Err(rquickjs::Exception::throw_type(ctx, &format!("unknown host request {op}")));
    };
    let submit = |ctx: &Ctx<'js>| {
        // Not under the link's lock: decoding may run guest code (`toJSON`),
        // which may call back into the host.
        let routes = lock(link).determinism.mcp_routes.clone();
        let request = host.decode(op as usize, &Args { ctx, name: form.name, values: args }, routes.as_deref())?;
        lock(link).submit(request, form.admission).map_err(|e| e.throw(ctx))
    };
    if form.answering == Answering::Id {
        return submit(ctx).map(|id| Value::new_number(ctx.clone(), id as f64));
    }
    let (promise, resolve, reject) = ctx.promise()?;
    match submit(ctx) {
        Ok(id) => {
            let Some(hooks) = ctx.userdata::<Hooks>() else {
                return Err(rquickjs::Exception::throw_internal(ctx, "the cell hooks are missing"));
            };
            hooks.promises.borrow_mut().insert(id, (resolve, reject));
            // A tool error says where the guest made the call (`.location`).
            if form.call_site {
                let stack: String = hooks.call_site.call(()).unwrap_or_default();
                let site = if stack.len() <= MAX_SITE_STACK_BYTES {
                    Site::Stack(stack)
                } else {
                    Site::Location(location(link, &stack))
                };
                hooks.sites.borrow_mut().insert(id, site);
            }
        }
        // An interrupted cell (deadline, CPU budget, abort) must not see its
        // interruption as a catchable rejection: it propagates.
        Err(rquickjs::Error::Exception) if control.stopped().is_none() => {
            let reason = ctx.catch();
            reject.call::<_, ()>((reason,))?;
        }
        Err(e) => return Err(e),
    }
    Ok(promise.into_value())
}

/// A nested call's `.location`: the user frames of the stack where it
/// was made, at their positions in the cell as written.
fn location<R>(link: &Mutex<GuestLink<R>>, stack: &str) -> String {
    let frames = lock(link).positions.user_frames(stack).join("\n");
    codemode_protocol::budget::utf8_prefix(frames.trim(), MAX_LOCATION_BYTES).to_owned()
}

/// `emit(kind, value)`: one output entry. Returns whether console output
/// is still open (always true for `text` and `json`).
fn emit<'js, R>(ctx: &Ctx<'js>, link: &Mutex<GuestLink<R>>, kind: u32, value: &Value<'js>) -> rquickjs::Result<bool> {
    let Some(kind) = OutputKind::from_wire(kind) else {
        return Err(rquickjs::Exception::throw_type(ctx, &format!("unknown output kind {kind}")));
    };
    // text and console: strings, lone surrogates as U+FFFD; json: the
    // projected value, converted without JSON text.
    match kind {
        OutputKind::Json => {
            let value = convert::to_json(ctx, value, "the json() value").map_err(|e| e.throw(ctx))?;
            lock(link).output.push(OutputEntry::Json { value });
            Ok(true)
        }
        OutputKind::Text => {
            let text = convert::text_lossy(ctx, value)?;
            lock(link).output.push(OutputEntry::Text { text });
            Ok(true)
        }
        OutputKind::Console => {
            let text = convert::text_lossy(ctx, value)?;
            Ok(lock(link).emit_console(text))
        }
    }
}

/// `finish(ok, payload)`: the cell's outcome, recorded once.
fn finish<'js, R>(ctx: &Ctx<'js>, link: &Mutex<GuestLink<R>>, ok: bool, payload: &Value<'js>) {
    let outcome = if ok {
        // The projected final value; a value that cannot cross fails the
        // cell with why, never becomes null.
        match convert::to_json(ctx, payload, "the returned value") {
            Ok(value) => Outcome::Value(value),
            Err(e) => Outcome::Error(GuestError::Error {
                name: e.js_name().to_owned(),
                message: e.to_string(),
                stack: String::new(),
                bridge: false,
            }),
        }
    } else {
        Outcome::Error(describe_error_object(ctx, payload))
    };
    let mut link = lock(link);
    if link.outcome.is_none() {
        link.outcome = Some(outcome);
    }
}

/// An answer as the guest value its promise settles with: a value built
/// directly, stored JSON text parsed by the engine, or the fault's
/// `{name, message, code}` for the prelude's `makeError`.
fn answer_value<'js>(ctx: &Ctx<'js>, answer: Answer) -> rquickjs::Result<Value<'js>> {
    match answer {
        Answer::Value(value) => convert::from_json(ctx, &value),
        Answer::Text(text) => ctx.json_parse(text),
        Answer::Fault(fault) => convert::from_json(
            ctx,
            &serde_json::json!({
                "name": fault.name.as_str(),
                "effectStatus": fault.effect_status(),
                "message": fault.message,
                "code": fault.code,
            }),
        ),
    }
}

/// Compiles and runs `source` as a sloppy global script named `file`.
/// The source goes to the engine with its length, as `JS_Eval` takes
/// it, so a NUL in it (valid in strings, templates and regular
/// expressions) is source like any other character: rquickjs's own
/// `eval` makes a C string of it and refuses one.
#[expect(unsafe_code, reason = "JS_Eval is the engine's C API, called with the source's length")]
fn eval<'js, V: rquickjs::FromJs<'js>>(ctx: &Ctx<'js>, source: &str, file: &str) -> rquickjs::Result<V> {
    let flags = rquickjs::qjs::JS_EVAL_TYPE_GLOBAL | rquickjs::qjs::JS_EVAL_FLAG_BACKTRACE_BARRIER;
    let file = std::ffi::CString::new(file)?;
    // QuickJS reads up to the length and wants a NUL just past it.
    let mut bytes = Vec::with_capacity(source.len() + 1);
    bytes.extend_from_slice(source.as_bytes());
    bytes.push(0);
    // SAFETY: the context is alive and locked for 'js (we hold its Ctx);
    // `bytes` is `source.len()` bytes and a NUL, `file` a C string, both
    // alive through the call. The returned value is owned, and handed
    // to `Value::from_raw`, which frees it.
    let value = unsafe {
        rquickjs::qjs::JS_UpdateStackTop(rquickjs::qjs::JS_GetRuntime(ctx.as_raw().as_ptr()));
        let raw = rquickjs::qjs::JS_Eval(
            ctx.as_raw().as_ptr(),
            bytes.as_ptr().cast(),
            source.len() as _,
            file.as_ptr(),
            flags as i32,
        );
        Value::from_raw(ctx.clone(), raw)
    };
    if value.is_exception() {
        return Err(rquickjs::Error::Exception);
    }
    V::from_js(ctx, value)
}

fn drain_jobs(ctx: &Ctx<'_>) {
    while ctx.execute_pending_job() {}
}

/// Reports the cell's outcome once its promise has settled, reading the
/// promise's state and result from the engine (no guest-visible `then`).
fn report_if_settled(ctx: &Ctx<'_>) {
    let Some(hooks) = ctx.userdata::<Hooks>() else {
        return;
    };
    let settled = {
        let mut cell = hooks.cell.borrow_mut();
        match cell.as_ref().map(Promise::state) {
            Some(PromiseState::Resolved | PromiseState::Rejected) => cell.take(),
            _ => None,
        }
    };
    let finish = hooks.finish.clone();
    drop(hooks);
    let Some(promise) = settled else {
        return;
    };
    let (ok, value) = match promise.result::<Value>() {
        Some(Ok(value)) => (true, value),
        _ => (false, ctx.catch()),
    };
    // `finish` reports every outcome itself, a failed projection too; an
    // error here means the engine stopped (interrupt, out of memory).
    let _ = finish.call::<_, ()>((ok, value)).catch(ctx);
    drain_jobs(ctx);
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
        bridge: obj.get::<_, bool>("bridge").unwrap_or(false),
    }
}

fn caught_to_guest<'js>(ctx: &Ctx<'js>, err: &CaughtError<'js>, context: &str) -> GuestError {
    match err {
        CaughtError::Exception(e) => {
            let obj = e.as_object();
            let message = string_field(ctx, obj, "message").unwrap_or_default();
            let name = string_field(ctx, obj, "name").unwrap_or_else(|| "Error".into());
            let stack = string_field(ctx, obj, "stack").unwrap_or_default();
            GuestError::Error { name, message: format!("{message} ({context})"), stack, bridge: false }
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
fn syntax_failure(err: &CaughtError<'_>) -> SyntaxFailure {
    let (message, stack) = match err {
        CaughtError::Exception(e) => (e.message().unwrap_or_default(), e.stack().unwrap_or_default()),
        other => (other.to_string(), String::new()),
    };
    SyntaxFailure { message, at: crate::source::first_wrapped_location(&stack), typescript: false }
}
