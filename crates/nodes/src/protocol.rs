//! The node wire protocol: JSON text frames over one WebSocket.
//!
//! A node host opens the socket and sends [`NodeFrame::Hello`] first. The
//! gateway answers [`GatewayFrame::Welcome`] (paired; carries a freshly
//! issued secret when the node paired just now) or [`GatewayFrame::Refused`]
//! and closes. After the welcome the gateway sends `invoke`/`cancel` and the
//! node answers each invoke with exactly one [`NodeFrame::Result`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// The command that lists a directory; a handle has `listDir` only when the
/// node advertises it (GA-10.4).
pub const LIST_DIR_COMMAND: &str = "fs.listDir";

/// Reserved for the shell exec tool with a node host, never reachable
/// through `nodes` (GA-10.4).
pub const RESERVED_EXEC_COMMAND: &str = "system.run";

/// The largest frame either side accepts once a node is paired.
pub const MAX_FRAME_BYTES: usize = 8 * 1024 * 1024;

/// The largest hello (the first frame, and any message before it) the
/// gateway reads from a peer that is not paired yet: a stranger cannot make
/// it buffer more. A hello with every field at its bound fits in compact
/// JSON.
pub const MAX_HELLO_BYTES: usize = 64 * 1024;

/// The longest node id, in characters (at least one).
pub const MAX_ID_CHARS: usize = 128;
/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 128;
/// The longest platform, in characters.
pub const MAX_PLATFORM_CHARS: usize = 64;
/// The most commands a node advertises.
pub const MAX_COMMANDS: usize = 256;
/// The longest command name, in characters (at least one).
pub const MAX_COMMAND_CHARS: usize = 128;
/// The longest secret a node presents (issued secrets have 64).
pub const MAX_SECRET_CHARS: usize = 128;
/// The longest pairing code a node presents, separators included (codes
/// have 8 letters and digits).
pub const MAX_CODE_CHARS: usize = 64;
/// The longest pairing token a node presents; a configured token longer
/// than this never matches.
pub const MAX_TOKEN_CHARS: usize = 256;

/// How a node proves it may pair or reconnect.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Credentials {
    /// The secret the gateway issued at pairing (reconnects).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// A one-time pairing code printed by the gateway.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// A pre-approved token from the gateway's configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

/// Why a node's command failed: the message the node sends back in its
/// [`NodeFrame::Result`], which the cell that invoked it reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    message: String,
}

impl CommandError {
    /// A failure described by `message` (what went wrong, and what the
    /// caller can do about it).
    pub fn new(message: impl Into<String>) -> Self {
        Self { message: message.into() }
    }

    /// The message.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The message, owned.
    #[must_use]
    pub fn into_message(self) -> String {
        self.message
    }
}

impl From<String> for CommandError {
    fn from(message: String) -> Self {
        Self { message }
    }
}

impl From<&str> for CommandError {
    fn from(message: &str) -> Self {
        Self::new(message)
    }
}

/// A frame from a node host to the gateway.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum NodeFrame {
    /// The first frame: who the node is and what it can do.
    #[serde(rename_all = "camelCase")]
    Hello {
        /// [`PROTOCOL_VERSION`].
        version: u32,
        /// The node's stable id.
        id: String,
        /// Its display name.
        name: String,
        /// Its platform (`linux`, `macos`, …).
        platform: String,
        /// The commands it offers.
        commands: Vec<String>,
        /// How it proves it may pair.
        #[serde(flatten)]
        credentials: Credentials,
    },
    /// The answer to one invoke.
    #[serde(rename_all = "camelCase")]
    Result {
        /// The invoke's id.
        call_id: u64,
        /// The command's result, when it succeeded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<Value>,
        /// Why it failed, when it did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

/// A frame from the gateway to a node host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum GatewayFrame {
    /// The node is paired and connected.
    #[serde(rename_all = "camelCase")]
    Welcome {
        /// A newly issued secret (only when the node paired just now): keep
        /// it and present it when reconnecting.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        secret: Option<String>,
    },
    /// The node may not connect; the gateway closes the socket.
    Refused {
        /// Why, and what to do.
        reason: String,
    },
    /// Run a command.
    #[serde(rename_all = "camelCase")]
    Invoke {
        /// Echoed back in the result.
        call_id: u64,
        /// The command.
        command: String,
        /// Its parameters.
        params: Value,
    },
    /// The caller stopped waiting: stop the command.
    #[serde(rename_all = "camelCase")]
    Cancel {
        /// The invoke's id.
        call_id: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_use_camel_case_tags_and_flatten_credentials() {
        let hello = NodeFrame::Hello {
            version: 1,
            id: "n1".into(),
            name: "Laptop".into(),
            platform: "linux".into(),
            commands: vec!["device.status".into()],
            credentials: Credentials { code: Some("ABCD-EFGH".into()), ..Credentials::default() },
        };
        let text = serde_json::to_string(&hello).unwrap();
        assert_eq!(
            text,
            r#"{"type":"hello","version":1,"id":"n1","name":"Laptop","platform":"linux","commands":["device.status"],"code":"ABCD-EFGH"}"#
        );
        assert_eq!(serde_json::from_str::<NodeFrame>(&text).unwrap(), hello);
        let invoke = GatewayFrame::Invoke { call_id: 7, command: "x".into(), params: serde_json::json!({}) };
        assert_eq!(
            serde_json::to_string(&invoke).unwrap(),
            r#"{"type":"invoke","callId":7,"command":"x","params":{}}"#
        );
    }
}
