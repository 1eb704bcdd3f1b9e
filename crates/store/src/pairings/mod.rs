//! The node pairings, kept beside the sessions so they survive restarts.
//!
//! `codemode-nodes` defines what a pairing store does
//! ([`PairingStore`](codemode_nodes::PairingStore)); the backends are here,
//! beside the rest of each backend's code, and this crate depends on
//! `codemode-nodes` for the trait only: nodes depends on neither this crate
//! nor a database, so the arrow adds no cycle. Which one a store uses is
//! its session backend's choice (`Database::pairings`).
//! `tests/pairing_store.rs` is the contract every backend passes.
//!
//! - [`SledPairings`]: a tree of the sled database, one process at a time.
//! - `PgPairings` (feature `postgres`): a table every process on the
//!   database shares; `LISTEN/NOTIFY` announces other processes' changes.

#[cfg(feature = "postgres")]
mod postgres;
mod sled;

#[cfg(feature = "postgres")]
pub use self::postgres::PgPairings;
pub use self::sled::{PAIRINGS_TREE, SledPairings};
