//! What every PostgreSQL backend shares (feature `postgres`): the
//! connection pool ([`Pg`]), the schema, and the `LISTEN` connection
//! (`listen.rs`). The sessions, results, runs and node pairings on
//! PostgreSQL are each in their concept's folder, built on this.
//!
//! One connection pool per process; the schema is created and upgraded by
//! the embedded, versioned migrations below, applied at connect under an
//! advisory lock so processes starting together do not race.
//!
//! Tests that need a server call [`test_database`] (feature `test-hooks`,
//! or this crate's own tests): it reads `CODEMODE_TEST_POSTGRES_URL`, which
//! `scripts/test.sh` sets after starting a throwaway cluster
//! (`scripts/postgres.sh`), and creates a fresh database per call.

pub(crate) mod listen;

use std::str::FromStr;
use std::time::Duration;

use tokio_postgres::NoTls;
use tokio_postgres::config::Host;

use crate::error::StoreError;

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
    Migration { version: 4, name: "results_saved", sql: include_str!("migrations/0004_results_saved.sql") },
    Migration { version: 5, name: "node_pairings", sql: include_str!("migrations/0005_node_pairings.sql") },
    Migration { version: 6, name: "run_chunks", sql: include_str!("migrations/0006_run_chunks.sql") },
    Migration { version: 7, name: "operator_audit", sql: include_str!("migrations/0007_operator_audit.sql") },
];

/// How long a pooled connection may be waited for.
pub(crate) const POOL_WAIT: Duration = Duration::from_secs(10);

/// The advisory lock key migrations run under (any constant every codemode
/// agrees on; this is "codemode" in ASCII, truncated to 63 bits).
const MIGRATION_LOCK: i64 = 0x636f_6465_6d6f_6465;

/// The largest pool [`Pg::connect`] accepts.
pub const MAX_POOL_SIZE: usize = 1024;

/// A connection pool to one database, migrated to this build's schema.
#[derive(Clone)]
pub struct Pg {
    pub(crate) pool: deadpool_postgres::Pool,
    /// The parsed URL, for connections outside the pool (the `LISTEN`
    /// connection of [`PgRuns`](crate::runs::PgRuns)).
    /// Shared: a `Config` is a few hundred bytes, and `Pg` is cloned into
    /// every handle.
    pub(crate) config: std::sync::Arc<tokio_postgres::Config>,
    /// The URL without its password, for messages.
    pub(crate) shown: String,
}

impl std::fmt::Debug for Pg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pg").field("url", &self.shown).finish_non_exhaustive()
    }
}

impl Pg {
    /// Connects to the database at `url` (`postgres://user@host:port/db`
    /// or `host=… user=… dbname=…`) with a pool of `pool_size` connections
    /// (1–1,024), checks that a connection works, and brings the schema up
    /// to this build's migrations (in one transaction, under an advisory
    /// lock, so processes starting together apply each migration once).
    ///
    /// Connections are plain TCP or Unix sockets (no TLS): run the database
    /// on a trusted network or a local socket.
    ///
    /// # Errors
    /// [`StoreError::PoolSize`]; [`StoreError::Connect`] when the URL does
    /// not parse or no connection can be made; [`StoreError::SchemaTooNew`]
    /// when a newer codemode migrated the database;
    /// [`StoreError::Database`] when a migration fails (nothing applied).
    pub async fn connect(url: &str, pool_size: usize) -> Result<Self, StoreError> {
        if pool_size == 0 || pool_size > MAX_POOL_SIZE {
            return Err(StoreError::PoolSize(pool_size));
        }
        let mut config = tokio_postgres::Config::from_str(url)
            .map_err(|e| StoreError::Connect { url: redact(url), reason: format!("the URL does not parse ({e})") })?;
        let shown = shown_url(&config);
        if config.get_connect_timeout().is_none() {
            // A black-holed host must not hang start-up.
            config.connect_timeout(POOL_WAIT);
        }
        let manager = deadpool_postgres::Manager::from_config(
            config.clone(),
            NoTls,
            deadpool_postgres::ManagerConfig { recycling_method: deadpool_postgres::RecyclingMethod::Fast },
        );
        let pool = deadpool_postgres::Pool::builder(manager)
            .max_size(pool_size)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(POOL_WAIT))
            .create_timeout(Some(POOL_WAIT))
            .recycle_timeout(Some(POOL_WAIT))
            .build()
            .map_err(|e| StoreError::Connect { url: shown.clone(), reason: e.to_string() })?;
        let pg = Self { pool, config: std::sync::Arc::new(config), shown };
        let mut client =
            pg.pool.get().await.map_err(|e| StoreError::Connect { url: pg.shown.clone(), reason: pool_reason(&e) })?;
        migrate(&mut client, &pg.shown).await?;
        Ok(pg)
    }

    /// The URL without its password.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.shown
    }

    /// A pooled connection.
    pub(crate) async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(|e| StoreError::Database(pool_reason(&e)))
    }
}

/// Applies the migrations the database lacks, all in one transaction.
async fn migrate(client: &mut deadpool_postgres::Object, shown: &str) -> Result<(), StoreError> {
    let tx = client.transaction().await.map_err(|e| db(&e))?;
    // Held until the transaction ends: a second process starting now waits
    // here and then finds every migration applied.
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await.map_err(|e| db(&e))?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS codemode_schema_migrations (
             version    bigint      PRIMARY KEY,
             name       text        NOT NULL,
             applied_at timestamptz NOT NULL DEFAULT now()
         )",
    )
    .await
    .map_err(|e| db(&e))?;
    let row = tx.query_one("SELECT max(version) FROM codemode_schema_migrations", &[]).await.map_err(|e| db(&e))?;
    let current: i64 = row.get::<_, Option<i64>>(0).unwrap_or(0);
    let known = MIGRATIONS.last().map_or(0, |m| m.version);
    if current > known {
        return Err(StoreError::SchemaTooNew { url: shown.to_owned(), found: current, known });
    }
    for m in MIGRATIONS.iter().filter(|m| m.version > current) {
        tx.batch_execute(m.sql).await.map_err(|e| {
            StoreError::Database(format!("schema migration {} ({}) failed: {}", m.version, m.name, describe(&e)))
        })?;
        tx.execute("INSERT INTO codemode_schema_migrations (version, name) VALUES ($1, $2)", &[&m.version, &m.name])
            .await
            .map_err(|e| db(&e))?;
    }
    tx.commit().await.map_err(|e| db(&e))?;
    Ok(())
}

/// A pooled connection or transaction whose statements are prepared once
/// per connection (deadpool's statement cache): a repeated statement then
/// costs one round trip instead of two.
pub(crate) struct Cached<'a, C>(pub &'a C);

impl<C: deadpool_postgres::GenericClient> Cached<'_, C> {
    pub(crate) async fn query(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<tokio_postgres::Row>, tokio_postgres::Error> {
        let statement = self.0.prepare_cached(sql).await?;
        self.0.query(&statement, params).await
    }

    pub(crate) async fn query_opt(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Option<tokio_postgres::Row>, tokio_postgres::Error> {
        let statement = self.0.prepare_cached(sql).await?;
        self.0.query_opt(&statement, params).await
    }

    pub(crate) async fn query_one(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<tokio_postgres::Row, tokio_postgres::Error> {
        let statement = self.0.prepare_cached(sql).await?;
        self.0.query_one(&statement, params).await
    }

    pub(crate) async fn execute(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<u64, tokio_postgres::Error> {
        let statement = self.0.prepare_cached(sql).await?;
        self.0.execute(&statement, params).await
    }
}

/// What can hand out a [`Cached`] view: a pooled connection or one of its
/// transactions.
pub(crate) trait Cache {
    type Client: deadpool_postgres::GenericClient;
    fn cached(&self) -> Cached<'_, Self::Client>;
}

impl Cache for deadpool_postgres::Object {
    type Client = Self;
    fn cached(&self) -> Cached<'_, Self> {
        Cached(self)
    }
}

impl<'t> Cache for deadpool_postgres::Transaction<'t> {
    type Client = Self;
    fn cached(&self) -> Cached<'_, Self> {
        Cached(self)
    }
}

/// A client error as text: the server's code and message when it sent one
/// (the plain `Display` of a server error is only "db error").
pub(crate) fn describe(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(d) => format!("{} (SQLSTATE {})", d.message(), d.code().code()),
        None => {
            let mut text = e.to_string();
            let mut source = std::error::Error::source(e);
            while let Some(s) = source {
                text.push_str(": ");
                text.push_str(&s.to_string());
                source = s.source();
            }
            text
        }
    }
}

/// A failed statement as a [`StoreError::Database`].
pub(crate) fn db(e: &tokio_postgres::Error) -> StoreError {
    StoreError::Database(describe(e))
}

/// Why the pool gave no connection.
pub(crate) fn pool_reason(e: &deadpool_postgres::PoolError) -> String {
    match e {
        deadpool_postgres::PoolError::Backend(e) => describe(e),
        deadpool_postgres::PoolError::Timeout(_) => {
            format!(
                "no database connection within {}s (the pool is exhausted or the server is slow)",
                POOL_WAIT.as_secs()
            )
        }
        other => other.to_string(),
    }
}

/// `u64` milliseconds or seconds as a `bigint` (saturating: no stored time
/// comes near 2^63).
pub(crate) fn big(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A `bigint` as `u64` (negative reads as 0).
pub(crate) fn unbig(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// The connection's target as a URL without the password.
fn shown_url(config: &tokio_postgres::Config) -> String {
    let user = config.get_user().unwrap_or("");
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(h)) => h.clone(),
        Some(Host::Unix(p)) => p.display().to_string(),
        None => "localhost".to_owned(),
    };
    let port = config.get_ports().first().map_or(String::new(), |p| format!(":{p}"));
    let db = config.get_dbname().unwrap_or("");
    let at = if user.is_empty() { String::new() } else { format!("{user}@") };
    format!("postgres://{at}{host}{port}/{db}")
}

/// `url` with any password replaced, for a URL that does not parse.
fn redact(url: &str) -> String {
    // URI form: scheme://user:password@host…
    if let Some((scheme, rest)) = url.split_once("://")
        && let Some((userinfo, host)) = rest.split_once('@')
    {
        let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
        return format!("{scheme}://{user}:***@{host}");
    }
    // Key/value form: drop the password's value.
    url.split_whitespace()
        .map(|kv| if kv.starts_with("password=") { "password=***" } else { kv })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A fresh, empty database on the test server, for one test; returns its
/// URL. The server is the one `CODEMODE_TEST_POSTGRES_URL` names
/// (`scripts/test.sh` starts a throwaway cluster and sets it); every call
/// creates `t_<random>` so tests running in parallel never share data.
/// The databases go with the cluster when the test run ends.
///
/// # Panics
/// When the variable is unset (run the tests with `./scripts/test.sh`), or
/// the server refuses: a test needing PostgreSQL fails rather than
/// silently passing without it.
#[cfg(any(test, feature = "test-hooks"))]
pub async fn test_database() -> String {
    let Ok(url) = std::env::var("CODEMODE_TEST_POSTGRES_URL") else {
        panic!(
            "CODEMODE_TEST_POSTGRES_URL is not set: this test needs a PostgreSQL server. Run the tests with ./scripts/test.sh (it starts a throwaway cluster), or start one with `scripts/postgres.sh start DIR` and export the URL it prints."
        );
    };
    let (client, connection) = tokio_postgres::connect(&url, NoTls).await.unwrap_or_else(|e| {
        panic!("cannot connect to CODEMODE_TEST_POSTGRES_URL ({}): {}", redact(&url), describe(&e))
    });
    let driver = tokio::spawn(connection);
    let name = codemode_protocol::ids::unguessable::<8>("t_").unwrap_or_else(|e| panic!("{e}"));
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap_or_else(|e| panic!("cannot create a test database: {}", describe(&e)));
    drop(client);
    let _ = driver.await;
    with_dbname(&url, &name)
}

/// `url` naming database `name` instead of its own.
#[cfg(any(test, feature = "test-hooks"))]
fn with_dbname(url: &str, name: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        let (rest, query) = rest.split_once('?').map_or((rest, None), |(r, q)| (r, Some(q)));
        let authority = rest.split_once('/').map_or(rest, |(a, _)| a);
        let query = query.map_or(String::new(), |q| format!("?{q}"));
        format!("{scheme}://{authority}/{name}{query}")
    } else {
        // Key/value form: a later key overrides an earlier one.
        format!("{url} dbname={name}")
    }
}

#[cfg(test)]
mod tests;
