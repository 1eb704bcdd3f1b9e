//! The nodes as cells and operators see them: plain data the registry
//! publishes and [`resolve`](crate::resolve()) searches.

use serde::Serialize;

/// A paired node as cells see it (`nodes.list()`, GA-10.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeInfo {
    /// The node's id.
    pub id: String,
    /// Its display name (its id when it gave none).
    pub name: String,
    /// Its platform.
    pub platform: String,
    /// Whether it is connected now.
    pub connected: bool,
    /// The commands it advertises that the policy allows.
    pub commands: Vec<String>,
    /// When it was last connected (ms since the epoch); not shown to cells.
    #[serde(skip)]
    pub last_seen_ms: Option<u64>,
}

/// A node that asked to pair without valid credentials. Its fields are
/// what it presented, cut to the hello bounds (an id to [`MAX_ID_CHARS`](crate::protocol::MAX_ID_CHARS),
/// a name to [`MAX_NAME_CHARS`](crate::protocol::MAX_NAME_CHARS), a platform to [`MAX_PLATFORM_CHARS`](crate::protocol::MAX_PLATFORM_CHARS), the
/// reason to [`MAX_PENDING_REASON_CHARS`](crate::MAX_PENDING_REASON_CHARS); a cut field ends in `…`) with
/// control characters replaced, since strangers choose them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingNode {
    /// The id it presented.
    pub id: String,
    /// The name it presented.
    pub name: String,
    /// Its platform.
    pub platform: String,
    /// Why it was refused.
    pub reason: String,
}
