//! One connected node: an actor that owns the socket's write half and the
//! table of invokes waiting for an answer. A reader task feeds it frames;
//! when the socket closes the actor stops, every waiting invoke's reply
//! port is dropped (the caller reports a disconnect) and the registry, its
//! supervisor, marks the node disconnected.

use std::collections::HashMap;

use futures_util::stream::{SplitSink, StreamExt};
use futures_util::{SinkExt, Stream};
use ractor::{Actor, ActorProcessingErr, ActorRef, RpcReplyPort};
use serde_json::Value;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;

use crate::protocol::{CommandError, GatewayFrame, NodeFrame};
use crate::socket::Socket;

/// What the node answered: its value, or why the command failed.
pub(crate) type Answer = Result<Value, CommandError>;

/// Messages of a connection actor.
pub(crate) enum ConnMsg {
    /// Send an invoke and answer `reply` when the node does.
    Invoke { call_id: u64, command: String, params: Value, reply: RpcReplyPort<Answer> },
    /// The caller stopped waiting: tell the node.
    Cancel(u64),
    /// A frame from the node.
    Incoming(NodeFrame),
    /// The socket closed or broke.
    Closed(String),
}

/// What a connection starts with.
pub(crate) struct ConnArgs {
    pub node: String,
    pub socket: Socket,
    pub welcome: GatewayFrame,
}

pub(crate) struct ConnState {
    node: String,
    sink: SplitSink<Socket, Message>,
    waiting: HashMap<u64, RpcReplyPort<Answer>>,
    reader: JoinHandle<()>,
}

pub(crate) struct Connection;

fn text(frame: &GatewayFrame) -> Message {
    Message::text(serde_json::to_string(frame).unwrap_or_default())
}

/// Forwards the node's frames to the actor until the socket ends.
async fn read(
    mut stream: impl Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
    me: ActorRef<ConnMsg>,
) {
    let reason = loop {
        match stream.next().await {
            Some(Ok(Message::Text(t))) => match serde_json::from_str::<NodeFrame>(&t) {
                Ok(frame) => {
                    if me.send_message(ConnMsg::Incoming(frame)).is_err() {
                        return;
                    }
                }
                Err(e) => break format!("unreadable frame: {e}"),
            },
            Some(Ok(Message::Close(_))) | None => break "closed".to_owned(),
            Some(Ok(_)) => {}
            Some(Err(e)) => break e.to_string(),
        }
    };
    let _ = me.send_message(ConnMsg::Closed(reason));
}

impl Actor for Connection {
    type Msg = ConnMsg;
    type State = ConnState;
    type Arguments = ConnArgs;

    async fn pre_start(&self, myself: ActorRef<ConnMsg>, args: ConnArgs) -> Result<ConnState, ActorProcessingErr> {
        // The hello was read under the unpaired bounds; from now on the
        // paired ones apply.
        let socket = crate::socket::paired(args.socket).await?;
        let (mut sink, stream) = socket.split();
        sink.send(text(&args.welcome)).await?;
        let reader = tokio::spawn(read(stream, myself));
        Ok(ConnState { node: args.node, sink, waiting: HashMap::new(), reader })
    }

    async fn handle(
        &self,
        myself: ActorRef<ConnMsg>,
        msg: ConnMsg,
        state: &mut ConnState,
    ) -> Result<(), ActorProcessingErr> {
        match msg {
            ConnMsg::Invoke { call_id, command, params, reply } => {
                if reply.is_closed() {
                    return Ok(());
                }
                let frame = GatewayFrame::Invoke { call_id, command, params };
                if let Err(e) = state.sink.send(text(&frame)).await {
                    // Dropping `reply` tells the caller the node is gone.
                    myself.stop(Some(format!("write failed: {e}")));
                    return Ok(());
                }
                state.waiting.insert(call_id, reply);
            }
            ConnMsg::Cancel(call_id) => {
                if state.waiting.remove(&call_id).is_some() {
                    let _ = state.sink.send(text(&GatewayFrame::Cancel { call_id })).await;
                }
            }
            ConnMsg::Incoming(NodeFrame::Result { call_id, value, error }) => {
                if let Some(reply) = state.waiting.remove(&call_id) {
                    let answer = match error {
                        Some(message) => Err(CommandError::from(message)),
                        // `"value": null` deserializes as `None` (serde's
                        // `Option`), so no value is the command's `null`
                        // result, not a lost one.
                        None => Ok(value.unwrap_or(Value::Null)),
                    };
                    let _ = reply.send(answer);
                }
            }
            ConnMsg::Incoming(NodeFrame::Hello { .. }) => {
                myself.stop(Some("protocol error: a second hello".to_owned()));
            }
            ConnMsg::Closed(reason) => {
                tracing::info!(node = %state.node, "node connection ended: {reason}");
                myself.stop(Some(reason));
            }
        }
        Ok(())
    }

    async fn post_stop(&self, _myself: ActorRef<ConnMsg>, state: &mut ConnState) -> Result<(), ActorProcessingErr> {
        state.reader.abort();
        state.waiting.clear();
        let _ = state.sink.close().await;
        Ok(())
    }
}
