//! Host-side errors of the embedding API.
//!
//! Guest mistakes are never Rust errors: they come back as a
//! [`CellResult::Failed`](codemode_protocol::CellResult) the model can read.
//! These are failures of the host itself, each a variant a caller can act
//! on, keeping the error it came from.

use std::path::PathBuf;

use codemode_catalog::{RegistryError, SearchError};
use codemode_store::StoreError;
use codemode_store::runs::RunStoreError;

use crate::limits::LimitsError;

/// Why the runtime could not start or answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodeModeError {
    /// A limit (or a `[runs]` setting) was out of range.
    #[error(transparent)]
    Limits(#[from] LimitsError),
    /// Two tools share a name, or a tool's schema cannot be used.
    #[error("invalid tool registration: {0}")]
    InvalidTool(#[from] RegistryError),
    /// The workspace root is not a readable directory.
    #[error("workspace root {root}: {source}")]
    Workspace {
        /// The configured root.
        root: PathBuf,
        /// Why it cannot be used.
        #[source]
        source: std::io::Error,
    },
    /// A thread the runtime needs (a JS thread, the engine factory) could
    /// not be spawned.
    #[error("could not start the runtime's {what} thread: {source}")]
    Threads {
        /// Which threads.
        what: &'static str,
        /// The OS's error.
        #[source]
        source: std::io::Error,
    },
    /// The engine workers (`isolation = "process"`) could not be started:
    /// the first worker, started when the runtime starts, failed — the
    /// program is not a worker, hung, or handed over too late — and why.
    #[error("engine workers: {0}")]
    EngineWorkers(String),
    /// The session store failed (opening it, or a request to it).
    #[error("session store: {0}")]
    Store(#[from] StoreError),
    /// The run store could not be opened.
    #[error("run store: {0}")]
    RunStore(#[from] RunStoreError),
    /// An MCP server's connection actor could not be spawned.
    #[cfg(feature = "mcp")]
    #[error(transparent)]
    Mcp(#[from] codemode_mcp::McpHubError),
    /// The node registry or its gateway could not start.
    #[cfg(feature = "nodes")]
    #[error("nodes: {0}")]
    Nodes(#[from] codemode_nodes::NodeError),
    /// The OS gave no randomness for an unguessable id.
    #[error(transparent)]
    Randomness(#[from] codemode_protocol::ids::NoRandomness),
    /// The supervision tree could not be started.
    #[error("could not start the runtime's supervisor: {0}")]
    Supervisor(#[source] ractor::SpawnErr),
    /// The catalog could not answer.
    #[error("catalog: {0}")]
    Catalog(#[from] SearchError),
    /// The runtime was shut down (or its executor stopped); no cell can run.
    #[error("the code mode runtime is shut down")]
    ShutDown,
}

impl CodeModeError {
    /// Whether the session store is held by another codemode process (a
    /// sled store opens in one process at a time): retrying later may work.
    #[must_use]
    pub fn store_in_use(&self) -> bool {
        matches!(self, Self::Store(StoreError::Locked { .. }))
    }
}

impl From<codemode_store::OpenError> for CodeModeError {
    fn from(e: codemode_store::OpenError) -> Self {
        match e {
            codemode_store::OpenError::Store(e) => Self::Store(e),
            codemode_store::OpenError::Runs(e) => Self::RunStore(e),
            // A runtime opens with `existing_only` off: this is never made.
            e @ codemode_store::OpenError::NoStore(_) => Self::Store(StoreError::Io(e.to_string())),
        }
    }
}
