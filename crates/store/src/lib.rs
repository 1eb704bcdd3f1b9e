//! Durable session state and per-reply results for codemode.
//!
//! - [`SessionStore`]: `store`/`load` values of a session, kept in sled and
//!   committed only when a cell completes (GA-7). Sessions unused for
//!   longer than the retention (default 30 days) are deleted.
//! - [`ResultsCache`]: `results.save/load/delete`, scoped to one reply and
//!   bounded in count and bytes (GA-6.5).
//! - [`preview`]: the bounded descriptor a model sees of a saved result.
//! - `SledPairings` (feature `nodes`, on by default): the node registry's
//!   pairings, in a tree of the same database, and `PgPairings` (with
//!   `postgres` too) in PostgreSQL, shared by every process on it
//!   (`SessionStore::node_pairings` picks the store's backend). Without the
//!   feature this crate depends on no node or WebSocket code.
//!
//! - [`runs`]: durable runs — each run's journal, lease and end
//!   ([`runs::RunStore`]), on sled or PostgreSQL (feature `postgres`).
//!
//! Both stores are actors behind typed handles; the handles find their
//! actor by a registered name, so a supervisor can restart it.

mod lru;
#[cfg(feature = "nodes")]
mod pairings;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod preview;
mod results;
pub mod runs;
mod session;

#[cfg(feature = "nodes")]
pub use pairings::{PAIRINGS_TREE, SledPairings};
#[cfg(feature = "postgres")]
pub use postgres::Pg;
#[cfg(all(feature = "nodes", feature = "postgres"))]
pub use postgres::pairings::PgPairings;
pub use results::{
    ResultsCache, ResultsError, ResultsHeld, ResultsLimits, ResultsStatsSnapshot, Scope, results_declaration,
};
pub use session::{
    Clock, DEFAULT_SESSION_RETENTION, IN_USE_PHRASE, SessionStore, StoreError, StoreLimits, StoredValue, SystemClock,
    validate_key, validate_value,
};
