//! [`StoreError`]: why a session store operation failed, on any backend.
//! The PostgreSQL plumbing and the node pairings report through it too, so
//! it sits apart from every concept that uses it.

use std::time::Duration;

/// The phrase in every [`StoreError::Locked`] message. The runtime reports
/// start failures as text, so a caller that waits for a busy store (the
/// CLI's short-lived `exec`) recognises one by it.
pub const IN_USE_PHRASE: &str = "is in use by another codemode process";

/// Why a store operation failed.
#[derive(Clone, Debug, thiserror::Error)]
pub enum StoreError {
    /// Another process holds the database's lock. Nothing is wrong with
    /// the database; only one process may use it at a time.
    #[error(
        "the session store at {path} {phrase} (one process at a time can use a store). Wait for that process to finish, or give this one its own store: `CodeModeBuilder::session_store_path` when embedding, `--store PATH` (or `[store] path` in codemode.toml) with the CLI.",
        phrase = IN_USE_PHRASE
    )]
    Locked {
        /// Where the database is.
        path: String,
    },
    /// The database's directory cannot be created or written (permissions,
    /// a file in the way, a read-only file system).
    #[error(
        "the session store at {path} cannot be created or written: {reason}. Choose a writable location: `CodeModeBuilder::session_store_path` when embedding, `--store PATH` (or `[store] path` in codemode.toml) with the CLI."
    )]
    Unwritable {
        /// Where the database would be.
        path: String,
        /// What the file system said.
        reason: String,
    },
    /// The database cannot be read (damaged, or from another sled version);
    /// it was not modified.
    #[error(
        "the session store at {path} cannot be opened: {reason}. It was not modified: move it aside or repair it, then start again."
    )]
    Open {
        /// Where the database is.
        path: String,
        /// What sled said.
        reason: String,
    },
    /// The key is not a non-empty string of at most 256 UTF-16 units.
    #[error("Code Mode store key must be a non-empty string of at most {0} characters.")]
    Key(usize),
    /// The value is too large.
    #[error("Code Mode store value exceeds {0} KiB of serialized JSON.")]
    ValueTooLarge(usize),
    /// The session would exceed its total.
    #[error("Code Mode store exceeds {0} MiB of serialized JSON; delete keys or store less data.")]
    SessionFull(usize),
    /// `fork` onto a session that already has values.
    #[error("cannot fork into session {0}: it already has stored values")]
    SessionExists(String),
    /// Reading or writing the database failed.
    #[error("the session store failed: {0}")]
    Io(String),
    /// The store actor is not running.
    #[error("the session store is unavailable; retry in a moment")]
    Unavailable,
    /// A session retention shorter than one second.
    #[error("session retention must be at least one second, or none to keep sessions forever; got {0:?}")]
    Retention(Duration),
    /// The PostgreSQL server cannot be reached or refused the connection
    /// (the URL never includes its password).
    #[error(
        "cannot connect to the PostgreSQL session store at {url}: {reason}. Check that the server runs and accepts this user, or fix the URL (`[store] url` in codemode.toml)."
    )]
    Connect {
        /// The URL without its password.
        url: String,
        /// What the client or server said.
        reason: String,
    },
    /// The database's schema is newer than this build knows: a newer
    /// codemode migrated it. It was not modified.
    #[error(
        "the PostgreSQL session store at {url} has schema version {found}, newer than this codemode knows ({known}); it was not modified. Upgrade codemode to the version that migrated it, or use another database."
    )]
    SchemaTooNew {
        /// The URL without its password.
        url: String,
        /// The newest migration applied to the database.
        found: i64,
        /// The newest migration this build has.
        known: i64,
    },
    /// A PostgreSQL statement failed, or no pooled connection came in time.
    #[error("the PostgreSQL session store failed: {0}. Retry; if it persists, check the server and its log.")]
    Database(String),
    /// An operation only the sled backend has (a sled tree) was asked of
    /// the PostgreSQL backend.
    #[error("{0} is only available with the sled session store, not with PostgreSQL")]
    SledOnly(&'static str),
    /// The operating system gave no randomness for an identity that must
    /// be unguessable; nothing predictable is used instead.
    #[error("{0}; check the operating system's random source (e.g. /dev/urandom), then retry")]
    NoRandomness(#[from] codemode_protocol::ids::NoRandomness),
    /// A connection pool size outside 1–1,024.
    #[error("the PostgreSQL pool size must be between 1 and 1024 connections; got {0}")]
    PoolSize(usize),
}

impl StoreError {
    /// The guest error class: `TypeError`, `RangeError` or `Error`.
    #[must_use]
    pub fn js_name(&self) -> &'static str {
        match self {
            Self::Key(_) => "TypeError",
            Self::ValueTooLarge(_) | Self::SessionFull(_) => "RangeError",
            _ => "Error",
        }
    }

    /// The guest error code.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::Key(_) => "store_type",
            Self::ValueTooLarge(_) | Self::SessionFull(_) => "store_range",
            _ => "tool_error",
        }
    }
}
