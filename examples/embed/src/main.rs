//! Embedding codemode as an agent host does, end to end:
//!
//! 1. a native tool (`refund`) made with `typed_tool`, which reads whom
//!    each call serves from its context;
//! 2. a policy that asks a person before any refund;
//! 3. run events, where the host notices the ask;
//! 4. a store on disk, so a parked run would survive a restart;
//! 5. the model's `exec`/`wait` tool calls run as they arrive
//!    (`Reply::handle`), the host deciding the approval in between;
//! 6. every cell's engine in a confined worker process of this program
//!    (`Isolation::Process`), which `main` serves first when started as one.
//!
//! It prints what the model would read at each step. Run it with
//! `cargo run -p codemode-example-embed`.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use codemode_runtime::{
    CellResult, CodeMode, Decision, DecisionFuture, Decisions, Isolation, NestedCall, Policy, RunEvent, ToolContext,
    ToolError, typed_tool,
};
use serde_json::{Map, Value, json};

/// What the model passes to `refund`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct RefundRequest {
    /// The order to refund.
    order: String,
    /// How much, in cents.
    cents: u32,
}

/// What `refund` answers.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Refunded {
    order: String,
    cents: u32,
    /// The user the refund was made for (from the call's context).
    on_behalf_of: String,
}

/// Asks a person before every refund; everything else runs.
struct AskBeforeRefunds;

impl Policy for AskBeforeRefunds {
    fn check(&self, call: NestedCall) -> DecisionFuture {
        let decision = if call.tool == "refund" {
            Decision::Ask(format!("refunds move money (asked for session {:?})", call.session.unwrap_or_default()))
        } else {
            Decision::Allow
        };
        Box::pin(std::future::ready(decision))
    }
}

fn arguments(value: Value) -> Result<Map<String, Value>> {
    match value {
        Value::Object(map) => Ok(map),
        other => bail!("tool arguments are an object, not {other}"),
    }
}

fn main() -> std::process::ExitCode {
    // Cells' engines run in confined worker processes of this very
    // program: started as one, it serves as a worker — first thing, before
    // the async runtime below starts any thread.
    if let Some(code) = codemode_runtime::engine_worker_if_asked() {
        return code;
    }
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e:?}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[tokio::main]
async fn run() -> Result<()> {
    let refund = typed_tool("refund", "Refunds an order.", |input: RefundRequest, cx: ToolContext| async move {
        // A real host would pick this user's payment credentials here.
        let user = cx.principal.ok_or_else(|| ToolError::new("refunds need a signed-in user"))?;
        Ok(Refunded { order: input.order, cents: input.cents, on_behalf_of: user })
    });
    let store = std::env::temp_dir().join(format!("codemode-example-embed-{}", std::process::id()));
    let rt = CodeMode::builder()
        .isolation(Isolation::Process)
        .tool(refund)
        .policy(AskBeforeRefunds)
        .session_store_path(&store)
        .start()
        .await
        .context("starting the runtime")?;
    let mut events = rt.run_events();

    // What the model is given: the exec tool's description.
    let tools = rt.exec_tool_description();
    println!("exec tool: {} ({} characters of description)", tools.exec.name, tools.exec.description.len());

    let reply = rt.session("conversation-1").for_principal("alice").reply("turn-1");
    let code = "const r = await refund({order: 'A-17', cents: 1250}); return r";
    let first = reply.handle("exec", &arguments(json!({"code": code, "title": "refund A-17"}))?).await;
    println!("model reads: {}", first.to_model_text());
    let CellResult::Waiting { run_id, pending_approvals, .. } = &first else { bail!("expected a wait for approval") };

    // The host hears the ask on its event stream (and would notify a person).
    loop {
        match tokio::time::timeout(Duration::from_secs(5), events.recv()).await.context("no event")? {
            Ok(RunEvent::ApprovalRequested { approval, .. }) => {
                println!("host notices: {} wants approval: {}", approval.tool, approval.reason);
                break;
            }
            Ok(_) => {}
            Err(e) => bail!("event stream: {e}"),
        }
    }

    // A person approves; the host passes the decision with the run's wait.
    let ids: Vec<String> = pending_approvals.iter().map(|a| a.id.clone()).collect();
    let done = reply.wait_with(run_id, Decisions { approve: ids, deny: vec![] }).await?;
    println!("model reads: {}", done.to_model_text());
    if !matches!(done, CellResult::Completed { .. }) {
        bail!("the run did not complete");
    }

    // The model's next call goes through the same entry point.
    let next = reply.handle("exec", &arguments(json!({"code": "return 6 * 7"}))?).await;
    println!("model reads: {}", next.to_model_text());

    rt.shutdown().await;
    let _ = std::fs::remove_dir_all(&store);
    Ok(())
}
