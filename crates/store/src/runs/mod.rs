//! Durable runs: each run's journal, its lease and its end, in the backend
//! the sessions use.
//!
//! The runtime owns what a journal *means* (it is opaque bytes here); this
//! module owns where it lives and who may write it. A run has at most one
//! owner at a time: the process whose lease (`owner`, `lease_until_ms`) is
//! live. Every write of a run's journal or end names its owner and fails
//! with [`RunStoreError::LeaseLost`] when someone else holds the lease, so
//! two processes never both advance a run.
//!
//! [`RunStore`] (`store.rs`) is the contract, with its records and errors
//! (`types.rs`); `tests/run_store.rs` is the suite every backend passes.
//! Two backends: [`SledRuns`] (`sled/`: one process at a time, the
//! embedded default) and `PgRuns` (`postgres/`, feature `postgres`: many
//! processes on one database, `LISTEN/NOTIFY` for [`RunStore::changed`]).

#[cfg(feature = "postgres")]
mod postgres;
mod sled;
mod store;
mod types;

#[cfg(feature = "postgres")]
pub use self::postgres::{MsClock, PgRuns};
pub use self::sled::{RUN_CHUNKS_TREE, RUNS_BY_TIME_TREE, RUNS_TREE, SledRuns};
pub use self::store::{RunFuture, RunStore};
pub use self::types::{
    Claim, Durability, MAX_LIST_RUNS, RunFilter, RunMeta, RunRecord, RunStatus, RunStoreError, RunSummary, RunUsage,
    RunWrites, TakenHook, now_ms,
};
