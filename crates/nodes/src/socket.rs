//! A node's WebSocket and what the gateway, the registry and a connection
//! each do with it: refuse it with a reason, or rebuild it with the paired
//! bounds once the node is paired. Depends on no other part of the
//! gateway, so the listener, the registry and the connections all build on
//! it without depending on each other.

use futures_util::SinkExt;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::peer::PeerStream;
use crate::protocol::{GatewayFrame, MAX_FRAME_BYTES};

/// The socket of one node.
pub(crate) type Socket = WebSocketStream<PeerStream>;

/// The socket config of a paired node.
fn paired_config() -> WebSocketConfig {
    WebSocketConfig::default().max_message_size(Some(MAX_FRAME_BYTES)).max_frame_size(Some(MAX_FRAME_BYTES))
}

/// Tells a node why it may not connect, then closes the socket.
pub(crate) async fn refuse(mut socket: Socket, reason: String) {
    let frame = serde_json::to_string(&GatewayFrame::Refused { reason }).unwrap_or_default();
    let _ = socket.send(Message::text(frame)).await;
    let _ = socket.close(None).await;
}

/// Rebuilds a paired node's socket with the paired bounds (see
/// [`crate::peer`]).
///
/// # Errors
/// When flushing what the hello phase still had to send fails.
pub(crate) async fn paired(mut socket: Socket) -> Result<Socket, WsError> {
    socket.flush().await?;
    let mut stream = socket.into_inner();
    stream.open();
    Ok(WebSocketStream::from_raw_socket(stream, Role::Server, Some(paired_config())).await)
}
