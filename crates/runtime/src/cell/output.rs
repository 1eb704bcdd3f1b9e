//! The cell's output ledger: what has been delivered, across all windows.

use codemode_bridge::{Output, OutputEntry};

/// Delivers output incrementally: each entry exactly once, in order.
#[derive(Debug)]
pub(crate) struct OutputLedger {
    #[expect(dead_code, reason = "the output budget arrives with GA-4.8")]
    max_bytes: usize,
}

impl OutputLedger {
    pub(crate) fn new(max_bytes: usize) -> Self {
        Self { max_bytes }
    }

    /// The entries produced since the previous observation.
    pub(crate) fn deliver(&mut self, entries: Vec<OutputEntry>) -> Output {
        Output::Entries(entries)
    }
}
