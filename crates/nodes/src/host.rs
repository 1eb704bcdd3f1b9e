//! The node side: connect to a gateway, pair, answer invokes, reconnect
//! with backoff. `codemode node` is built on it; a host application can
//! embed it to make itself a node.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use codemode_protocol::retry::Backoff;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

pub use crate::protocol::CommandError;
use crate::protocol::{Credentials, GatewayFrame, MAX_FRAME_BYTES, NodeFrame, PROTOCOL_VERSION};

/// A command's pending answer: its value, or why it failed.
pub type CommandFuture = Pin<Box<dyn Future<Output = Result<Value, CommandError>> + Send>>;

/// Runs one command: `(command, params)`. Dropping the future (the gateway
/// cancelled the invoke, or the connection ended) must stop the work.
pub type CommandHandler = Arc<dyn Fn(String, Value) -> CommandFuture + Send + Sync>;

/// Who the node is and how it proves it may connect.
#[derive(Clone, Debug)]
pub struct HostOptions {
    /// `ws://HOST:PORT`.
    pub gateway: String,
    /// The node's stable id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Its platform.
    pub platform: String,
    /// The commands it offers.
    pub commands: Vec<String>,
    /// Its secret (after pairing), or a code or token to pair with.
    pub credentials: Credentials,
}

/// What happened to the node's connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostEvent {
    /// The gateway paired the node and issued this secret: keep it.
    Paired(String),
    /// A paired node connected again.
    Connected,
    /// The connection failed or ended; the host retries after `retry_in`.
    Lost {
        /// Why.
        reason: Disconnect,
        /// The pause before the next attempt.
        retry_in: Duration,
    },
}

/// Why the node's connection to the gateway failed or ended. The host
/// reconnects after each (see [`HostEvent::Lost`]); only a refusal ends it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Disconnect {
    /// No connection could be made (the gateway is down, or the address is
    /// wrong).
    #[error("cannot reach {gateway}: {reason}")]
    Unreachable {
        /// The gateway's address.
        gateway: String,
        /// What the connection attempt said.
        reason: String,
    },
    /// The hello could not be sent.
    #[error("sending hello failed: {0}")]
    Hello(String),
    /// The gateway answered the hello with something other than a welcome
    /// or a refusal.
    #[error("the gateway sent no welcome")]
    NoWelcome,
    /// The gateway sent a frame that is not JSON of the protocol.
    #[error("unreadable gateway frame: {0}")]
    Unreadable(String),
    /// The gateway closed the connection.
    #[error("the gateway closed the connection")]
    Closed,
    /// The socket failed before the welcome.
    #[error("{0}")]
    Socket(String),
    /// The socket failed after the welcome.
    #[error("connection lost: {0}")]
    Lost(String),
}

/// The first pause before reconnecting…
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
/// …and the longest, however often it failed.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Why a connection ended.
enum Ended {
    /// The gateway refused the node, saying why.
    Refused(String),
    /// It was lost; the flag says whether the node had been welcomed.
    Lost(Disconnect, bool),
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Runs the node until the gateway refuses it; returns the refusal.
/// After pairing, the issued secret replaces the code or token.
pub async fn run_host(
    mut options: HostOptions,
    handler: CommandHandler,
    mut on_event: impl FnMut(HostEvent),
) -> String {
    let mut backoff = Backoff::new(FIRST_BACKOFF, MAX_BACKOFF);
    loop {
        let retry_in = match connect(&mut options, &handler, &mut on_event).await {
            Ended::Refused(reason) => return reason,
            Ended::Lost(reason, was_up) => {
                if was_up {
                    backoff.reset();
                }
                let retry_in = backoff.next_delay();
                on_event(HostEvent::Lost { reason, retry_in });
                retry_in
            }
        };
        tokio::time::sleep(retry_in).await;
    }
}

async fn connect(options: &mut HostOptions, handler: &CommandHandler, on_event: &mut impl FnMut(HostEvent)) -> Ended {
    let config =
        WebSocketConfig::default().max_message_size(Some(MAX_FRAME_BYTES)).max_frame_size(Some(MAX_FRAME_BYTES));
    let mut socket =
        match tokio_tungstenite::connect_async_with_config(options.gateway.as_str(), Some(config), true).await {
            Ok((socket, _)) => socket,
            Err(e) => {
                return Ended::Lost(
                    Disconnect::Unreachable { gateway: options.gateway.clone(), reason: e.to_string() },
                    false,
                );
            }
        };
    let hello = NodeFrame::Hello {
        version: PROTOCOL_VERSION,
        id: options.id.clone(),
        name: options.name.clone(),
        platform: options.platform.clone(),
        commands: options.commands.clone(),
        credentials: options.credentials.clone(),
    };
    if let Err(e) = socket.send(Message::text(serde_json::to_string(&hello).unwrap_or_default())).await {
        return Ended::Lost(Disconnect::Hello(e.to_string()), false);
    }
    match first_frame(&mut socket).await {
        Ok(GatewayFrame::Welcome { secret: Some(secret) }) => {
            options.credentials = Credentials { secret: Some(secret.clone()), ..Credentials::default() };
            on_event(HostEvent::Paired(secret));
        }
        Ok(GatewayFrame::Welcome { secret: None }) => on_event(HostEvent::Connected),
        Ok(GatewayFrame::Refused { reason }) => return Ended::Refused(reason),
        Ok(_) => return Ended::Lost(Disconnect::NoWelcome, false),
        Err(e) => return Ended::Lost(e, false),
    }
    serve(socket, handler).await
}

async fn first_frame(socket: &mut Socket) -> Result<GatewayFrame, Disconnect> {
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(t))) => {
                return serde_json::from_str(&t).map_err(|e| Disconnect::Unreadable(e.to_string()));
            }
            Some(Ok(Message::Close(_))) | None => return Err(Disconnect::Closed),
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(Disconnect::Socket(e.to_string())),
        }
    }
}

/// Answers invokes until the socket ends; running commands are dropped
/// then (and on cancel).
async fn serve(socket: Socket, handler: &CommandHandler) -> Ended {
    let (mut sink, mut stream) = socket.split();
    // Unbounded: each running command sends one result, and the loop below
    // writes each as it comes, so the running commands bound the queue.
    let (done_tx, mut done_rx) = tokio::sync::mpsc::unbounded_channel::<NodeFrame>();
    let mut running: HashMap<u64, tokio::task::JoinHandle<()>> = HashMap::new();
    let reason = loop {
        tokio::select! {
            frame = stream.next() => match frame {
                Some(Ok(Message::Text(t))) => match serde_json::from_str::<GatewayFrame>(&t) {
                    Ok(GatewayFrame::Invoke { call_id, command, params }) => {
                        let work = handler(command, params);
                        let done = done_tx.clone();
                        running.insert(call_id, tokio::spawn(async move {
                            let (value, error) = match work.await {
                                Ok(v) => (Some(v), None),
                                Err(e) => (None, Some(e.into_message())),
                            };
                            let _ = done.send(NodeFrame::Result { call_id, value, error });
                        }));
                    }
                    Ok(GatewayFrame::Cancel { call_id }) => {
                        if let Some(task) = running.remove(&call_id) {
                            task.abort();
                        }
                    }
                    Ok(GatewayFrame::Refused { reason }) => return Ended::Refused(reason),
                    Ok(GatewayFrame::Welcome { .. }) => {}
                    Err(e) => break Disconnect::Unreadable(e.to_string()),
                },
                Some(Ok(Message::Close(_))) | None => break Disconnect::Closed,
                Some(Ok(_)) => {}
                Some(Err(e)) => break Disconnect::Lost(e.to_string()),
            },
            Some(frame) = done_rx.recv() => {
                if let NodeFrame::Result { call_id, .. } = &frame {
                    running.remove(call_id);
                }
                let text = serde_json::to_string(&frame).unwrap_or_default();
                if let Err(e) = sink.send(Message::text(text)).await {
                    break Disconnect::Lost(e.to_string());
                }
            }
        }
    };
    for (_, task) in running {
        task.abort();
    }
    Ended::Lost(reason, true)
}
