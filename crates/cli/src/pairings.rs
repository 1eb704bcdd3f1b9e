//! `codemode pairings list|revoke`: the operator's view of the node
//! pairings, read straight from the configured backend — no runtime, no
//! gateway.
//!
//! On PostgreSQL this works while the servers run, from any machine that
//! reaches the database: a revocation is announced to every gateway on it,
//! which ends its connection to that node at once, and every gateway
//! refuses the node's secret from then on. A sled store is opened by one
//! process at a time, so stop the server first.
//!
//! Names, platforms and commands come from the nodes: control characters
//! are replaced before they reach a terminal.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use clap::Subcommand;
use codemode_nodes::{Pairing, PairingStore};
use serde_json::json;

use crate::config::{BackendKind, Config};
use crate::output::{clean, human_ms, truncate};
use crate::runs::sled_path;
use codemode_store::OpenError;

/// The longest name shown in a `list` row (`--json` gives it whole).
const NAME_CHARS: usize = 32;

/// `codemode pairings …`.
#[derive(Subcommand)]
pub(crate) enum PairingsCommand {
    /// List the paired nodes, by id.
    List {
        /// Print a JSON array instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Revoke a node's pairing: every gateway on the store refuses its
    /// secret from now on (on PostgreSQL, a gateway connected to it
    /// disconnects it at once); it must pair again with a new code or a
    /// token.
    Revoke {
        /// The node's id.
        id: String,
    },
}

/// Why `codemode pairings` could not answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PairingsError {
    /// The sled directory does not exist: no gateway ever used it.
    #[error(
        "no session store at {0}: no node was ever paired with this store (name the server's store with --store PATH or `[store] path`)"
    )]
    NoStore(PathBuf),
    /// Another process (a server, usually) holds the sled database.
    #[error(
        "the session store at {0} is in use by another codemode process (sled allows one process at a time). Stop that process (the server) and run this again, or keep the store in PostgreSQL (`[store] backend = \"postgres\"`) so operators and servers can share it."
    )]
    InUse(PathBuf),
    /// The store could not be opened for another reason.
    #[error("{0}")]
    Open(#[from] codemode_store::StoreError),
    /// This build cannot reach PostgreSQL.
    #[cfg_attr(feature = "postgres", expect(dead_code, reason = "built without the `postgres` feature only"))]
    #[error(
        "this codemode was built without PostgreSQL support for `codemode pairings` (build codemode-cli with the `postgres` feature)"
    )]
    NoPostgres,
    /// No such pairing.
    #[error("no node {0:?} is paired in this store")]
    NotFound(String),
    /// The backend failed.
    #[error("{0}")]
    Backend(#[from] codemode_nodes::PairingStoreError),
}

/// Runs `command` on the configured backend. Errors exit 1.
pub(crate) async fn run(config: &Config, store_flag: Option<PathBuf>, command: PairingsCommand) -> Result<()> {
    let pairings = open(config, store_flag).await?;
    match command {
        PairingsCommand::List { json } => list(pairings.as_ref(), json).await,
        PairingsCommand::Revoke { id } => {
            if !pairings.remove(&id).await.map_err(PairingsError::from)? {
                return Err(PairingsError::NotFound(id).into());
            }
            let shared = config.store.backend == BackendKind::Postgres;
            let after = if shared {
                "every gateway on this database refuses it from now on, and one connected to it disconnects it now"
            } else {
                "the gateway refuses it from its next start"
            };
            println!("node {}: pairing revoked; {after}", clean(&id));
            Ok(())
        }
    }
}

/// The configured backend's pairings.
async fn open(config: &Config, store_flag: Option<PathBuf>) -> Result<Arc<dyn PairingStore>, PairingsError> {
    #[cfg(not(feature = "postgres"))]
    if config.store.backend == BackendKind::Postgres {
        return Err(PairingsError::NoPostgres);
    }
    let path = sled_path(config, store_flag);
    let database = match crate::runs::open_for_operator(config, path.clone(), "pairings").await {
        Ok(database) => database,
        Err(OpenError::NoStore(path)) => return Err(PairingsError::NoStore(path)),
        Err(OpenError::Store(codemode_store::StoreError::Locked { .. })) => return Err(PairingsError::InUse(path)),
        Err(OpenError::Store(e)) => return Err(e.into()),
        Err(OpenError::Runs(e)) => return Err(codemode_store::StoreError::Database(e.to_string()).into()),
    };
    Ok(database.pairings().await?)
}

async fn list(pairings: &dyn PairingStore, json: bool) -> Result<()> {
    let mut all = pairings.load().await.map_err(PairingsError::from)?;
    all.sort_by(|a, b| a.id.cmp(&b.id));
    if json {
        // The secret's digest stays in the store: it is nobody's business.
        let rows: Vec<_> = all
            .iter()
            .map(|p| {
                json!({"id": p.id, "name": p.name, "platform": p.platform, "commands": p.commands,
                       "pairedAtMs": p.paired_at_ms, "lastSeenMs": p.last_seen_ms})
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    if all.is_empty() {
        println!("no paired nodes");
        return Ok(());
    }
    let now = codemode_store::runs::now_ms();
    println!("{}", row(["ID", "NAME", "PLATFORM", "PAIRED", "LAST SEEN", "COMMANDS"].map(str::to_owned)));
    for p in &all {
        println!("{}", row(cells(p, now)));
    }
    Ok(())
}

/// One pairing's `list` row, terminal-safe.
fn cells(p: &Pairing, now: u64) -> [String; 6] {
    let ago = |ms: u64| format!("{} ago", human_ms(now.saturating_sub(ms)));
    [
        clean(&p.id),
        truncate(&clean(&p.name), NAME_CHARS),
        clean(&p.platform),
        ago(p.paired_at_ms),
        ago(p.last_seen_ms),
        clean(&p.commands.join(",")),
    ]
}

fn row(cells: [String; 6]) -> String {
    let [id, name, platform, paired, seen, commands] = cells;
    format!("{id:<24} {name:<NAME_CHARS$} {platform:<10} {paired:>10} {seen:>10}  {commands}").trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_shows_ages_and_makes_node_text_terminal_safe() {
        let p = Pairing {
            id: "pi".into(),
            name: "Pi\u{1b}[2J".into(),
            platform: "linux".into(),
            commands: vec!["device.status".into(), "fs.listDir".into()],
            secret_sha256: "0".repeat(64),
            paired_at_ms: 1_000,
            last_seen_ms: 3 * 3_600_000 + 1_000,
        };
        let [id, name, platform, paired, seen, commands] = cells(&p, 2 * 86_400_000 + 1_000);
        assert_eq!([id, name, platform], ["pi", "Pi?[2J", "linux"].map(str::to_owned));
        assert_eq!([paired, seen], ["2d ago", "1d ago"].map(str::to_owned));
        assert_eq!(commands, "device.status,fs.listDir");
    }
}
