//! `[store]`: where sessions, results and run journals live — a sled
//! directory or a PostgreSQL database — and how long sessions are kept.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

/// `[store] backend`: where sessions, results and run journals live.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum BackendKind {
    /// A sled database at `[store] path`: one process at a time.
    #[default]
    Sled,
    /// A PostgreSQL database at `[store] url`: shared by many processes.
    Postgres,
}

/// `[store]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct StoreConfig {
    /// `sled` (default) or `postgres`.
    pub backend: BackendKind,
    /// The sled database directory (backend `sled` only).
    pub path: PathBuf,
    /// The PostgreSQL connection URL (backend `postgres` only, required
    /// there): `postgres://user:password@host:port/db`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Connections in this process's PostgreSQL pool, `1..=1024`; default 8.
    pub pool_size: usize,
    /// How many days a session's stored values are kept after the session
    /// was last used (a `load`, a `store` or a commit); then they are all
    /// deleted, so sessions that never come back (each `codemode serve`
    /// connection without a session key gets a fresh one) do not pile up.
    /// `0` keeps every session forever. Allowed `0..=3650`; default 30.
    /// Values stored before retention existed count as used when the
    /// store starts.
    pub retention_days: u32,
}

/// The longest `[store] retention_days` accepted: ten years.
const MAX_RETENTION_DAYS: u32 = 3650;

/// The default `[store] retention_days`, the store's own default.
const DEFAULT_RETENTION_DAYS: u32 = 30;

/// The default `[store] pool_size`.
const DEFAULT_POOL_SIZE: usize = 8;

/// The largest `[store] pool_size` accepted (the runtime's own bound).
const MAX_POOL_SIZE: usize = 1024;

impl Default for StoreConfig {
    fn default() -> Self {
        Self {
            backend: BackendKind::Sled,
            path: PathBuf::from(".codemode/store"),
            url: None,
            pool_size: DEFAULT_POOL_SIZE,
            retention_days: DEFAULT_RETENTION_DAYS,
        }
    }
}

impl StoreConfig {
    pub(super) fn check(&self) -> Result<()> {
        if self.retention_days > MAX_RETENTION_DAYS {
            bail!(
                "store.retention_days = {} is out of range: allowed 0..={MAX_RETENTION_DAYS} (0 keeps sessions forever)",
                self.retention_days
            );
        }
        if !(1..=MAX_POOL_SIZE).contains(&self.pool_size) {
            bail!("store.pool_size = {} is out of range: allowed 1..={MAX_POOL_SIZE}", self.pool_size);
        }
        match (self.backend, &self.url) {
            (BackendKind::Sled, Some(_)) => bail!(
                "store.url is for backend = \"postgres\"; the sled backend keeps its database at store.path (remove store.url, or set store.backend = \"postgres\")"
            ),
            (BackendKind::Postgres, None) => {
                bail!("store.backend = \"postgres\" needs store.url (postgres://user:password@host:port/db)")
            }
            (BackendKind::Postgres, Some(url)) if url.trim().is_empty() => {
                bail!("store.url is empty: give the PostgreSQL connection URL (postgres://user:password@host:port/db)")
            }
            (BackendKind::Postgres, Some(_)) if self.path != Self::default().path => bail!(
                "store.path is the sled database directory; with store.backend = \"postgres\" everything lives at store.url (remove store.path)"
            ),
            _ => Ok(()),
        }
    }

    /// The session retention: `None` (forever) for `retention_days = 0`.
    pub(crate) fn retention(&self) -> Option<Duration> {
        (self.retention_days > 0).then(|| Duration::from_secs(u64::from(self.retention_days) * 86_400))
    }

    /// The runtime's backend; `sled_path` is the sled directory the CLI
    /// chose (`--store`, `[store] path` or a fallback; `None`: temporary).
    pub(crate) fn backend(&self, sled_path: Option<PathBuf>) -> codemode_runtime::StoreBackend {
        match (self.backend, &self.url) {
            (BackendKind::Postgres, Some(url)) => {
                codemode_runtime::StoreBackend::Postgres { url: url.clone(), pool_size: self.pool_size }
            }
            _ => codemode_runtime::StoreBackend::Sled { path: sled_path },
        }
    }

    /// One line saying where the store is, for `config check` (a URL's
    /// password is never shown).
    pub(crate) fn describe(&self) -> String {
        match (self.backend, &self.url) {
            (BackendKind::Postgres, Some(url)) => {
                format!("postgres at {} (pool of {})", redact_url(url), self.pool_size)
            }
            _ => format!("sled at {}", self.path.display()),
        }
    }
}

/// `url` with its password replaced by `***`, in either URL form
/// (`postgres://user:secret@host/db`) or key-value form (`password=secret`).
pub(crate) fn redact_url(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        // The userinfo ends at the last `@`. A path holding an `@` (rare)
        // hides more than the password, never less: a password with an
        // unescaped `/` still ends up hidden.
        if let Some(at) = rest.rfind('@')
            && let Some(colon) = rest[..at].find(':')
        {
            return format!("{scheme}://{}:***{}", &rest[..colon], &rest[at..]);
        }
        return url.to_owned();
    }
    url.split_whitespace()
        .map(|part| match part.split_once('=') {
            Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
            _ => part.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}
