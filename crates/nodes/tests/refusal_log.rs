//! Refusal warnings are rate-limited: strangers choose how often a node is
//! refused, so at most one line per interval says so and the next one
//! counts the lines held back. Its own test binary: it installs the global
//! log subscriber.

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use codemode_catalog::policy::AllowAll;
use codemode_nodes::protocol::{GatewayFrame, PROTOCOL_VERSION};
use codemode_nodes::{GatewayLimits, MemoryPairings, NodeRegistry, NodesConfig};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// Collects log output.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    fn refusals(&self) -> Vec<String> {
        let text = String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned();
        text.lines().filter(|l| l.contains("node refused")).map(str::to_owned).collect()
    }
}

/// Sends a hello with a wrong code and waits for the refusal.
async fn wrong_code(gateway: SocketAddr) {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{gateway}")).await.unwrap();
    let hello = json!({"type": "hello", "version": PROTOCOL_VERSION, "id": "guesser", "name": "g",
                       "platform": "linux", "commands": [], "code": "AAAA-AAAA"});
    ws.send(Message::text(hello.to_string())).await.unwrap();
    let Some(Ok(Message::Text(t))) = ws.next().await else { panic!("no answer") };
    assert!(matches!(serde_json::from_str(&t).unwrap(), GatewayFrame::Refused { .. }), "{t}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusal_warnings_are_logged_at_most_once_per_second_with_a_count_of_those_held_back() {
    let capture = Capture::default();
    let writer = capture.clone();
    let subscriber = tracing_subscriber::fmt().with_ansi(false).with_writer(move || writer.clone()).finish();
    tracing::subscriber::set_global_default(subscriber).unwrap();

    let now = Arc::new(Mutex::new(Instant::now()));
    let clock = Arc::clone(&now);
    let limits = GatewayLimits {
        // Neither back-off nor rotation: only the log is under test.
        failures_before_backoff: u32::MAX,
        rotate_code_after: NonZeroU32::MAX,
        clock: Arc::new(move || *clock.lock().unwrap()),
        ..GatewayLimits::default()
    };
    let config = NodesConfig { on_code: Some(Arc::new(|_: &str| {})), ..NodesConfig::default() };
    let registry =
        NodeRegistry::start_with_limits(config, Arc::new(MemoryPairings::default()), Arc::new(AllowAll), None, limits)
            .await
            .unwrap();
    let addr = registry.listen("127.0.0.1:0").await.unwrap();

    for _ in 0..20 {
        wrong_code(addr).await;
    }
    let lines = capture.refusals();
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(lines[0].contains("WARN") && lines[0].contains("the pairing code is not valid"), "{}", lines[0]);

    *now.lock().unwrap() += Duration::from_secs(1);
    wrong_code(addr).await;
    let lines = capture.refusals();
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(lines[1].contains("(19 more refusals not logged)"), "{}", lines[1]);
    registry.stop();
}
