//! Host-side errors of the embedding API.
//!
//! Guest mistakes are never Rust errors: they come back as a
//! [`CellResult::Failed`](codemode_bridge::CellResult) the model can read.
//! These are failures of the host itself.

use crate::limits::LimitsError;

/// Why the runtime could not start or answer.
#[derive(Debug, thiserror::Error)]
pub enum CodeModeError {
    /// A limit was out of range.
    #[error(transparent)]
    Limits(#[from] LimitsError),
    /// Two tools share a name, or a tool's name cannot be installed.
    #[error("invalid tool registration: {0}")]
    InvalidTool(String),
    /// The executor could not be started.
    #[error("could not start the cell executor: {0}")]
    Start(String),
    /// The session store failed.
    #[error("session store: {0}")]
    Store(String),
    /// The runtime was shut down (or its executor stopped); no cell can run.
    #[error("the code mode runtime is shut down")]
    ShutDown,
}
