//! Who a cell is: its run, how it is bound to its host, and its span.

use std::time::Instant;

use ractor::ActorRef;

use super::mode::CellMode;
use super::msg::CellMsg;

/// What a cell is, fixed when it starts.
pub(crate) struct RunInfo {
    pub run_id: String,
    pub mode: CellMode,
    /// The cell's wrapped source, exactly as compiled.
    pub wrapped: String,
    /// When the actor started.
    pub started: Instant,
    /// The cell's own actor: host work and timers message it.
    pub myself: ActorRef<CellMsg>,
    /// The cell's span; closed when the cell's state is dropped.
    pub span: tracing::Span,
}
