//! A cell on its way out: one whose top-level promise resolved first
//! drains the host requests it did not await, then waits for its
//! reference and commit; one that ends any other way waits for its
//! record to say so before it reports.

use super::services;
use codemode_protocol::{CellResult, Output};
use ractor::RpcReplyPort;
use serde_json::Value;

use crate::cell::output::OutputLimitExceeded;

/// Where a resolved cell is on its way to `completed`.
pub(crate) enum Ending {
    /// Waiting for the host requests it did not await.
    Draining(Draining),
    /// Its reference and commit are on their way.
    Finishing(Box<Finishing>),
    /// It failed, was aborted or timed out: its record is ending, and the
    /// end is reported once it is recorded.
    Recording(Box<Recording>),
}

impl Ending {
    /// A cell that resolved with `value`, now draining.
    pub(crate) fn draining(value: Value) -> Self {
        Self::Draining(Draining { value, warnings: Vec::new() })
    }
}

/// A returned cell waiting for the host requests it did not await.
pub(crate) struct Draining {
    pub value: Value,
    pub warnings: Vec<String>,
}

/// The value as delivered: its output, the value (or its truncation
/// marker) and whether it was truncated; or why nothing of it fit.
pub(crate) type Delivered = Result<(Output, Value, bool), OutputLimitExceeded>;

/// A completed cell waiting for its reference and commit.
pub(crate) struct Finishing {
    /// The value as delivered, until the result is built (after its
    /// reference, when it needs one).
    pub delivered: Option<Delivered>,
    /// The result to report, once built: reported after the commit.
    pub result: Option<CellResult>,
    /// The store writes to commit.
    pub commit: Option<services::Commit>,
    /// The run's record, which the commit ends.
    pub run: Option<crate::durable::RecordCommit>,
    /// Bytes of the values being committed, for metrics.
    pub commit_bytes: usize,
    /// The commit ends the run's record too: if it fails, nothing was
    /// kept and the cell fails.
    pub through_record: bool,
    /// Warnings gathered before the commit (requests drained at the end).
    pub warnings: Vec<String>,
    /// Aborts that arrived meanwhile: they get the final result too.
    pub also_reply: Vec<RpcReplyPort<CellResult>>,
}

/// A cell whose end (not `completed`) is being recorded.
pub(crate) struct Recording {
    /// What its observers are told once the end is recorded.
    pub result: CellResult,
    pub end: codemode_protocol::RunEnd,
    /// Its observer, and waits and aborts that arrived meanwhile.
    pub replies: Vec<RpcReplyPort<CellResult>>,
}
