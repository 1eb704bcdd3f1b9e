//! How a cell is bound to its host: a session, or none.

/// How a cell is bound to its host; carried on every host request so that
/// session-bound helpers can refuse headless and restart-safe cells.
/// Internal: hosts choose it through `Session::reply` and `CodeMode::headless`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CellMode {
    /// Bound to a session and a reply; can park and be resumed.
    Interactive {
        /// The owning session.
        session: String,
        /// The reply (model turn) the cell belongs to.
        reply: String,
        /// The cell must be safe to replay after a host restart.
        restart_safe: bool,
        /// No one can decide approvals for the cell: an asked call is
        /// refused at once, as in a headless cell.
        unattended: bool,
    },
    /// An automation script: no session, runs to completion in one call.
    Headless,
}

impl CellMode {
    /// Whether the cell is an automation script (no session, no `wait`).
    pub(crate) fn is_headless(&self) -> bool {
        matches!(self, Self::Headless)
    }

    /// Whether someone can decide the cell's approvals: not in a headless
    /// or unattended cell, where an asked call is refused at once.
    pub(crate) fn has_approver(&self) -> bool {
        matches!(self, Self::Interactive { unattended: false, .. })
    }

    /// The session the cell belongs to.
    pub(crate) fn session(&self) -> Option<&str> {
        match self {
            Self::Interactive { session, .. } => Some(session),
            Self::Headless => None,
        }
    }

    /// Whether the cell must be safe to replay after a host restart.
    pub(crate) fn restart_safe(&self) -> bool {
        matches!(self, Self::Interactive { restart_safe: true, .. })
    }
}
