//! What codemode keeps beyond a cell: session values, per-reply results,
//! durable runs and the node pairings, each on sled (embedded, one process
//! at a time) or PostgreSQL (feature `postgres`, shared by many processes).
//!
//! One folder per concept, each with one seam its backends implement and
//! one contract suite every backend passes:
//!
//! | concept | handle / contract | backends | suite |
//! |---|---|---|---|
//! | sessions (`sessions/`) | [`SessionStore`], a handle over `SessionBackend` | sled (an actor owns the write path), PostgreSQL | `sessions/suite.rs` |
//! | results (`results/`) | [`ResultsCache`], a handle over `ResultsBackend` | in memory (an actor), PostgreSQL | `results/suite.rs` |
//! | runs ([`runs`]) | the [`runs::RunStore`] trait | [`runs::SledRuns`], `runs::PgRuns` | `tests/run_store.rs` |
//! | pairings (`pairings/`) | `codemode_nodes::PairingStore` (feature `nodes`) | [`SledPairings`], `PgPairings` | `tests/pairing_store.rs` |
//!
//! - [`SessionStore`]: `store`/`load` values of a session, committed only
//!   when a cell completes (GA-7). Sessions unused for longer than the
//!   retention (default 30 days) are deleted. Cheap to clone; on sled its
//!   actor is found by a registered name, so a supervisor can restart it.
//! - [`ResultsCache`]: `results.save/load/delete`, scoped to one reply and
//!   bounded in count and bytes (GA-6.5); [`preview`] is the bounded
//!   descriptor a model sees of a saved result.
//! - [`runs`]: durable runs — each run's journal, lease and end. On sled a
//!   run's end commits with its session writes in one transaction through
//!   the session store's actor; on PostgreSQL in one database transaction.
//! - The node pairings (feature `nodes`, on by default) live beside the
//!   sessions: [`Database::pairings`] picks its backend's. Without the
//!   feature this crate depends on no node or WebSocket code.
//! - [`open`] is the one place a backend is chosen ([`StoreBackend`]): it
//!   opens the [`Database`] with every concept's handle over one
//!   connection.
//! - [`postgres`] holds only what every PostgreSQL backend shares: the
//!   pool ([`Pg`]), the versioned migrations and the `LISTEN` connection.
//!
//! Every failure is typed: [`StoreError`] (sessions, opening a store),
//! [`ResultsError`], [`runs::RunStoreError`].
//!
//! Files: this crate owns its database files, so it uses `std::fs` (the
//! sled run log, `runs/sled/wal.rs`; sled itself opens the database
//! directory), and its PostgreSQL test helper reads the test server's URL
//! from the environment (`postgres::test_database`, tests only).

#![deny(clippy::unwrap_used, clippy::expect_used)]

pub mod audit;
mod database;
mod error;
mod lru;
#[cfg(feature = "nodes")]
mod pairings;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod preview;
mod results;
pub mod runs;
mod sessions;
mod value;

#[cfg(feature = "nodes")]
pub use database::node_pairings;
pub use database::{Database, OpenError, OpenOptions, StoreBackend, open};
pub use error::{IN_USE_PHRASE, StoreError};
#[cfg(all(feature = "nodes", feature = "postgres"))]
pub use pairings::PgPairings;
#[cfg(feature = "nodes")]
pub use pairings::{PAIRINGS_TREE, SledPairings};
#[cfg(feature = "postgres")]
pub use postgres::Pg;
pub use results::{
    ResultsCache, ResultsError, ResultsHeld, ResultsLimits, ResultsStatsSnapshot, Scope, results_declaration,
};
pub use sessions::{
    Clock, DEFAULT_SESSION_RETENTION, SessionStore, StoreLimits, StoredValue, SystemClock, validate_key, validate_value,
};
