//! The node registry of codemode: paired devices that cells reach through
//! the `nodes` global (GA-10).
//!
//! A node host (for example `codemode node`) connects to the gateway over a
//! WebSocket, says who it is and which commands it offers, and is paired
//! only after approval: a one-time pairing code the gateway printed, or a
//! pre-approved token from the gateway's configuration. Pairing issues a
//! secret the node presents on every reconnect; pairings are kept by a
//! [`PairingStore`] (the runtime uses the session store's backend), so
//! they survive gateway restarts; on a shared backend a node paired
//! through one gateway process reconnects to any other.
//!
//! - [`NodeRegistry`]: the typed handle over the registry actor (one
//!   connection actor per connected node, linked to it). `list`, `resolve`
//!   and `invoke` serve cells — every invoke is put to the host
//!   [`Policy`](codemode_catalog::policy::Policy) the registry was started
//!   with; `pairing_code`, `revoke` and `pending` serve operators.
//! - [`protocol`]: the JSON frames both sides speak.
//! - [`PairingStore`]: where pairings persist (a trait: this crate has no
//!   database of its own).
//! - [`GatewayLimits`]: how the gateway resists unauthenticated peers: a
//!   small bound on everything read before pairing
//!   ([`protocol::MAX_HELLO_BYTES`] and the field bounds), back-off per
//!   address for wrong codes and tokens, a code replaced after repeated
//!   wrong guesses, and rate-limited refusal logs.

// Modules depend one way, top to bottom: `protocol`, `throttle`, `peer`
// and `node` know nothing else of the crate; `hello`, `socket` and
// `resolve` build on them; `connection` and `gateway` on those (the
// gateway hands peers to any `gateway::Admit`); `registry` on everything.
mod config;
mod connection;
mod gateway;
mod hello;
pub mod host;
mod node;
mod pairing;
mod peer;
pub mod protocol;
mod registry;
mod resolve;
mod socket;
mod throttle;

pub use config::{CodeCallback, CommandPolicy, NodesConfig};
pub use node::{NodeInfo, PendingNode};
pub use pairing::{
    CODE_LIFETIME, MemoryPairings, Pairing, PairingChange, PairingFuture, PairingStore, PairingStoreError,
};
pub use registry::{MAX_PENDING, MAX_PENDING_REASON_CHARS, NodeRegistry};
pub use resolve::{ResolveError, ResolvedNode, resolve};
pub use throttle::{Clock, GatewayLimits};

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
