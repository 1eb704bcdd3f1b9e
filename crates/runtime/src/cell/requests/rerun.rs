//! Whether a crash may run a request again: the fact about each request
//! kind that decides its write-ahead and the `restartSafe` refusal.

/// What a crash may do with a request that was in flight: whether the
/// process that resumes the run may run it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rerun {
    /// A read, or an effect kept in the cell itself (a `store` is buffered
    /// in the cell, and the buffer is in the journal's snapshot): asking
    /// again gives a valid answer.
    Repeatable,
    /// An effect outside the cell its tool declares safe to repeat.
    ReplaySafe,
    /// An effect outside the cell that must never run twice (`what` names
    /// it): held until a stored journal records it (write-ahead), and after
    /// a crash rejected with `outcome_unknown` instead of run again.
    Once(String),
    /// Restored from the journal's snapshot (timers, yields), never
    /// re-issued.
    Restored,
}

impl Rerun {
    /// Whether the request may only start once a stored journal records it.
    pub(crate) fn needs_write_ahead(&self) -> bool {
        matches!(self, Self::Once(_))
    }
}
