//! MCP call overhead: a tool call through a cell (`MCP.everything.echo`)
//! versus a direct rmcp client call to the same stdio server.
//!
//! `cargo bench -p codemode-benches --bench mcp` (needs
//! `tests/.npm`, installed by scripts/test.sh). Prints medians over 300
//! sequential calls after 30 warm-up calls, and their ratio.

use std::time::{Duration, Instant};

use codemode_benches::{median, on_worker, tokio_runtime};
use codemode_runtime::{CodeMode, Exec, McpServerConfig};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;

const CALLS: usize = 300;
const WARMUP: usize = 30;

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/.npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
    );
    if !std::path::Path::new(script).exists() {
        eprintln!("skipping: run ./scripts/test.sh first to install server-everything");
        return;
    }
    let rt = tokio_runtime();
    let direct = on_worker(&rt, move || async move {
        let mut cmd = tokio::process::Command::new("node");
        cmd.arg(script).arg("stdio").stderr(std::process::Stdio::null());
        let client = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
        let mut samples = Vec::new();
        for i in 0..CALLS + WARMUP {
            let mut args = serde_json::Map::new();
            args.insert("message".into(), "x".into());
            let start = Instant::now();
            client.call_tool(CallToolRequestParams::new("echo").with_arguments(args)).await.unwrap();
            if i >= WARMUP {
                samples.push(start.elapsed());
            }
        }
        median(samples)
    });
    let through_cell = on_worker(&rt, move || async move {
        let cm = CodeMode::builder()
            .mcp_server(McpServerConfig::stdio("everything", "node", vec![script.into(), "stdio".into()]))
            .start()
            .await
            .unwrap();
        assert!(cm.mcp_ready(Duration::from_secs(20)).await);
        let reply = cm.session("bench").reply("r");
        let code = format!(
            "const t = []; for (let i = 0; i < {}; i++) {{ const s = performance.now(); await MCP.everything.echo({{message: 'x'}}); \
             if (i >= {WARMUP}) t.push(performance.now() - s); }} t.sort((a, b) => a - b); return t[t.length >> 1]",
            CALLS + WARMUP
        );
        let r = reply.exec(Exec::code(code)).await.unwrap();
        let ms = match &r {
            codemode_runtime::CellResult::Completed { value, .. } => value.as_f64().unwrap_or(f64::NAN),
            other => panic!("{}", other.to_model_json()),
        };
        Duration::from_secs_f64(ms / 1000.0)
    });
    println!("MCP echo, direct rmcp client call: median {direct:?}");
    println!("MCP echo, through a cell (MCP.everything.echo): median {through_cell:?}");
    println!(
        "overhead per call: {:?} ({:.2}x the direct call)",
        through_cell.saturating_sub(direct),
        through_cell.as_secs_f64() / direct.as_secs_f64()
    );
}
