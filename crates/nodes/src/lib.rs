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

#![deny(clippy::unwrap_used, clippy::expect_used)]

// Modules depend one way, top to bottom: `protocol`, `throttle`, `peer`,
// `node` and `pairing` know nothing else of the crate, `error` only
// `pairing`; `hello`, `socket` and
// `resolve` build on them; `connection` and `gateway` on those (the
// gateway hands peers to any `gateway::Admit`); `registry` on everything.
mod config;
mod connection;
mod error;
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
pub use error::{InvokeError, NodeError};
pub use node::{NodeInfo, PendingNode};
pub use pairing::{
    CODE_LIFETIME, MemoryPairings, Pairing, PairingChange, PairingFuture, PairingStore, PairingStoreError,
};
pub use registry::{MAX_PENDING, MAX_PENDING_REASON_CHARS, NodeRegistry};
pub use resolve::{ResolveError, ResolvedNode, resolve};
pub use throttle::{Clock, GatewayLimits};
