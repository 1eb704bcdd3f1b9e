//! The PostgreSQL backend (feature `postgres`): sessions, results and run
//! journals shared by many codemode processes on one database.
//!
//! One connection pool per process ([`Pg`]); the schema is created and
//! upgraded by the embedded, versioned migrations below, applied at
//! connect under an advisory lock so processes starting together do not
//! race.

use std::time::Duration;

/// One embedded schema migration. Versions only grow; a migration, once
/// released, is never edited (add a new one instead).
pub(crate) struct Migration {
    pub version: i64,
    pub name: &'static str,
    pub sql: &'static str,
}

/// Every migration, in version order.
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration { version: 1, name: "sessions", sql: include_str!("migrations/0001_sessions.sql") },
    Migration { version: 2, name: "results", sql: include_str!("migrations/0002_results.sql") },
    Migration { version: 3, name: "runs", sql: include_str!("migrations/0003_runs.sql") },
];

/// How long a pooled connection may be waited for.
pub(crate) const POOL_WAIT: Duration = Duration::from_secs(10);

/// A connection pool to one database, migrated to [`MIGRATIONS`].
#[derive(Clone)]
pub struct Pg {
    pub(crate) pool: deadpool_postgres::Pool,
    /// The URL without its password, for messages.
    pub(crate) shown: String,
}

impl std::fmt::Debug for Pg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pg").field("url", &self.shown).finish_non_exhaustive()
    }
}
