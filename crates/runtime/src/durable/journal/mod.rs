//! A run's journal: what the cell observed, so a fresh context can replay
//! it.
//!
//! QuickJS cannot snapshot a heap, so a parked run is made durable by
//! recording everything non-deterministic its cell saw, in order:
//!
//! - every host request it made, as a fingerprint of the method, what it
//!   refers to (by identity, see `fingerprint.rs`) and its arguments, by
//!   request id (ids are handed out in order, so the same code given the
//!   same answers makes the same requests with the same ids);
//! - every *step* — the settlements delivered together before the guest ran
//!   its jobs — with each settlement's reply;
//! - the clock (`Date`, `performance.now`) values it read, the seed of its
//!   `Math.random`, and the answers to its synchronous reads of the host's
//!   configuration (a tool handle's metadata, the MCP namespace), so a
//!   resume after a deploy sees what the run saw;
//! - the tool table its engine was made with (callable name and catalog id
//!   per global), so a replay installs the same globals even when the
//!   deploy added, removed or reordered tools.
//!
//! Replay runs the same code in a fresh context: each request is checked
//! against its fingerprint and answered from the journal's steps, never
//! executed again; past the journal's end the cell runs live. A request,
//! a read or a settlement the journal does not account for is a
//! divergence: the run fails with `replay_diverged`, never resumes wrongly.
//!
//! Encoding (format 2, `codec.rs`): the magic `CMJ2`, then segments, each
//! with its kind, length and CRC-32. The first is the header; every write
//! of the journal appends one *delta* segment with what is new since the
//! last write, so a park costs what happened since the previous one, not
//! the whole run. Format 1 (`CMJ1`, one JSON header and every step, written
//! whole at each park) is still read; a run with approvals also appends an
//! *approvals* segment (kind 3) with each write, and a run whose MCP calls
//! ran as tasks a *tasks* segment (kind 4): a build that predates either
//! refuses such a journal (an unknown segment kind) and leaves the run
//! parked, rather than run an asked call unasked or call a tool again whose
//! task is running; the first write after resuming a format-1 journal
//! replaces it with format 2.

pub(crate) mod codec;
pub(crate) mod fnv;
mod model;
mod recorder;
mod values;

pub(crate) use fnv::Identities;
pub use model::{ApprovalLog, ApprovalRecord, DecisionRecord, InboxEntry};
pub(crate) use model::{FORMAT, Header, Journal, JournalError, MAX_JOURNAL_BYTES, Snapshot, ToolRef, ToolRefs};
pub(crate) use model::{TaskLog, TaskRecord, WriteBuffer};
pub(crate) use recorder::{Reads, Recorder, Segments};
pub(crate) use values::{buffer_of, read_settlement, settlement_value};

#[cfg(test)]
mod tests;
