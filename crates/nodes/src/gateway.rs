//! The gateway's WebSocket listener: accepts node hosts, reads their hello
//! and hands them to the registry actor.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use ractor::ActorRef;
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::NodeError;
use crate::connection::Socket;
use crate::protocol::{GatewayFrame, MAX_FRAME_BYTES, NodeFrame, PROTOCOL_VERSION};
use crate::registry::{Hello, RegistryMsg};

/// How long a connecting node has to finish the handshake and say hello.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

pub(crate) async fn listen(addr: &str, registry: ActorRef<RegistryMsg>) -> Result<std::net::SocketAddr, NodeError> {
    let bind_error = |e: std::io::Error| NodeError::Bind { addr: addr.to_owned(), reason: e.to_string() };
    let listener = TcpListener::bind(addr).await.map_err(bind_error)?;
    let local = listener.local_addr().map_err(bind_error)?;
    tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, peer)) => {
                    let registry = registry.clone();
                    tokio::spawn(async move {
                        if let Err(reason) = handshake(stream, registry).await {
                            tracing::info!(%peer, "node handshake failed: {reason}");
                        }
                    });
                }
                Err(e) => {
                    tracing::warn!("node gateway accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
            // The registry is gone: stop accepting.
            if registry.get_status() >= ractor::ActorStatus::Stopping {
                return;
            }
        }
    });
    Ok(local)
}

async fn handshake(stream: TcpStream, registry: ActorRef<RegistryMsg>) -> Result<(), String> {
    let _ = stream.set_nodelay(true);
    let config =
        WebSocketConfig::default().max_message_size(Some(MAX_FRAME_BYTES)).max_frame_size(Some(MAX_FRAME_BYTES));
    let hello = async {
        let mut socket = tokio_tungstenite::accept_async_with_config(stream, Some(config))
            .await
            .map_err(|e| format!("not a WebSocket: {e}"))?;
        loop {
            match socket.next().await {
                Some(Ok(Message::Text(t))) => return Ok((socket, serde_json::from_str::<NodeFrame>(&t))),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(_)) => return Ok((socket, Err(serde::de::Error::custom("expected a text frame")))),
                Some(Err(e)) => return Err(e.to_string()),
                None => return Err("closed before hello".to_owned()),
            }
        }
    };
    let (socket, frame) = tokio::time::timeout(HELLO_TIMEOUT, hello)
        .await
        .map_err(|_| format!("no hello within {} s", HELLO_TIMEOUT.as_secs()))??;
    match frame {
        Ok(NodeFrame::Hello { version, id, name, platform, commands, credentials }) => {
            if version != PROTOCOL_VERSION {
                refuse(
                    socket,
                    format!("protocol version {version} is not supported (the gateway speaks {PROTOCOL_VERSION})"),
                )
                .await;
                return Err("unsupported version".to_owned());
            }
            let hello = Hello { id, name, platform, commands, credentials };
            registry
                .send_message(RegistryMsg::Connect { hello, socket: Box::new(socket) })
                .map_err(|_| "registry stopped".to_owned())
        }
        Ok(_) => {
            refuse(socket, "the first frame must be a hello".to_owned()).await;
            Err("no hello".to_owned())
        }
        Err(e) => {
            refuse(socket, format!("unreadable hello: {e}")).await;
            Err("unreadable hello".to_owned())
        }
    }
}

/// Tells a node why it may not connect, then closes the socket.
pub(crate) async fn refuse(mut socket: Socket, reason: String) {
    let frame = serde_json::to_string(&GatewayFrame::Refused { reason }).unwrap_or_default();
    let _ = socket.send(Message::text(frame)).await;
    let _ = socket.close(None).await;
}
