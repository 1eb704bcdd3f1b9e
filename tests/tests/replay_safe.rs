//! Restart-safe cells only do what a replay may repeat: tools declare
//! themselves replay-safe (`Tool::replay_safe`), and anything else — a tool
//! that does not, an MCP tool, `results.save` — fails the cell with
//! `invalid_input` naming it. GA-7.8 has restart-safe cells refuse the
//! session helpers; this extends the same rule to effects. Also:
//! `catalog.all()` is sorted by name (GA-8.8).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use codemode_runtime::{CellResult, CodeMode, ErrorCode, Exec, McpServerConfig, Tool, ToolFuture, ToolOutput};
use codemode_tests::{Echo, failed_phase, failure, value};
use serde_json::{Value, json};

/// A read-only lookup that declares itself replay-safe and counts its calls.
#[derive(Default)]
struct Lookup(Arc<AtomicUsize>);

impl Tool for Lookup {
    fn name(&self) -> &str {
        "lookup"
    }
    fn description(&self) -> &str {
        "Reads a value; safe to repeat."
    }
    fn replay_safe(&self) -> bool {
        true
    }
    fn call(&self, input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move { Ok(ToolOutput::json(json!({"found": input}))) })
    }
}

/// A tool with an effect (it does not declare replay safety) that counts
/// its calls.
#[derive(Default)]
struct Send(Arc<AtomicUsize>);

impl Tool for Send {
    fn name(&self) -> &str {
        "send_mail"
    }
    fn description(&self) -> &str {
        "Sends a mail; not safe to repeat."
    }
    fn call(&self, _input: Value, _context: codemode_runtime::ToolContext) -> ToolFuture<'_> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { Ok(ToolOutput::json(json!({"sent": true}))) })
    }
}

struct Fixture {
    rt: CodeMode,
    lookups: Arc<AtomicUsize>,
    sends: Arc<AtomicUsize>,
}

async fn fixture() -> Fixture {
    let (lookup, send) = (Lookup::default(), Send::default());
    let (lookups, sends) = (Arc::clone(&lookup.0), Arc::clone(&send.0));
    let rt = codemode_tests::builder().tool(send).tool(lookup).tool(Echo).start().await.unwrap();
    Fixture { rt, lookups, sends }
}

async fn run(rt: &CodeMode, code: &str, restart_safe: bool) -> CellResult {
    rt.session("s").reply("r").exec(Exec::code(code).restart_safe(restart_safe)).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_safe_cell_may_call_a_tool_that_declares_itself_replay_safe_ga_7_8() {
    let f = fixture().await;
    let r = run(&f.rt, "return await lookup({key: 'a'})", true).await;
    assert_eq!(value(&r), &json!({"found": {"key": "a"}}));
    assert_eq!(f.lookups.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_safe_cell_calling_a_tool_that_is_not_replay_safe_fails_with_invalid_input_naming_it_ga_7_8() {
    let f = fixture().await;
    // Catching the rejection does not help: the cell fails all the same.
    let r = run(&f.rt, "try { await send_mail({}) } catch (e) { return ['caught', e.code] }", true).await;
    let (code, message) = failure(&r);
    assert_eq!(code, ErrorCode::InvalidInput, "{message}");
    assert!(message.starts_with("send_mail is not replay-safe, so a restartSafe cell cannot use it"), "{message}");
    assert_eq!(failed_phase(&r), codemode_runtime::Phase::Input, "as the reference (GA-11.2)");
    assert_eq!(f.sends.load(Ordering::SeqCst), 0, "the tool never ran");
    // A replay-safe call before it does not change that.
    let r = run(&f.rt, "await lookup({}); await echo_tool({value: 'x'}); return 1", true).await;
    assert!(failure(&r).1.starts_with("echo_tool is not replay-safe"), "{}", failure(&r).1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ordinary_cell_calls_tools_that_are_not_replay_safe_ga_7_8() {
    let f = fixture().await;
    let r = run(&f.rt, "return await send_mail({})", false).await;
    assert_eq!(value(&r), &json!({"sent": true}));
    assert_eq!(f.sends.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_save_in_a_restart_safe_cell_fails_the_cell_with_invalid_input_ga_6_5_ga_7_8() {
    let f = fixture().await;
    let r = run(&f.rt, "try { await results.save([1, 2]) } catch (e) { return 'caught' }", true).await;
    let (code, message) = failure(&r);
    assert_eq!(code, ErrorCode::InvalidInput);
    assert!(message.starts_with("results.save is not replay-safe"), "{message}");
    // Outside restartSafe it works.
    let r = run(&f.rt, "return (await results.save([1, 2])).count", false).await;
    assert_eq!(value(&r), &json!(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_safe_cell_calling_an_unannotated_mcp_tool_fails_because_it_is_not_replay_safe_ga_9_4_ga_7_8() {
    let server = McpServerConfig::stdio("accounting", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
        .call_timeout(Duration::from_secs(5));
    let rt = codemode_tests::builder().mcp_server(server).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the fixture server connects");
    let r = run(&rt, "return await MCP.accounting.echo({a: 1})", true).await;
    let (code, message) = failure(&r);
    assert_eq!(code, ErrorCode::InvalidInput);
    assert!(message.starts_with("MCP tool `echo` is not replay-safe"), "{message}");
    let r = run(&rt, "return (await MCP.accounting.echo({a: 1})).content[0].text", false).await;
    assert_eq!(value(&r), &json!("echo"), "outside restartSafe the call runs");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_tool_is_replay_safe_by_its_read_only_annotation_or_by_configuration_ga_9_4_ga_7_8() {
    let fixture = || {
        McpServerConfig::stdio("accounting", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
            .call_timeout(Duration::from_secs(5))
    };
    // By annotation: `picture` says readOnlyHint, `echo` says nothing.
    let rt = codemode_tests::builder().mcp_server(fixture()).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the fixture server connects");
    let r = run(&rt, "return (await MCP.accounting.picture({})).content[0].type", true).await;
    assert_eq!(value(&r), &json!("image"), "{r:?}");
    let r = run(&rt, "return await MCP.accounting.echo({a: 1})", true).await;
    assert_eq!(failure(&r).0, ErrorCode::InvalidInput);
    rt.shutdown().await;
    // By configuration: one tool by its raw name, then the whole server.
    let rt = codemode_tests::builder().mcp_server(fixture().replay_safe_tool("echo")).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await);
    let r = run(&rt, "return (await MCP.accounting.echo({a: 1})).content[0].text", true).await;
    assert_eq!(value(&r), &json!("echo"), "{r:?}");
    let r = run(&rt, "return await MCP.accounting.fail({})", true).await;
    assert!(failure(&r).1.starts_with("MCP tool `fail` is not replay-safe"), "{r:?}");
    rt.shutdown().await;
    let rt = codemode_tests::builder().mcp_server(fixture().replay_safe(false)).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await);
    let r = run(&rt, "return await MCP.accounting.picture({})", true).await;
    assert!(failure(&r).1.starts_with("MCP tool `picture` is not replay-safe"), "configuration overrides: {r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catalog_all_is_sorted_by_callable_name_whatever_the_registration_order_ga_8_8() {
    let f = fixture().await;
    // Registered as send_mail, lookup, echo_tool; a guest that replaced
    // Array.prototype.sort first does not change the order.
    let r = run(&f.rt, "Array.prototype.sort = () => []; return catalog.all().map(h => h.callableName)", false).await;
    assert_eq!(value(&r), &json!(["echo_tool", "lookup", "send_mail"]));
}
