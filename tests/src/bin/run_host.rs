//! A process that holds durable runs, for tests that `kill -9` it: the
//! runtime on a shared store with one MCP server over streamable HTTP.
//!
//! `run_host STORE MCP_URL exec CODE` runs `CODE` in session `s` and prints
//! its first result (model JSON) on one line, then stays up, holding the
//! run and its calls, until killed. `run_host STORE MCP_URL wait RUN_ID`
//! waits on the run until it no longer waits, prints the result, and
//! exits. `run_host STORE MCP_URL approve RUN_ID APPROVAL_ID` waits on the
//! run with that approval approved, then as `wait`. `STORE` is `sled:DIR`
//! or `postgres:URL`.

use std::io::Write;
use std::time::Duration;

use codemode_runtime::{
    CellResult, CodeMode, Decisions, ErrorCode, Exec, Limits, McpServerConfig, RunsConfig, StoreBackend,
};

fn usage() -> ! {
    eprintln!("usage: run_host sled:DIR|postgres:URL MCP_URL exec CODE | wait RUN_ID | approve RUN_ID APPROVAL_ID");
    std::process::exit(2)
}

fn backend(store: &str) -> StoreBackend {
    if let Some(dir) = store.strip_prefix("sled:") {
        return StoreBackend::Sled { path: Some(dir.into()) };
    }
    match store.strip_prefix("postgres:") {
        Some(url) => StoreBackend::Postgres { url: url.to_owned(), pool_size: 4 },
        None => usage(),
    }
}

fn print(result: &CellResult) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", result.to_model_json());
    let _ = out.flush();
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (store, mcp, mode, what, approval) = match &args[..] {
        [store, mcp, mode, what] => (store, mcp, mode, what, None),
        [store, mcp, mode, what, approval] if mode == "approve" => (store, mcp, mode, what, Some(approval.clone())),
        _ => usage(),
    };
    let rt = CodeMode::builder()
        .mcp_server(McpServerConfig::http("lab", mcp).call_timeout(Duration::from_secs(5)))
        .limits(Limits { timeout: Duration::from_millis(300), ..Limits::default() })
        .store_backend(backend(store))
        // A killed holder's runs are claimable soon after.
        .runs(RunsConfig { lease: Duration::from_millis(1500), ..RunsConfig::default() })
        .start()
        .await
        .unwrap_or_else(|e| panic!("the runtime did not start: {e}"));
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the MCP server connects");
    let reply = rt.session("s").reply("r");
    match mode.as_str() {
        "exec" => {
            print(&reply.exec(Exec::code(what.as_str())).await.unwrap_or_else(|e| panic!("exec: {e}")));
            // Hold the run (and its calls) until killed.
            std::future::pending::<()>().await;
        }
        "wait" | "approve" => {
            // A killed holder keeps its lease until it lapses: meanwhile
            // the run is unavailable here.
            let mut unavailable = 0;
            let mut approval = approval;
            loop {
                let decisions = Decisions { approve: approval.iter().cloned().collect(), deny: Vec::new() };
                let result = reply.wait_with(what, decisions).await.unwrap_or_else(|e| panic!("wait: {e}"));
                if !matches!(result, CellResult::Failed { code: ErrorCode::RuntimeUnavailable, .. }) {
                    // Decided (or refused, which the result says): once.
                    approval = None;
                }
                match &result {
                    CellResult::Waiting { .. } => {}
                    CellResult::Failed { code: ErrorCode::RuntimeUnavailable, .. } if unavailable < 100 => {
                        unavailable += 1;
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    _ => {
                        print(&result);
                        return;
                    }
                }
            }
        }
        _ => usage(),
    }
}
