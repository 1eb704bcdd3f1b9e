//! The gateway against unauthenticated peers, over real loopback
//! WebSockets: bounded hellos, bounded memory of refusals, per-address
//! back-off for wrong codes and a code replaced after repeated guesses.
//! Pairing is the gate in front of `nodes` (GA-10.1, GA-10.3).

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use codemode_catalog::policy::AllowAll;
use codemode_nodes::host::{CommandHandler, HostEvent, HostOptions, run_host};
use codemode_nodes::protocol::{
    Credentials, GatewayFrame, MAX_HELLO_BYTES, MAX_ID_CHARS, MAX_NAME_CHARS, MAX_PLATFORM_CHARS, NodeFrame,
    PROTOCOL_VERSION,
};
use codemode_nodes::{GatewayLimits, MAX_PENDING, MAX_PENDING_REASON_CHARS, MemoryPairings, NodeRegistry, NodesConfig};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "hardening-token-0123456789";

/// A clock the test moves by hand.
#[derive(Clone)]
struct TestClock(Arc<Mutex<Instant>>);

impl TestClock {
    fn new() -> Self {
        Self(Arc::new(Mutex::new(Instant::now())))
    }

    fn advance(&self, by: Duration) {
        *self.0.lock().unwrap() += by;
    }

    fn limits(&self) -> GatewayLimits {
        let clock = Arc::clone(&self.0);
        GatewayLimits { clock: Arc::new(move || *clock.lock().unwrap()), ..GatewayLimits::default() }
    }
}

/// A gateway on loopback; `codes` collects every code it shows.
struct Gateway {
    registry: NodeRegistry,
    addr: SocketAddr,
    codes: Arc<Mutex<Vec<String>>>,
}

impl Gateway {
    async fn start(limits: GatewayLimits) -> Self {
        let codes = Arc::new(Mutex::new(Vec::new()));
        let shown = Arc::clone(&codes);
        let config = NodesConfig {
            tokens: vec![TOKEN.into()],
            on_code: Some(Arc::new(move |code: &str| shown.lock().unwrap().push(code.to_owned()))),
            ..NodesConfig::default()
        };
        let registry = NodeRegistry::start_with_limits(
            config,
            Arc::new(MemoryPairings::default()),
            Arc::new(AllowAll),
            None,
            limits,
        )
        .await
        .unwrap();
        let addr = registry.listen("127.0.0.1:0").await.unwrap();
        Self { registry, addr, codes }
    }

    fn code(&self) -> String {
        self.codes.lock().unwrap().last().cloned().expect("a code was shown")
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        self.registry.stop();
    }
}

/// What the gateway answered a hello.
#[derive(Debug)]
enum Answer {
    Welcome(Option<String>),
    Refused(String),
    /// The connection broke before an answer could be read.
    Broken(String),
}

impl Answer {
    fn refused(&self) -> &str {
        match self {
            Self::Refused(reason) => reason,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
}

/// Opens a WebSocket to the gateway from the loopback address `from`.
async fn open(gateway: SocketAddr, from: IpAddr) -> WebSocketStream<TcpStream> {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let tcp = socket.connect(gateway).await.unwrap();
    let (ws, _) = tokio_tungstenite::client_async(format!("ws://{gateway}"), tcp).await.unwrap();
    ws
}

/// Sends `text` as the first frame and reads the answer.
async fn say(gateway: SocketAddr, from: IpAddr, text: String) -> Answer {
    let mut ws = open(gateway, from).await;
    if let Err(e) = ws.send(Message::text(text)).await {
        return Answer::Broken(e.to_string());
    }
    loop {
        match tokio::time::timeout(Duration::from_secs(30), ws.next()).await.expect("the gateway answers") {
            Some(Ok(Message::Text(t))) => {
                return match serde_json::from_str::<GatewayFrame>(&t).unwrap() {
                    GatewayFrame::Welcome { secret } => Answer::Welcome(secret),
                    GatewayFrame::Refused { reason } => Answer::Refused(reason),
                    other => panic!("unexpected first frame {other:?}"),
                };
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            Some(Ok(other)) => return Answer::Broken(format!("{other:?}")),
            Some(Err(e)) => return Answer::Broken(e.to_string()),
            None => return Answer::Broken("closed".into()),
        }
    }
}

fn hello_with(id: &str, platform: &str, credentials: Credentials) -> String {
    serde_json::to_string(&NodeFrame::Hello {
        version: PROTOCOL_VERSION,
        id: id.into(),
        name: id.into(),
        platform: platform.into(),
        commands: vec!["device.status".into()],
        credentials,
    })
    .unwrap()
}

fn code(code: &str) -> Credentials {
    Credentials { code: Some(code.into()), ..Credentials::default() }
}

fn token() -> Credentials {
    Credentials { token: Some(TOKEN.into()), ..Credentials::default() }
}

const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

/// Loopback address 127.0.0.`n` (Linux routes all of 127/8 to lo).
fn loopback(n: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, n])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hello_with_a_7_mb_platform_is_refused_and_the_remembered_refusals_stay_small() {
    let gw = Gateway::start(GatewayLimits::default()).await;
    let huge = "p".repeat(7 * 1024 * 1024);
    for i in 0..3 {
        match say(gw.addr, HOME, hello_with(&format!("big-{i}"), &huge, Credentials::default())).await {
            Answer::Refused(reason) => assert_eq!(reason, format!("the hello is larger than {MAX_HELLO_BYTES} bytes")),
            // The gateway closes while the rest of the 7 MB is still in
            // flight, so the peer may see a reset instead of the refusal.
            Answer::Broken(why) => assert!(!why.is_empty()),
            Answer::Welcome(_) => panic!("a 7 MB hello was accepted"),
        }
    }
    assert!(gw.registry.pending().await.unwrap().is_empty(), "an oversized hello never reaches the registry");

    // Hellos that fit the frame bound but not the field bounds, from more
    // ids than the registry remembers: kept cut, and only so many.
    let long_id = |i: usize| format!("{i:05}{}", "i".repeat(300));
    let platform = "é".repeat(10_000);
    for i in 0..MAX_PENDING + 20 {
        let hello = serde_json::to_string(&json!({
            "type": "hello", "version": PROTOCOL_VERSION, "id": long_id(i), "name": "n".repeat(1000),
            "platform": platform, "commands": [],
        }))
        .unwrap();
        assert!(hello.len() <= MAX_HELLO_BYTES);
        let answer = say(gw.addr, HOME, hello).await;
        assert_eq!(answer.refused(), format!("node id must be 1–{MAX_ID_CHARS} characters without control characters"));
    }
    let pending = gw.registry.pending().await.unwrap();
    assert_eq!(pending.len(), MAX_PENDING, "a bounded number of refusals is remembered");
    let per_entry = 4 * (MAX_ID_CHARS + MAX_NAME_CHARS + MAX_PLATFORM_CHARS + MAX_PENDING_REASON_CHARS);
    let retained: usize = pending.iter().map(|p| p.id.len() + p.name.len() + p.platform.len() + p.reason.len()).sum();
    assert!(retained <= MAX_PENDING * per_entry, "{retained} bytes retained");
    for p in &pending {
        assert_eq!(p.id.chars().count(), MAX_ID_CHARS);
        assert!(p.id.ends_with('…'), "a cut field says so: {}", p.id);
        assert_eq!(p.name.chars().count(), MAX_NAME_CHARS);
        assert_eq!(p.platform.chars().count(), MAX_PLATFORM_CHARS);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_that_sends_more_than_its_unpaired_budget_before_a_hello_is_cut_off() {
    let gw = Gateway::start(GatewayLimits::default()).await;
    let mut ws = open(gw.addr, HOME).await;
    // Pings are small frames that never make a message: only the byte
    // budget of the unpaired phase stops them. The pongs are not read.
    let mut cut_off = false;
    for _ in 0..2 * MAX_HELLO_BYTES / 125 {
        if ws.send(Message::Ping(vec![0; 125].into())).await.is_err() {
            cut_off = true;
            break;
        }
    }
    if !cut_off {
        let _ = ws.send(Message::text(hello_with("late", "linux", token()))).await;
        loop {
            match tokio::time::timeout(Duration::from_secs(30), ws.next()).await.expect("the gateway answers") {
                Some(Ok(Message::Pong(_))) => {}
                Some(Ok(Message::Text(t))) => {
                    let reason = match serde_json::from_str::<GatewayFrame>(&t).unwrap() {
                        GatewayFrame::Refused { reason } => reason,
                        other => panic!("expected a refusal, got {other:?}"),
                    };
                    assert!(reason.starts_with("a node sends at most"), "{reason}");
                    break;
                }
                _ => break,
            }
        }
    }
    assert!(gw.registry.list().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hello_of_exactly_the_frame_bound_is_read_and_one_byte_more_is_refused() {
    let gw = Gateway::start(GatewayLimits::default()).await;
    // JSON allows whitespace before the closing brace: pad to a length.
    let padded = |len: usize| {
        let mut text = hello_with("edge", "linux", token());
        let brace = text.pop().unwrap();
        text.push_str(&" ".repeat(len - text.len() - 1));
        text.push(brace);
        assert_eq!(text.len(), len);
        text
    };
    let answer = say(gw.addr, HOME, padded(MAX_HELLO_BYTES + 1)).await;
    assert_eq!(answer.refused(), format!("the hello is larger than {MAX_HELLO_BYTES} bytes"));
    assert!(matches!(say(gw.addr, HOME, padded(MAX_HELLO_BYTES)).await, Answer::Welcome(Some(_))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_wrong_codes_from_one_address_are_throttled_even_for_the_right_code_until_the_back_off_passes() {
    let clock = TestClock::new();
    let limits = clock.limits();
    let (free, first) = (limits.failures_before_backoff, limits.first_backoff);
    let gw = Gateway::start(limits).await;
    // A node paired earlier from the same address.
    let Answer::Welcome(Some(secret)) = say(gw.addr, HOME, hello_with("known", "linux", token())).await else {
        panic!("token pairing failed");
    };
    let right = gw.code();
    for i in 0..free {
        let answer = say(gw.addr, HOME, hello_with(&format!("guess-{i}"), "linux", code("AAAA-AAAA"))).await;
        assert!(answer.refused().starts_with("the pairing code is not valid"), "{answer:?}");
    }
    let answer = say(gw.addr, HOME, hello_with("victim", "linux", code(&right))).await;
    assert_eq!(
        answer.refused(),
        format!("too many attempts to pair from this address; retry in {} s", first.as_secs())
    );
    let answer = say(gw.addr, HOME, hello_with("victim", "linux", token())).await;
    assert!(answer.refused().starts_with("too many attempts"), "tokens wait too: {answer:?}");
    // A secret cannot be guessed, so a paired node still reconnects.
    let reconnect = Credentials { secret: Some(secret), ..Credentials::default() };
    assert!(matches!(say(gw.addr, HOME, hello_with("known", "linux", reconnect)).await, Answer::Welcome(None)));
    // Another address is not held back by this one's failures.
    assert!(matches!(say(gw.addr, loopback(2), hello_with("other", "linux", token())).await, Answer::Welcome(_)));

    clock.advance(first - Duration::from_millis(1));
    let answer = say(gw.addr, HOME, hello_with("victim", "linux", code(&right))).await;
    assert_eq!(answer.refused(), "too many attempts to pair from this address; retry in 1 s");
    clock.advance(Duration::from_millis(1));
    assert_eq!(gw.code(), right, "a refused attempt did not use the code");
    assert!(matches!(say(gw.addr, HOME, hello_with("victim", "linux", code(&right))).await, Answer::Welcome(Some(_))));
    // The node is listed once its connection registers, just after the
    // welcome reaches it: poll briefly rather than race it.
    let mut ids: Vec<String> = Vec::new();
    for _ in 0..200 {
        ids = gw.registry.list().into_iter().map(|n| n.id).collect();
        if ids.len() == 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    assert_eq!(ids, ["known", "other", "victim"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_code_is_replaced_and_shown_after_ten_wrong_codes_from_any_addresses_and_the_old_code_no_longer_pairs() {
    let limits = GatewayLimits { rotate_code_after: NonZeroU32::new(10).unwrap(), ..GatewayLimits::default() };
    let gw = Gateway::start(limits).await;
    let old = gw.code();
    // One wrong code from each of ten addresses: no address is throttled.
    for n in 0..9 {
        say(gw.addr, loopback(10 + n), hello_with("guess", "linux", code("ZZZZ-ZZZZ"))).await.refused();
        assert_eq!(gw.codes.lock().unwrap().len(), 1, "no new code after {} wrong codes", n + 1);
    }
    say(gw.addr, loopback(19), hello_with("guess", "linux", code("ZZZZ-ZZZZ"))).await.refused();
    let new = gw.code();
    assert_ne!(new, old, "a new code was shown");
    assert_eq!(gw.codes.lock().unwrap().len(), 2);
    let answer = say(gw.addr, loopback(30), hello_with("late", "linux", code(&old))).await;
    assert!(answer.refused().starts_with("the pairing code is not valid"), "{answer:?}");
    assert!(matches!(
        say(gw.addr, loopback(31), hello_with("late", "linux", code(&new))).await,
        Answer::Welcome(Some(_))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paired_node_keeps_the_larger_frame_bound_for_its_results_ga_10_3() {
    let gw = Gateway::start(GatewayLimits::default()).await;
    let big = "r".repeat(4 * MAX_HELLO_BYTES);
    let answer = big.clone();
    let handler: CommandHandler = Arc::new(move |_command: String, params: Value| {
        let answer = answer.clone();
        Box::pin(async move { Ok(json!({"echo": params, "big": answer})) })
    });
    let options = HostOptions {
        gateway: format!("ws://{}", gw.addr),
        id: "n1".into(),
        name: "N1".into(),
        platform: "test".into(),
        commands: vec!["big".into()],
        credentials: token(),
    };
    let (tx, mut events) = tokio::sync::mpsc::unbounded_channel();
    let host = tokio::spawn(run_host(options, handler, move |e| {
        let _ = tx.send(e);
    }));
    assert!(matches!(events.recv().await, Some(HostEvent::Paired(_))));
    for _ in 0..600 {
        if gw.registry.list().iter().any(|n| n.connected) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let params = json!({"pad": "q".repeat(2 * MAX_HELLO_BYTES)});
    let value = gw.registry.invoke(None, "n1", "big", params.clone()).await.unwrap();
    assert_eq!(value["big"].as_str().map(str::len), Some(big.len()));
    assert_eq!(value["echo"], params);
    host.abort();
}
