//! Node `invoke` round trip over loopback WebSocket: through a cell
//! (`await node.invoke("echo", …)` measured inside the cell) versus the
//! registry's own `invoke` from Rust, against the same in-process node host.
//!
//! `cargo bench -p codemode-benches --bench nodes`. Prints medians over
//! 1,000 sequential invokes after 100 warm-up invokes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_benches::{median, on_worker, tokio_runtime};
use codemode_nodes::host::{CommandHandler, HostOptions, run_host};
use codemode_nodes::protocol::Credentials;
use codemode_runtime::{CodeMode, Exec, NodesConfig};
use serde_json::{Value, json};

const CALLS: usize = 1000;
const WARMUP: usize = 100;
const TOKEN: &str = "bench-token-0123456789";

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let rt = tokio_runtime();
    let (direct, through_cell) = on_worker(&rt, || async {
        let cm = CodeMode::builder()
            .nodes(NodesConfig { tokens: vec![TOKEN.into()], ..NodesConfig::default() }, Some("127.0.0.1:0".into()))
            .start()
            .await
            .unwrap();
        let handler: CommandHandler = Arc::new(|_command: String, params: Value| Box::pin(async move { Ok(params) }));
        let options = HostOptions {
            gateway: format!("ws://{}", cm.node_gateway_addr().unwrap()),
            id: "bench".into(),
            name: "Bench".into(),
            platform: "linux".into(),
            commands: vec!["echo".into()],
            credentials: Credentials { token: Some(TOKEN.into()), ..Credentials::default() },
        };
        tokio::spawn(run_host(options, handler, |_| {}));
        let registry = cm.node_registry().unwrap().clone();
        while !registry.list().iter().any(|n| n.connected) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let mut samples = Vec::new();
        for i in 0..CALLS + WARMUP {
            let start = Instant::now();
            registry.invoke(None, "bench", "echo", json!({"x": 1})).await.unwrap();
            if i >= WARMUP {
                samples.push(start.elapsed());
            }
        }
        let direct = median(samples);
        let code = format!(
            "const n = await nodes.get('bench'); const t = []; for (let i = 0; i < {}; i++) {{ const s = performance.now(); \
             await n.invoke('echo', {{x: 1}}); if (i >= {WARMUP}) t.push(performance.now() - s); }} \
             t.sort((a, b) => a - b); return t[t.length >> 1]",
            CALLS + WARMUP
        );
        let r = cm.session("bench").reply("r").exec(Exec::code(code)).await.unwrap();
        let ms = match &r {
            codemode_runtime::CellResult::Completed { value, .. } => value.as_f64().unwrap_or(f64::NAN),
            other => panic!("{}", other.to_model_json()),
        };
        (direct, Duration::from_secs_f64(ms / 1000.0))
    });
    println!("node invoke, NodeRegistry::invoke from Rust: median {direct:?}");
    println!("node invoke, through a cell (node.invoke): median {through_cell:?}");
    println!(
        "cell overhead per invoke: {:?} ({:.2}x the direct call)",
        through_cell.saturating_sub(direct),
        through_cell.as_secs_f64() / direct.as_secs_f64()
    );
}
