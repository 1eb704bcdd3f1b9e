//! Shared helpers for the integration tests: fixture tools and runtimes.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use codemode_runtime::{
    CellResult, CodeMode, Exec, Limits, McpServerConfig, Reply, Tool, ToolError, ToolFuture, ToolOutput,
};
use serde_json::{Value, json};

/// Returns `{ok: true}` at once.
pub struct Noop;

impl Tool for Noop {
    fn name(&self) -> &str {
        "noop"
    }
    fn description(&self) -> &str {
        "Does nothing and returns {ok: true}."
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(async { Ok(ToolOutput::json(json!({"ok": true}))) })
    }
}

/// A native tool named at will that answers `{tool, input}` and counts its
/// calls (the deploy and golden-journal tests build tool lists of them).
#[derive(Clone)]
pub struct Named(pub &'static str, pub Arc<AtomicUsize>);

impl Named {
    /// A fresh `name` tool with its own counter.
    #[must_use]
    pub fn new(name: &'static str) -> Self {
        Self(name, Arc::default())
    }

    /// Calls so far.
    #[must_use]
    pub fn calls(&self) -> usize {
        self.1.load(Ordering::SeqCst)
    }
}

impl Tool for Named {
    fn name(&self) -> &str {
        self.0
    }
    fn description(&self) -> &str {
        "Answers with its own name and the input."
    }
    fn call(&self, input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        self.1.fetch_add(1, Ordering::SeqCst);
        let name = self.0;
        Box::pin(async move { Ok(ToolOutput::json(json!({"tool": name, "input": input}))) })
    }
}

/// Echoes its input back as `{name, input}`.
pub struct Echo;

/// The reference harness's plugin tool input: `{value?: string}`.
pub fn value_schema() -> Value {
    json!({"type": "object", "properties": {"value": {"type": "string"}}, "additionalProperties": false})
}

impl Tool for Echo {
    fn name(&self) -> &str {
        "echo_tool"
    }
    fn description(&self) -> &str {
        "Echoes its input."
    }
    fn input_schema(&self) -> Value {
        value_schema()
    }
    fn call(&self, input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(async move { Ok(ToolOutput::json(json!({"name": "echo_tool", "input": input}))) })
    }
}

/// Sleeps `{ms}` milliseconds, counting calls that started and finished.
#[derive(Default)]
pub struct SleepMs {
    /// Calls that started.
    pub started: Arc<AtomicUsize>,
    /// Calls that ran to the end (not cancelled).
    pub finished: Arc<AtomicUsize>,
}

impl Tool for SleepMs {
    fn name(&self) -> &str {
        "sleep_ms"
    }
    fn description(&self) -> &str {
        "Sleeps for {ms} milliseconds."
    }
    fn call(&self, input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        let ms = input.get("ms").and_then(Value::as_u64).unwrap_or(0);
        self.started.fetch_add(1, Ordering::SeqCst);
        let finished = Arc::clone(&self.finished);
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            finished.fetch_add(1, Ordering::SeqCst);
            Ok(ToolOutput::json(json!({"slept": ms})))
        })
    }
}

/// A plugin tool with a declared output `{ok: boolean}`; returns whatever
/// `{ok}` it is given, so tests can break its contract.
pub struct ContractTool;

impl Tool for ContractTool {
    fn name(&self) -> &str {
        "contract_tool"
    }
    fn label(&self) -> Option<&str> {
        Some("Contract tool")
    }
    fn description(&self) -> &str {
        "Returns {ok} exactly as given."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"ok": {}}})
    }
    fn output_schema(&self) -> Option<Value> {
        Some(
            json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"], "additionalProperties": false}),
        )
    }
    fn call(&self, input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(async move { Ok(ToolOutput::json(json!({"ok": input.get("ok").cloned().unwrap_or(Value::Null)}))) })
    }
}

/// Always fails.
pub struct FailTool;

impl Tool for FailTool {
    fn name(&self) -> &str {
        "fail_tool"
    }
    fn description(&self) -> &str {
        "Always fails."
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        Box::pin(async { Err(ToolError::new("fail_tool always fails")) })
    }
}

/// Panics when called: a buggy tool, for supervision tests.
pub struct PanicTool;

impl Tool for PanicTool {
    fn name(&self) -> &str {
        "panic_tool"
    }
    fn description(&self) -> &str {
        "Panics."
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        panic!("panic_tool was called")
    }
}

/// Whether this test run puts cells' engines in worker processes
/// (`CODEMODE_TEST_ISOLATION=process`): the guest suites run in both
/// modes.
#[must_use]
pub fn process_isolation() -> bool {
    std::env::var("CODEMODE_TEST_ISOLATION").is_ok_and(|mode| mode == "process")
}

/// The tests' engine worker program (`src/bin/engine_worker.rs`), built
/// beside the test binaries (`target/<profile>/`; tests run from `deps/`).
#[must_use]
pub fn engine_worker_program() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe.parent().expect("the test binary's folder");
    let profile = if deps.ends_with("deps") { deps.parent().expect("the profile folder") } else { deps };
    profile.join("engine_worker")
}

/// Engine workers running the tests' worker program.
#[must_use]
pub fn engine_workers() -> codemode_runtime::EngineWorkers {
    codemode_runtime::EngineWorkers::new(engine_worker_program(), std::iter::empty::<&str>())
}

/// A runtime builder, with cells' engines in worker processes when this
/// test run says so ([`process_isolation`]).
#[must_use]
pub fn builder() -> codemode_runtime::CodeModeBuilder {
    let builder = CodeMode::builder();
    if process_isolation() {
        return builder.isolation(codemode_runtime::Isolation::Process).engine_workers(engine_workers());
    }
    builder
}

/// A runtime with the fixture tools and these limits.
pub async fn runtime_with(limits: Limits) -> CodeMode {
    builder()
        .limits(limits)
        .tool(Noop)
        .tool(Echo)
        .tool(SleepMs::default())
        .tool(FailTool)
        .tool(PanicTool)
        .tool(ContractTool)
        .start()
        .await
        .expect("runtime starts")
}

/// A runtime with the fixture tools and default limits.
pub async fn runtime() -> CodeMode {
    runtime_with(Limits::default()).await
}

/// A fresh reply in session `s`.
pub fn reply(rt: &CodeMode) -> Reply {
    rt.session("s").reply("r")
}

/// Runs `code` in a fresh cell and returns the first result.
pub async fn exec(rt: &CodeMode, code: &str) -> CellResult {
    reply(rt).exec(Exec::code(code)).await.expect("runtime is up")
}

/// Runs `code`, waiting while it parks, and returns every result in order.
pub async fn run_to_end(rt: &CodeMode, code: &str) -> Vec<CellResult> {
    let reply = reply(rt);
    let mut results = vec![reply.exec(Exec::code(code)).await.expect("runtime is up")];
    while let Some(run_id) = results.last().and_then(CellResult::run_id).map(str::to_owned) {
        results.push(reply.wait(&run_id).await.expect("runtime is up"));
        assert!(results.len() < 50, "cell never settled");
    }
    results
}

/// The final value of a completed result (panics otherwise).
pub fn value(result: &CellResult) -> &Value {
    match result {
        CellResult::Completed { value, .. } => value,
        other => panic!("expected completed, got {}", other.to_model_json()),
    }
}

/// The phase a failed result failed in (panics otherwise).
pub fn failed_phase(result: &CellResult) -> codemode_runtime::Phase {
    match result {
        CellResult::Failed { phase, .. } => *phase,
        other => panic!("expected failed, got {}", other.to_model_json()),
    }
}

/// The error code and message of a failed result (panics otherwise).
pub fn failure(result: &CellResult) -> (codemode_runtime::ErrorCode, &str) {
    match result {
        CellResult::Failed { code, error, .. } => (*code, error.as_str()),
        other => panic!("expected failed, got {}", other.to_model_json()),
    }
}

/// A policy decision held until an approval arrives: allowed when `true`
/// is sent, denied ("not approved") otherwise or without an approver.
pub fn held_for_approval(approval: Option<tokio::sync::oneshot::Receiver<bool>>) -> codemode_runtime::DecisionFuture {
    Box::pin(async move {
        let approved = match approval {
            Some(rx) => rx.await == Ok(true),
            None => false,
        };
        if approved {
            codemode_runtime::Decision::Allow
        } else {
            codemode_runtime::Decision::Deny("not approved".into())
        }
    })
}

/// `@modelcontextprotocol/server-everything` over stdio, installed by
/// scripts/test.sh: a third-party server with tools, resources and prompts.
#[must_use]
pub fn server_everything() -> McpServerConfig {
    let script =
        concat!(env!("CARGO_MANIFEST_DIR"), "/.npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(std::path::Path::new(script).exists(), "run ./scripts/test.sh: it installs server-everything from npm");
    McpServerConfig::stdio("everything", "node", vec![script.into(), "stdio".into()])
        .call_timeout(Duration::from_secs(10))
}
