//! The gateway's WebSocket listener: accepts node hosts, reads their hello
//! under the bounds of the unauthenticated phase and hands them to the
//! registry actor.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message, Utf8Bytes};

use crate::NodeError;
use crate::hello::Hello;
use crate::peer::{HandshakeSlot, OverBudget, PeerStream};
use crate::protocol::{MAX_HELLO_BYTES, NodeFrame, PROTOCOL_VERSION};
use crate::socket::{Socket, refuse};
use crate::throttle::{GatewayLimits, LogLimiter, address_key};

/// How long a connecting node has to finish the handshake and say hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// The HTTP upgrade request a peer may send (tungstenite refuses more than
/// 124 headers on its own).
const MAX_REQUEST_BYTES: usize = 16 * 1024;

/// Room for frame headers and control frames around the hello.
const FRAMING_SLACK: usize = 4 * 1024;

/// Everything a peer may send before it is paired.
pub(crate) const UNPAIRED_BUDGET: usize = MAX_REQUEST_BYTES + MAX_HELLO_BYTES + FRAMING_SLACK;

/// tungstenite zero-fills up to this much of its buffer per read; the hello
/// arrives one byte per read, so keep it small.
const HELLO_READ_BUFFER: usize = 64;

/// The socket config while a peer is not paired.
fn hello_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(MAX_HELLO_BYTES))
        .max_frame_size(Some(MAX_HELLO_BYTES))
        .read_buffer_size(HELLO_READ_BUFFER)
}

/// Where the gateway hands a peer whose hello it read: the registry. The
/// listener knows only this, so it does not depend on the registry.
pub(crate) trait Admit: Send + Sync + 'static {
    /// Hands `hello` and its socket over; false when the receiver stopped.
    fn admit(&self, hello: Hello, socket: Socket, peer: IpAddr) -> bool;

    /// Whether the receiver stopped (the listener then stops accepting).
    fn stopped(&self) -> bool;
}

/// Why a handshake ended without reaching the registry.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HandshakeError {
    /// The peer did not speak WebSocket.
    #[error("not a WebSocket: {0}")]
    NotWebSocket(WsError),
    /// The peer did not finish in time.
    #[error("no hello within {} s", HELLO_TIMEOUT.as_secs())]
    Timeout,
    /// The peer went away first.
    #[error("closed before hello")]
    Closed,
    /// The socket failed.
    #[error("{0}")]
    Socket(WsError),
    /// The gateway refused the hello and told the peer why.
    #[error("refused: {0}")]
    Refused(String),
    /// The registry is not running.
    #[error("registry stopped")]
    RegistryStopped,
}

/// What the gateway shares between its connection tasks.
struct Shared<A> {
    registry: A,
    limits: GatewayLimits,
    unpaired: Arc<Semaphore>,
    per_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
    log: Mutex<LogLimiter>,
}

impl<A: Admit> Shared<A> {
    /// Logs at most one line per interval: strangers choose how often this
    /// runs.
    fn log(&self, peer: SocketAddr, what: &str) {
        let now = (self.limits.clock)();
        let allowed = self.log.lock().unwrap_or_else(std::sync::PoisonError::into_inner).allow(now);
        match allowed {
            Some(0) => tracing::info!(%peer, "node handshake failed: {what}"),
            Some(n) => tracing::info!(%peer, "node handshake failed: {what} ({n} similar lines not logged)"),
            None => {}
        }
    }
}

/// Listens on `addr` and hands every peer that said a well-formed hello
/// to `registry`.
pub(crate) async fn listen<A: Admit>(addr: &str, registry: A, limits: GatewayLimits) -> Result<SocketAddr, NodeError> {
    let bind_error = |source: std::io::Error| NodeError::Bind { addr: addr.to_owned(), source };
    let listener = TcpListener::bind(addr).await.map_err(bind_error)?;
    let local = listener.local_addr().map_err(bind_error)?;
    let shared = Arc::new(Shared {
        registry,
        unpaired: Arc::new(Semaphore::new(limits.max_unpaired_connections.get())),
        per_address: Arc::new(Mutex::new(HashMap::new())),
        log: Mutex::new(LogLimiter::new(limits.log_interval)),
        limits,
    });
    tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, peer)) => accepted(&shared, stream, peer),
                Err(e) => {
                    tracing::warn!("node gateway accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
            // The registry is gone: stop accepting.
            if shared.registry.stopped() {
                return;
            }
        }
    });
    Ok(local)
}

/// Starts the handshake of a new connection, unless too many connections
/// are unpaired (then it is closed at once: each holds buffers).
fn accepted<A: Admit>(shared: &Arc<Shared<A>>, stream: tokio::net::TcpStream, peer: SocketAddr) {
    let Ok(permit) = Arc::clone(&shared.unpaired).try_acquire_owned() else {
        shared.log(peer, "too many connections are not paired yet");
        return;
    };
    let key = address_key(peer.ip());
    let Some(slot) =
        HandshakeSlot::take(permit, key, &shared.per_address, shared.limits.max_unpaired_per_address.get())
    else {
        shared.log(peer, "too many connections from this address are not paired yet");
        return;
    };
    let _ = stream.set_nodelay(true);
    let stream = PeerStream::new(stream, UNPAIRED_BUDGET, Some(slot));
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        if let Err(e) = handshake(stream, peer, &shared.registry).await {
            shared.log(peer, &e.to_string());
        }
    });
}

/// The first message of a peer, as far as it was read.
enum First {
    Text(Utf8Bytes),
    NotText,
    TooLarge,
    OverBudget,
}

async fn read_hello(stream: PeerStream) -> Result<(Socket, First), HandshakeError> {
    let mut socket = tokio_tungstenite::accept_async_with_config(stream, Some(hello_config()))
        .await
        .map_err(HandshakeError::NotWebSocket)?;
    socket.get_mut().expect_hello();
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(t))) => return Ok((socket, First::Text(t))),
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            Some(Ok(Message::Close(_))) | None => return Err(HandshakeError::Closed),
            Some(Ok(Message::Binary(_) | Message::Frame(_))) => return Ok((socket, First::NotText)),
            Some(Err(WsError::Capacity(_))) => return Ok((socket, First::TooLarge)),
            Some(Err(WsError::Io(e))) if e.get_ref().is_some_and(|inner| inner.is::<OverBudget>()) => {
                return Ok((socket, First::OverBudget));
            }
            Some(Err(e)) => return Err(HandshakeError::Socket(e)),
        }
    }
}

async fn handshake(stream: PeerStream, peer: SocketAddr, registry: &impl Admit) -> Result<(), HandshakeError> {
    let (socket, first) =
        tokio::time::timeout(HELLO_TIMEOUT, read_hello(stream)).await.map_err(|_| HandshakeError::Timeout)??;
    let frame = match first {
        First::Text(text) => serde_json::from_str::<NodeFrame>(text.as_str()),
        First::NotText => return Err(refused(socket, "the first frame must be a text frame".to_owned()).await),
        First::TooLarge => {
            let reason = format!("the hello is larger than {MAX_HELLO_BYTES} bytes");
            return Err(refused(socket, reason).await);
        }
        First::OverBudget => {
            let reason = format!("a node sends at most {UNPAIRED_BUDGET} bytes before its hello is answered");
            return Err(refused(socket, reason).await);
        }
    };
    match frame {
        Ok(NodeFrame::Hello { version, id, name, platform, commands, credentials }) => {
            if version != PROTOCOL_VERSION {
                let reason =
                    format!("protocol version {version} is not supported (the gateway speaks {PROTOCOL_VERSION})");
                return Err(refused(socket, reason).await);
            }
            let hello = Hello { id, name, platform, commands, credentials };
            if registry.admit(hello, socket, peer.ip()) { Ok(()) } else { Err(HandshakeError::RegistryStopped) }
        }
        Ok(_) => Err(refused(socket, "the first frame must be a hello".to_owned()).await),
        Err(e) => Err(refused(socket, format!("unreadable hello: {e}")).await),
    }
}

async fn refused(socket: Socket, reason: String) -> HandshakeError {
    refuse(socket, reason.clone()).await;
    HandshakeError::Refused(reason)
}
