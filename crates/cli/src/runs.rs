//! `codemode runs list|show|abort|approve|deny|audit`: the operator's view
//! of durable runs — read straight from the configured backend (no
//! runtime, no cells), or through a running server's operator API with
//! `--server URL --token TOKEN` (the way to act while a server holds a
//! sled store). Every approve, deny and abort is recorded in the audit
//! trail.
//!
//! Session keys are capabilities (whoever knows one can `wait` on its
//! runs), so they are shown as a SHA-256 prefix unless `--show-sessions`
//! asks for the raw key; `--session sha256:…` filters by that prefix.
//! Titles, owners and keys come from models and clients: control
//! characters are replaced before they reach a terminal.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use codemode_runtime::operator::{Operator, RunDetail, RunQuery, RunView, SessionShown};
use codemode_store::OpenError;
use codemode_store::runs::{MAX_LIST_RUNS, RunStatus, RunStoreError, now_ms};

use crate::config::Config;
use crate::operator_input::{STATUSES, parse_run_id};
use crate::output::{clean, human_bytes, human_ms, truncate};
use crate::run_source::{Remote, RunSource};

/// The longest title shown in a `list` row (`show` prints it whole).
const TITLE_CHARS: usize = 40;

/// The server `codemode runs` acts through, if any.
#[derive(Args)]
pub(crate) struct ServerArgs {
    /// Act through the operator API of the server at this address
    /// (`http://HOST:PORT` of `serve --http`) instead of opening the store.
    #[arg(long, global = true, value_name = "URL")]
    server: Option<String>,
    /// The operator token (an `[operator] tokens` entry) for --server;
    /// default: the CODEMODE_OPERATOR_TOKEN environment variable (which
    /// keeps it out of the shell's history).
    #[arg(long, global = true, value_name = "TOKEN")]
    token: Option<String>,
}

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
        /// Only runs of this principal.
        #[arg(long)]
        principal: Option<String>,
        /// Only parked runs waiting for this.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(["approval", "pending_tools", "yield"]))]
        waiting: Option<String>,
        /// The page after this cursor (the `next` a listing printed).
        #[arg(long, value_name = "CURSOR")]
        before: Option<String>,
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
        #[arg(long, default_value_t = crate::operator_input::DEFAULT_WAIT_MS, value_parser = clap::value_parser!(u64).range(0..=600_000))]
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
        #[arg(long, default_value_t = crate::operator_input::DEFAULT_WAIT_MS, value_parser = clap::value_parser!(u64).range(0..=600_000))]
        wait_ms: u64,
    },
    /// Abort a run: a parked run nobody holds ends now; a run a process
    /// holds is marked, and that process ends it.
    Abort {
        /// The run id (`run_` and 32 hex digits).
        #[arg(value_parser = parse_run_id)]
        run: String,
    },
    /// List the audit trail, newest first: every operator's approve, deny
    /// and abort, taken or refused.
    Audit {
        /// At most this many entries.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u16).range(1..=1000))]
        limit: u16,
        /// Print a JSON array instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Why `codemode runs` could not open the store.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RunsError {
    /// The sled directory does not exist: nothing ever ran there.
    #[error(
        "no session store at {0}: nothing has run with this store yet (name the server's store with --store PATH or `[store] path`)"
    )]
    NoStore(PathBuf),
    /// Another process (a server, usually) holds the sled database.
    #[error(
        "the session store at {0} is in use by another codemode process (sled allows one process at a time). Act through that server instead: `codemode runs --server http://HOST:PORT --token TOKEN …` (its operator API, with an [operator] token), or stop it and run this again, or keep runs in PostgreSQL (`[store] backend = \"postgres\"`) so operators and servers can share them."
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
    /// The backend failed.
    #[error("{0}")]
    Backend(#[from] RunStoreError),
}

/// Runs `command` on the configured backend, or through `server`. Errors
/// exit 1.
pub(crate) async fn run(
    config: &Config,
    store_flag: Option<PathBuf>,
    server: ServerArgs,
    command: RunsCommand,
) -> Result<()> {
    let show_sessions = matches!(
        &command,
        RunsCommand::List { show_sessions: true, .. } | RunsCommand::Show { show_sessions: true, .. }
    );
    let source = match server.server {
        Some(url) => {
            if show_sessions {
                bail!("--show-sessions works on the store only: a server's operator API never sends session keys");
            }
            let token = server.token.or_else(|| std::env::var("CODEMODE_OPERATOR_TOKEN").ok()).unwrap_or_default();
            RunSource::Remote(Remote::new(&url, token)?)
        }
        None => {
            if server.token.is_some() {
                bail!("--token goes with --server (the operator API of a running server)");
            }
            let database = open(config, store_flag).await?;
            let user = std::env::var("USER").ok().filter(|u| !u.is_empty()).unwrap_or_else(|| "unknown".to_owned());
            let shown = if show_sessions { SessionShown::Raw } else { SessionShown::Hashed };
            RunSource::Local { operator: Operator::of(&database), name: format!("local:{user}"), shown }
        }
    };
    match command {
        RunsCommand::List { status, session, principal, waiting, before, limit, json, .. } => {
            let query = RunQuery {
                status: status.as_deref().map(RunStatus::parse).transpose()?,
                principal,
                session,
                waiting: waiting
                    .as_deref()
                    .map(crate::operator_input::parse_waiting)
                    .transpose()
                    .map_err(anyhow::Error::msg)?,
                before,
                limit: usize::from(limit),
            };
            list(&source, &query, json).await
        }
        RunsCommand::Show { run, json, .. } => show(&source, &run, json).await,
        RunsCommand::Abort { run } => {
            let outcome = source.abort(&run).await?;
            println!("{}", clean(&outcome.describe(&run)));
            Ok(())
        }
        RunsCommand::Approve { run, ids, wait_ms } => {
            crate::run_approvals::decide(&source, &run, ids, false, None, Duration::from_millis(wait_ms)).await
        }
        RunsCommand::Deny { run, ids, reason, wait_ms } => {
            crate::run_approvals::decide(&source, &run, ids, true, reason, Duration::from_millis(wait_ms)).await
        }
        RunsCommand::Audit { limit, json } => audit(&source, usize::from(limit), json).await,
    }
}

/// The configured backend's database.
async fn open(config: &Config, store_flag: Option<PathBuf>) -> Result<codemode_store::Database, RunsError> {
    #[cfg(not(feature = "postgres"))]
    if config.store.backend == crate::config::BackendKind::Postgres {
        return Err(RunsError::NoPostgres);
    }
    let path = sled_path(config, store_flag);
    match open_for_operator(config, path.clone(), "runs").await {
        Ok(database) => Ok(database),
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

/// What a run's lease says now: `-` (none), `expired`, or the time left.
fn lease_left(owner: Option<&str>, until_ms: u64, now: u64) -> String {
    match owner {
        None => "-".to_owned(),
        Some(_) if until_ms <= now => "expired".to_owned(),
        Some(_) => human_ms(until_ms - now),
    }
}

/// The status column: the status, what a parked run waits for, and a note.
fn status_text(r: &RunView) -> String {
    let mut status = r.status.clone();
    if let Some(waiting) = &r.waiting {
        status.push_str(&format!(" ({waiting})"));
    }
    if let Some(note) = &r.note {
        status.push_str(&format!(" ({note})"));
    }
    status
}

async fn list(source: &RunSource, query: &RunQuery, json: bool) -> Result<()> {
    let page = source.list(query).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&page.runs)?);
        if let Some(next) = &page.next {
            eprintln!("more: --before {next}");
        }
        return Ok(());
    }
    if page.runs.is_empty() {
        println!("no runs");
        return Ok(());
    }
    let now = now_ms();
    let table: Vec<[String; 8]> = page
        .runs
        .iter()
        .map(|r| {
            [
                r.run_id.clone(),
                clean(&status_text(r)),
                clean(&r.session),
                r.owner.as_deref().map_or_else(|| "-".to_owned(), clean),
                lease_left(r.owner.as_deref(), r.lease_until_ms, now),
                human_bytes(r.journal_bytes),
                human_ms(r.age_ms),
                truncate(&clean(r.title.as_deref().unwrap_or("-")), TITLE_CHARS),
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
    if let Some(next) = &page.next {
        println!("more: --before {next}");
    }
    Ok(())
}

async fn show(source: &RunSource, run_id: &str, json: bool) -> Result<()> {
    let detail: RunDetail = source.show(run_id).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&detail)?);
        return Ok(());
    }
    let r = &detail.run;
    let now = now_ms();
    let optional = |v: Option<&str>| v.map_or_else(|| "-".to_owned(), clean);
    println!("run:             {}", r.run_id);
    println!("status:          {}", clean(&status_text(r)));
    println!("session:         {}", clean(&r.session));
    println!("reply:           {}", clean(&r.reply));
    println!("principal:       {}", optional(r.principal.as_deref()));
    println!("title:           {}", optional(r.title.as_deref()));
    println!("owner:           {}", optional(r.owner.as_deref()));
    println!("lease left:      {}", lease_left(r.owner.as_deref(), r.lease_until_ms, now));
    println!("abort requested: {}", if r.abort_requested { "yes" } else { "no" });
    println!("journal:         {} (version {})", human_bytes(r.journal_bytes), r.version.unwrap_or(0));
    println!("created:         {} ago ({} ms since the epoch)", human_ms(r.age_ms), r.created_ms);
    println!(
        "updated:         {} ago ({} ms since the epoch)",
        human_ms(now.saturating_sub(r.updated_ms)),
        r.updated_ms
    );
    if let Some(used) = detail.output_used {
        println!("output used:     {used} B");
    }
    for t in &detail.tasks {
        println!(
            "task:            {}.{} ({} ms ago)",
            clean(&t.server),
            clean(&t.tool),
            now.saturating_sub(t.started_at_ms)
        );
    }
    if let Some(e) = &detail.journal_error {
        println!("approvals:       unreadable ({})", clean(e));
    }
    if let Some(log) = &detail.approvals {
        crate::run_approvals::print(log);
    }
    if let Some(receipt) = &detail.receipt {
        println!("receipt:         {}", clean(&truncate(&serde_json::to_string(receipt)?, 2_000)));
    }
    Ok(())
}

async fn audit(source: &RunSource, limit: usize, json: bool) -> Result<()> {
    let entries = source.audit(limit).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&entries)?);
        return Ok(());
    }
    if entries.is_empty() {
        println!("no operator actions recorded");
        return Ok(());
    }
    let now = now_ms();
    for e in &entries {
        let reason = e.reason.as_deref().map(|r| format!(" (reason: {})", clean(r))).unwrap_or_default();
        println!(
            "{:>6} ago  {}  {} {} {}{}  {}  {}",
            human_ms(now.saturating_sub(e.at_ms)),
            clean(&e.operator),
            clean(&e.action),
            clean(&e.run_id),
            clean(&e.approvals.join(",")),
            reason,
            match (e.ok, e.settled()) {
                (true, _) => "ok",
                (false, false) => "outcome unknown",
                (false, true) => "refused",
            },
            clean(&e.outcome)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_is_shown_as_a_short_sha256_prefix_and_text_is_made_terminal_safe() {
        let shown = codemode_runtime::operator::session_hash("secret-key");
        assert_eq!(shown.len(), "sha256:".len() + 12);
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
}
