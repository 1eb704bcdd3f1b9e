//! `codemode runs list|show|abort|approve|deny`: the operator's view of durable runs,
//! read straight from the configured backend — no runtime, no cells.
//!
//! Session keys are capabilities (whoever knows one can `wait` on its
//! runs), so they are shown as a SHA-256 prefix unless `--show-sessions`
//! asks for the raw key; `--session sha256:…` filters by that prefix.
//! Titles, owners and keys come from models and clients: control
//! characters are replaced before they reach a terminal.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use clap::Subcommand;
use codemode_store::OpenError;
use codemode_store::runs::{Claim, MAX_LIST_RUNS, RunFilter, RunMeta, RunStatus, RunStore, RunStoreError, now_ms};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::output::{clean, human_bytes, human_ms, truncate};

/// Every status a run can be in, for `--status`.
const STATUSES: &[&str] = &[
    "running",
    "parked",
    "completed",
    "failed",
    "timed_out",
    "aborted",
    "expired",
    "disposed",
    "crashed",
    "replay_diverged",
];

/// How shown session hashes start; `--session` with it filters by prefix.
const HASH_PREFIX: &str = "sha256:";

/// Hex digits of a session's SHA-256 shown: 48 bits tell sessions apart in
/// a listing without handing out anything usable.
const HASH_CHARS: usize = 12;

/// The longest title shown in a `list` row (`show` prints it whole).
const TITLE_CHARS: usize = 40;

/// `codemode runs …`.
#[derive(Subcommand)]
pub(crate) enum RunsCommand {
    /// List stored runs, newest first.
    List {
        /// Only runs in this status.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(STATUSES))]
        status: Option<String>,
        /// Only runs of this session: its key, or the `sha256:…` prefix
        /// a listing shows (matched among the newest 1,000 runs).
        #[arg(long, value_name = "KEY")]
        session: Option<String>,
        /// At most this many runs.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u16).range(1..=MAX_LIST_RUNS as i64))]
        limit: u16,
        /// Print a JSON array instead of a table.
        #[arg(long)]
        json: bool,
        /// Show raw session keys (secrets: anyone holding one can wait on
        /// its runs) instead of their SHA-256 prefix.
        #[arg(long)]
        show_sessions: bool,
    },
    /// Show one run: everything but its journal's bytes (only their count).
    Show {
        /// The run id (`run_` and 32 hex digits).
        #[arg(value_parser = parse_run_id)]
        run: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Show the raw session key instead of its SHA-256 prefix.
        #[arg(long)]
        show_sessions: bool,
    },
    /// Approve pending approvals of a parked run, as an operator: the run
    /// takes the decision when it next resumes (its next wait, on any
    /// process). While a process holds the run, waits up to --wait-ms.
    Approve {
        /// The run id (`run_` and 32 hex digits).
        #[arg(value_parser = parse_run_id)]
        run: String,
        /// Approval ids (`appr_…`, from the run's `pendingApprovals` or
        /// `runs show`).
        #[arg(required = true, num_args = 1..=64)]
        ids: Vec<String>,
        /// How long to wait for a process holding the run to let it go.
        #[arg(long, default_value_t = crate::run_approvals::DEFAULT_WAIT_MS, value_parser = clap::value_parser!(u64).range(0..=600_000))]
        wait_ms: u64,
    },
    /// Deny pending approvals of a parked run, as an operator: the calls
    /// reject with `code: "denied"` when the run next resumes.
    Deny {
        /// The run id (`run_` and 32 hex digits).
        #[arg(value_parser = parse_run_id)]
        run: String,
        /// Approval ids (`appr_…`).
        #[arg(required = true, num_args = 1..=64)]
        ids: Vec<String>,
        /// Why: the guest's error says it.
        #[arg(long)]
        reason: Option<String>,
        /// How long to wait for a process holding the run to let it go.
        #[arg(long, default_value_t = crate::run_approvals::DEFAULT_WAIT_MS, value_parser = clap::value_parser!(u64).range(0..=600_000))]
        wait_ms: u64,
    },
    /// Abort a run: a parked run nobody holds ends now; a run a process
    /// holds is marked, and that process ends it.
    Abort {
        /// The run id (`run_` and 32 hex digits).
        #[arg(value_parser = parse_run_id)]
        run: String,
    },
}

/// A command-line argument that is not a run id.
#[derive(Debug, thiserror::Error)]
#[error("a run id is `run_` followed by 32 hex digits")]
struct NotARunId;

/// A run id as the runtime makes them; anything else is a usage error.
fn parse_run_id(text: &str) -> Result<String, NotARunId> {
    let ok = text.strip_prefix("run_").is_some_and(|hex| hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()));
    if ok { Ok(text.to_owned()) } else { Err(NotARunId) }
}

/// Why `codemode runs` could not answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RunsError {
    /// The sled directory does not exist: nothing ever ran there.
    #[error(
        "no session store at {0}: nothing has run with this store yet (name the server's store with --store PATH or `[store] path`)"
    )]
    NoStore(PathBuf),
    /// Another process (a server, usually) holds the sled database.
    #[error(
        "the session store at {0} is in use by another codemode process (sled allows one process at a time). Stop that process (the server) and run this again, or keep runs in PostgreSQL (`[store] backend = \"postgres\"`) so operators and servers can share them."
    )]
    InUse(PathBuf),
    /// The store could not be opened for another reason.
    #[error("{0}")]
    Open(#[from] codemode_store::StoreError),
    /// This build cannot reach PostgreSQL.
    #[cfg_attr(feature = "postgres", expect(dead_code, reason = "built without the `postgres` feature only"))]
    #[error(
        "this codemode was built without PostgreSQL support for `codemode runs` (build codemode-cli with the `postgres` feature)"
    )]
    NoPostgres,
    /// No such run.
    #[error("no run {0} in this store")]
    NotFound(String),
    /// The backend failed.
    #[error("{0}")]
    Backend(#[from] RunStoreError),
}

/// Runs `command` on the configured backend. Errors exit 1.
pub(crate) async fn run(config: &Config, store_flag: Option<PathBuf>, command: RunsCommand) -> Result<()> {
    let runs = open(config, store_flag).await?;
    match command {
        RunsCommand::List { status, session, limit, json, show_sessions } => {
            list(runs.as_ref(), status, session, usize::from(limit), json, show_sessions).await
        }
        RunsCommand::Show { run, json, show_sessions } => show(runs.as_ref(), &run, json, show_sessions).await,
        RunsCommand::Abort { run } => abort(runs.as_ref(), &run).await,
        RunsCommand::Approve { run, ids, wait_ms } => {
            crate::run_approvals::decide(&runs, &run, ids, false, None, Duration::from_millis(wait_ms)).await
        }
        RunsCommand::Deny { run, ids, reason, wait_ms } => {
            crate::run_approvals::decide(&runs, &run, ids, true, reason, Duration::from_millis(wait_ms)).await
        }
    }
}

/// The configured backend's run store.
async fn open(config: &Config, store_flag: Option<PathBuf>) -> Result<Arc<dyn RunStore>, RunsError> {
    #[cfg(not(feature = "postgres"))]
    if config.store.backend == crate::config::BackendKind::Postgres {
        return Err(RunsError::NoPostgres);
    }
    let path = sled_path(config, store_flag);
    match open_for_operator(config, path.clone(), "runs").await {
        Ok(database) => Ok(database.runs),
        Err(OpenError::NoStore(path)) => Err(RunsError::NoStore(path)),
        Err(OpenError::Store(codemode_store::StoreError::Locked { .. })) => Err(RunsError::InUse(path)),
        Err(OpenError::Store(e)) => Err(e.into()),
        Err(OpenError::Runs(e)) => Err(e.into()),
    }
}

/// The database a server with this configuration uses, opened for an
/// operator's command (`runs`, `pairings`) named `name`: on sled only one
/// that exists at `sled_path` (a typo must not create one); on PostgreSQL
/// with two connections, one for the command and one spare.
pub(crate) async fn open_for_operator(
    config: &Config,
    sled_path: PathBuf,
    name: &str,
) -> Result<codemode_store::Database, OpenError> {
    let mut backend = config.store.backend(Some(sled_path));
    if let codemode_store::StoreBackend::Postgres { pool_size, .. } = &mut backend {
        *pool_size = (*pool_size).min(2);
    }
    let options = codemode_store::OpenOptions {
        existing_only: true,
        // Each write flushed by sled itself: a command's writes are on disk
        // when it returns, with no run log left behind.
        durability: codemode_store::runs::Durability::Machine,
        ..codemode_store::OpenOptions::named(name)
    };
    codemode_store::open(&backend, options).await
}

/// The sled store a server with this configuration uses: `--store`, else
/// `[store] path`; when that is the default and does not exist, the data
/// directory's store, where a server falls back to when the default cannot
/// be created (see `store_location`).
pub(crate) fn sled_path(config: &Config, store_flag: Option<PathBuf>) -> PathBuf {
    if let Some(path) = store_flag {
        return path;
    }
    let path = config.store.path.clone();
    if path != crate::config::StoreConfig::default().path || path.exists() {
        return path;
    }
    crate::start::data_dir().map(|data| data.join("store")).filter(|p| p.exists()).unwrap_or(path)
}

/// `sha256:` and the first hex digits of the session key's digest.
fn session_hash(session: &str) -> String {
    let digest = Sha256::digest(session.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("{HASH_PREFIX}{}", &hex[..HASH_CHARS])
}

/// What a run's lease says now: `-` (none), `expired`, or the time left.
fn lease_left(owner: Option<&str>, until_ms: u64, now: u64) -> String {
    match owner {
        None => "-".to_owned(),
        Some(_) if until_ms <= now => "expired".to_owned(),
        Some(_) => human_ms(until_ms - now),
    }
}

/// What every view shows of a run.
struct Row<'a> {
    meta: &'a RunMeta,
    status: &'a RunStatus,
    owner: Option<&'a str>,
    lease_until_ms: u64,
    journal_bytes: u64,
    updated_ms: u64,
    abort_requested: bool,
    version: Option<u64>,
}

impl Row<'_> {
    fn session(&self, show_sessions: bool) -> String {
        if show_sessions { clean(&self.meta.session) } else { session_hash(&self.meta.session) }
    }

    /// Whether the run is live but nobody advances it: `running` with its
    /// owner's lease run out (the owner stopped mid-window).
    fn owner_gone(&self, now: u64) -> bool {
        *self.status == RunStatus::Running && self.lease_until_ms <= now
    }

    /// An orphan: its owner stopped before its first journal write landed
    /// (its exec's answer was lost with it). Nothing can resume it; the
    /// next `wait`, or housekeeping within a minute, ends it
    /// `unrecoverable`.
    fn orphaned(&self, now: u64) -> bool {
        self.owner_gone(now) && self.journal_bytes == 0
    }

    /// What the status column adds to the status.
    fn note(&self, now: u64) -> Option<&'static str> {
        if self.abort_requested && !matches!(self.status, RunStatus::Ended(_)) {
            Some("abort requested")
        } else if self.orphaned(now) {
            Some("orphaned: ends as unrecoverable")
        } else if self.owner_gone(now) {
            Some("owner gone: a wait resumes it")
        } else {
            None
        }
    }

    fn to_json(&self, show_sessions: bool, now: u64) -> Value {
        let live = self.owner.is_some() && self.lease_until_ms > now;
        let mut v = json!({
            "run_id": self.meta.run_id,
            "status": self.status.as_str(),
            "session": self.session(show_sessions),
            "reply": self.meta.reply,
            "principal": self.meta.principal,
            "title": self.meta.title,
            "owner": self.owner,
            "lease_until_ms": self.lease_until_ms,
            "lease_left_ms": if live { self.lease_until_ms - now } else { 0 },
            "journal_bytes": self.journal_bytes,
            "created_ms": self.meta.created_ms,
            "age_ms": now.saturating_sub(self.meta.created_ms),
            "updated_ms": self.updated_ms,
            "abort_requested": self.abort_requested,
            "orphaned": self.orphaned(now),
        });
        if let Some(version) = self.version {
            v["version"] = json!(version);
        }
        v
    }
}

async fn list(
    runs: &dyn RunStore,
    status: Option<String>,
    session: Option<String>,
    limit: usize,
    json: bool,
    show_sessions: bool,
) -> Result<()> {
    // A shown hash cannot be looked up: match it among the newest runs.
    let (by_key, by_hash) = match session {
        Some(s) if s.starts_with(HASH_PREFIX) => (None, Some(s)),
        other => (other, None),
    };
    let fetch = if by_hash.is_some() { MAX_LIST_RUNS } else { limit };
    let filter =
        RunFilter { status: status.as_deref().map(RunStatus::parse).transpose()?, session: by_key, limit: Some(fetch) };
    let mut found = runs.list(filter).await.map_err(RunsError::from)?;
    if let Some(prefix) = by_hash {
        found.retain(|r| session_hash(&r.meta.session).starts_with(&prefix));
        found.truncate(limit);
    }
    let now = now_ms();
    let rows: Vec<Row<'_>> = found
        .iter()
        .map(|r| Row {
            meta: &r.meta,
            status: &r.status,
            owner: r.owner.as_deref(),
            lease_until_ms: r.lease_until_ms,
            journal_bytes: r.journal_bytes,
            updated_ms: r.updated_ms,
            abort_requested: r.abort_requested,
            version: None,
        })
        .collect();
    if json {
        let all: Vec<Value> = rows.iter().map(|r| r.to_json(show_sessions, now)).collect();
        println!("{}", serde_json::to_string_pretty(&all)?);
        return Ok(());
    }
    if rows.is_empty() {
        println!("no runs");
        return Ok(());
    }
    let table: Vec<[String; 8]> = rows
        .iter()
        .map(|r| {
            let mut status = r.status.as_str().to_owned();
            if let Some(note) = r.note(now) {
                status.push_str(&format!(" ({note})"));
            }
            [
                r.meta.run_id.clone(),
                status,
                r.session(show_sessions),
                r.owner.map_or_else(|| "-".to_owned(), clean),
                lease_left(r.owner, r.lease_until_ms, now),
                human_bytes(r.journal_bytes),
                human_ms(now.saturating_sub(r.meta.created_ms)),
                truncate(&clean(r.meta.title.as_deref().unwrap_or("-")), TITLE_CHARS),
            ]
        })
        .collect();
    let header = ["RUN", "STATUS", "SESSION", "OWNER", "LEASE", "JOURNAL", "AGE", "TITLE"].map(str::to_owned);
    let mut widths = [0usize; 8];
    for line in std::iter::once(&header).chain(&table) {
        for (w, cell) in widths.iter_mut().zip(line) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for line in std::iter::once(&header).chain(&table) {
        let cells: Vec<String> = line.iter().zip(widths).map(|(cell, w)| format!("{cell:<w$}")).collect();
        println!("{}", cells.join("  ").trim_end());
    }
    Ok(())
}

async fn show(runs: &dyn RunStore, run_id: &str, json: bool, show_sessions: bool) -> Result<()> {
    let Some(r) = runs.get(run_id).await.map_err(RunsError::from)? else {
        return Err(RunsError::NotFound(run_id.to_owned()).into());
    };
    let now = now_ms();
    let row = Row {
        meta: &r.meta,
        status: &r.status,
        owner: r.owner.as_deref(),
        lease_until_ms: r.lease_until_ms,
        journal_bytes: r.journal.len() as u64,
        updated_ms: r.updated_ms,
        abort_requested: r.abort_requested,
        version: Some(r.version),
    };
    // Approvals live in the journal: an ended run's is gone with it.
    let approvals = crate::run_approvals::shown(&r.journal);
    if json {
        let mut v = row.to_json(show_sessions, now);
        match &approvals {
            Ok(log) => v["approvals"] = serde_json::to_value(log)?,
            Err(e) => v["approvals_error"] = json!(e),
        }
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    let optional = |v: Option<&str>| v.map_or_else(|| "-".to_owned(), clean);
    println!("run:             {}", r.meta.run_id);
    println!("status:          {}", r.status.as_str());
    println!("session:         {}", row.session(show_sessions));
    println!("reply:           {}", clean(&r.meta.reply));
    println!("principal:       {}", optional(r.meta.principal.as_deref()));
    println!("title:           {}", optional(r.meta.title.as_deref()));
    println!("owner:           {}", optional(r.owner.as_deref()));
    println!("lease left:      {}", lease_left(r.owner.as_deref(), r.lease_until_ms, now));
    println!("abort requested: {}", if r.abort_requested { "yes" } else { "no" });
    println!("journal:         {} (version {})", human_bytes(r.journal.len() as u64), r.version);
    println!(
        "created:         {} ago ({} ms since the epoch)",
        human_ms(now.saturating_sub(r.meta.created_ms)),
        r.meta.created_ms
    );
    println!(
        "updated:         {} ago ({} ms since the epoch)",
        human_ms(now.saturating_sub(r.updated_ms)),
        r.updated_ms
    );
    match approvals {
        Ok(log) => crate::run_approvals::print(&log),
        Err(e) => println!("approvals:       unreadable ({})", clean(&e)),
    }
    Ok(())
}

async fn abort(runs: &dyn RunStore, run_id: &str) -> Result<()> {
    // Read first: `request_abort` answers `Ended` both for a run it ended
    // and for one that had ended before.
    let Some(before) = runs.get(run_id).await.map_err(RunsError::from)? else {
        return Err(RunsError::NotFound(run_id.to_owned()).into());
    };
    if let RunStatus::Ended(label) = &before.status {
        println!("run {run_id} already ended ({label}); nothing to abort");
        return Ok(());
    }
    match runs.request_abort(run_id).await.map_err(RunsError::from)? {
        Claim::Ended(codemode_protocol::RunEnd::Aborted) => {
            println!("run {run_id} had no live owner: ended now as aborted");
        }
        Claim::Ended(label) => println!("run {run_id} ended ({label}) before the abort; nothing to abort"),
        Claim::Held { owner, until_ms } => println!(
            "run {run_id} is held by {} (lease left {}): marked for abort; its owner ends it",
            clean(&owner),
            lease_left(Some(&owner), until_ms, now_ms())
        ),
        Claim::Missing => return Err(RunsError::NotFound(run_id.to_owned()).into()),
        Claim::Claimed(_) => println!("run {run_id}: abort requested"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_is_shown_as_a_short_sha256_prefix_and_text_is_made_terminal_safe() {
        let shown = session_hash("secret-key");
        assert_eq!(shown.len(), HASH_PREFIX.len() + HASH_CHARS);
        assert!(shown.starts_with("sha256:") && !shown.contains("secret"));
        assert_eq!(clean("a\u{1b}[31mred\n"), "a?[31mred?");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abcd", 4), "abcd");
    }

    #[test]
    fn durations_sizes_and_leases_read_at_a_glance() {
        assert_eq!(
            (human_ms(59_999), human_ms(60_000), human_ms(3_600_000), human_ms(86_400_000)),
            ("59s".into(), "1m".into(), "1h".into(), "1d".into())
        );
        assert_eq!(
            (human_bytes(1023), human_bytes(1024), human_bytes(3 * 1024 * 1024)),
            ("1023 B".into(), "1.0 KiB".into(), "3.0 MiB".into())
        );
        assert_eq!(lease_left(None, 0, 5), "-");
        assert_eq!(lease_left(Some("p"), 5, 5), "expired");
        assert_eq!(lease_left(Some("p"), 65_000, 5_000), "1m");
    }

    #[test]
    fn only_well_formed_run_ids_are_accepted() {
        assert!(parse_run_id(&format!("run_{}", "a".repeat(32))).is_ok());
        assert!(parse_run_id(&format!("run_{}", "a".repeat(31))).is_err());
        assert!(parse_run_id(&format!("run_{}", "g".repeat(32))).is_err());
        assert!(parse_run_id("abc").is_err());
    }
}
