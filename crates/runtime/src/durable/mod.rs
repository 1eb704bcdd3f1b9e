//! Durable runs: where sessions, results and run journals live, and how a
//! run is journaled, handed off and resumed by replay on any process.
//!
//! A parked cell cannot be saved as memory (QuickJS has no heap
//! snapshots), so a run is made durable by its *journal*: everything
//! non-deterministic the cell observed, in order ([`journal`]). Any process
//! can resume the run by running the same code in a fresh context and
//! answering its host requests from the journal ([`replay`]).
//!
//! The cell sees one part, [`Durability`]: it calls it when it makes a
//! request, steps, parks and ends, and hands it the replay to run before
//! it goes live. Everything else here serves that part — the journal's
//! format and writer, the record's commit — or the runtime: opening the
//! backend, resuming stored runs for `wait` and `abort` ([`resume`]),
//! housekeeping.

mod claim;
pub(crate) mod commit;
pub(crate) mod config;
mod housekeeping;
pub(crate) mod journal;
pub mod operator;
mod ride_out;

pub(crate) use claim::wait_for_holder;
pub(crate) use commit::{EndNotRecorded, RecordCommit, keep, kept};
pub(crate) use config::{DurableArgs, JournalQuota};
pub use config::{JournalMode, RunsConfig, StoreBackend};
pub(crate) use housekeeping::start_pruning;
pub(crate) use ride_out::riding_out;
