//! The node registry's errors: a host-side failure ([`NodeError`]) and why
//! an `invoke` produced no result ([`InvokeError`]).

use crate::pairing::PairingStoreError;

/// A host-side failure of the node registry.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    /// The pairing table could not be read or written.
    #[error("node pairing store failed: {0}")]
    Store(#[from] PairingStoreError),
    /// The gateway could not listen.
    #[error("node gateway could not listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The registry actor is not running.
    #[error("node registry unavailable: {0}")]
    Unavailable(String),
    /// The operating system gave no randomness for a pairing code or a
    /// node secret; none was issued (a guessable one would let anyone pair).
    #[error("{0}; no pairing code or secret was issued. Check the operating system's random source, then retry")]
    NoRandomness(#[from] codemode_protocol::ids::NoRandomness),
}

/// Why an `invoke` did not produce a result. The text is what the guest
/// reads as the error's message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvokeError {
    /// The host policy denied the call (GA-10.3); it never reached the
    /// registry's own checks.
    #[error("nodes.invoke \"{command}\" on node \"{node}\" was denied by policy: {reason}")]
    PolicyDenied {
        /// The node.
        node: String,
        /// The command.
        command: String,
        /// The policy's reason, for the model.
        reason: String,
    },
    /// No paired node has this id.
    #[error("node \"{0}\" is not paired")]
    NotPaired(String),
    /// The node is paired but not connected.
    #[error("node \"{node}\" is not connected (last seen {last_seen}); retry once it reconnects")]
    NotConnected {
        /// The node.
        node: String,
        /// When it was last connected (RFC 3339-like UTC), or `never`.
        last_seen: String,
    },
    /// `system.run` is reserved for the shell exec tool.
    #[error("\"system.run\" is reserved for the shell exec tool with a node host; nodes cannot run it")]
    Reserved,
    /// The node does not offer the command.
    #[error("node \"{node}\" does not offer \"{command}\" (it offers: {offered})")]
    NotOffered {
        /// The node.
        node: String,
        /// The command asked for.
        command: String,
        /// What it offers, comma-separated.
        offered: String,
    },
    /// The gateway's command policy does not allow the command on this
    /// node; it never left the gateway.
    #[error("command \"{command}\" is not allowed on node \"{node}\" by the gateway's command policy")]
    Denied {
        /// The node.
        node: String,
        /// The command.
        command: String,
    },
    /// The node went away while the command ran.
    #[error("node \"{node}\" disconnected while running \"{command}\"; the command's outcome is unknown")]
    Disconnected {
        /// The node.
        node: String,
        /// The command.
        command: String,
    },
    /// The node did not answer in time; the command was cancelled.
    #[error("node \"{node}\" did not answer \"{command}\" within {ms} ms; the command was cancelled")]
    Timeout {
        /// The node.
        node: String,
        /// The command.
        command: String,
        /// The timeout.
        ms: u128,
    },
    /// The node ran the command and reported an error.
    #[error("node \"{node}\" failed \"{command}\": {message}")]
    Failed {
        /// The node.
        node: String,
        /// The command.
        command: String,
        /// The node's message.
        message: String,
    },
    /// The registry is not running.
    #[error("node registry unavailable")]
    Unavailable,
}
