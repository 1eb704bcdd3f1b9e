//! How a run ended: one typed end shared by the runtime's run index, the
//! run store's records and the operator's `codemode runs` commands.

use std::fmt;

/// How a cell's run ended (GA-1.5), plus the host-side ends: a crashed
/// cell actor and a replay that diverged from its journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunEnd {
    /// The cell returned and its store writes committed.
    Completed,
    /// The cell threw, was refused, or could not run.
    Failed,
    /// Guest code ran past its budget.
    TimedOut,
    /// A host or client aborted it.
    Aborted,
    /// Parked idle past its time-to-live.
    Expired,
    /// The host let it go (a closed connection, a disposed session).
    Disposed,
    /// Its cell actor crashed.
    Crashed,
    /// Resumed by replay, it made a request, read or settlement its
    /// journal does not account for, and was stopped rather than resumed
    /// wrongly.
    ReplayDiverged,
    /// It outgrew what a journal keeps and lived in one process's memory
    /// only; that process stopped, so nothing could resume it.
    Lost,
    /// Its journal was never stored whole, or is damaged (its process or
    /// the database stopped in the middle of a write it could not finish):
    /// nothing could resume it, so it was ended rather than left to hang.
    Unrecoverable,
}

/// A stored end label no end has: a record written by a newer codemode,
/// or damaged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown run end {0:?}: written by a newer codemode, or damaged")]
pub struct UnknownRunEnd(pub String);

impl RunEnd {
    /// Every end, in label order of the metrics.
    pub const ALL: [Self; 10] = [
        Self::Completed,
        Self::Failed,
        Self::TimedOut,
        Self::Aborted,
        Self::Expired,
        Self::Disposed,
        Self::Crashed,
        Self::ReplayDiverged,
        Self::Lost,
        Self::Unrecoverable,
    ];

    /// The label stored, shown and used in metrics (`timed_out`, …).
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::TimedOut => "timed_out",
            Self::Aborted => "aborted",
            Self::Expired => "expired",
            Self::Disposed => "disposed",
            Self::Crashed => "crashed",
            Self::ReplayDiverged => "replay_diverged",
            Self::Lost => "lost",
            Self::Unrecoverable => "unrecoverable",
        }
    }

    /// The end whose label is `label`.
    ///
    /// # Errors
    /// [`UnknownRunEnd`] for any other text.
    pub fn parse(label: &str) -> Result<Self, UnknownRunEnd> {
        Self::ALL.into_iter().find(|e| e.label() == label).ok_or_else(|| UnknownRunEnd(label.to_owned()))
    }

    /// Why a `wait` on a run that ended this way finds nothing to resume.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Self::Completed => "it already completed",
            Self::Failed => "it already failed",
            Self::TimedOut => "it timed out",
            Self::Aborted => "it was aborted",
            Self::Expired => "it expired after being parked idle past its time-to-live",
            Self::Disposed => "it was disposed",
            Self::Crashed => "its host actor crashed",
            Self::ReplayDiverged => "its replay diverged from its journal",
            Self::Lost => {
                "it outgrew what a journal keeps and lived in one codemode process's memory only, and that process \
                 stopped"
            }
            Self::Unrecoverable => {
                "its journal was never stored whole or is damaged (a crash cut a write short), so nothing could \
                 resume it"
            }
        }
    }
}

impl fmt::Display for RunEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_end_parses_from_its_label_and_other_text_is_refused() {
        for end in RunEnd::ALL {
            assert_eq!(RunEnd::parse(end.label()), Ok(end));
        }
        assert_eq!(RunEnd::parse("finished"), Err(UnknownRunEnd("finished".into())));
    }
}
