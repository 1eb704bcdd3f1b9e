//! The `PairingStore` contract, one suite for every backend.
//!
//! [`suite`] holds the cases, each a plain `async fn(Subject)` that knows
//! nothing of the backend; the `cases!` list below turns every one into a
//! sled test and an in-memory test, and runs them all on PostgreSQL. Each
//! subject gets two handles, as the node registries of two processes (on
//! PostgreSQL, two connection pools) or of one (sled, memory) would hold.
#![cfg(feature = "nodes")]

use std::sync::Arc;

use codemode_nodes::PairingStore;
use codemode_store::SessionStore;

/// What a case runs against.
pub(crate) struct Subject {
    /// The handle most calls go through.
    pub(crate) store: Arc<dyn PairingStore>,
    /// Another handle on the same pairings.
    pub(crate) other: Arc<dyn PairingStore>,
    /// Whether other processes may write the same pairings (then each
    /// handle announces the others' changes).
    pub(crate) shared: bool,
}

mod suite {
    use std::time::Duration;

    use codemode_nodes::protocol::{MAX_COMMAND_CHARS, MAX_COMMANDS, MAX_ID_CHARS, MAX_NAME_CHARS};
    use codemode_nodes::{Pairing, PairingChange};

    use super::Subject;

    /// Only a hang waits this long.
    const PATIENCE: Duration = Duration::from_secs(30);

    fn hex(bytes: usize) -> String {
        let mut raw = vec![0u8; bytes];
        getrandom::fill(&mut raw).expect("randomness");
        raw.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// A pairing as the registry writes one: a fresh id and, where the
    /// digest of a fresh secret goes, 32 random bytes in lowercase hex (the
    /// same shape).
    pub(crate) fn pairing() -> Pairing {
        Pairing {
            id: format!("node-{}", hex(8)),
            name: "Laptop".into(),
            platform: "linux".into(),
            commands: vec!["device.status".into(), "fs.listDir".into()],
            secret_sha256: hex(32),
            paired_at_ms: 1_795_000_000_000,
            last_seen_ms: 1_795_000_000_000,
        }
    }

    pub(crate) async fn a_saved_pairing_reads_back_whole_through_get_and_load(s: Subject) {
        let p = pairing();
        assert_eq!(s.store.get(&p.id).await.unwrap(), None);
        s.store.save(&p).await.unwrap();
        assert_eq!(s.store.get(&p.id).await.unwrap().as_ref(), Some(&p));
        assert!(s.store.load().await.unwrap().contains(&p));
        // Every field exactly at the hello's bounds, in multi-byte characters.
        let suffix = hex(4);
        let id: String = "🦀".repeat(MAX_ID_CHARS - suffix.len()) + &suffix;
        let commands: Vec<String> =
            (0..MAX_COMMANDS).map(|i| format!("{i:03}{}", "é".repeat(MAX_COMMAND_CHARS - 3))).collect();
        let big = Pairing { id, name: "名".repeat(MAX_NAME_CHARS), commands, ..pairing() };
        s.store.save(&big).await.unwrap();
        assert_eq!(s.store.get(&big.id).await.unwrap().as_ref(), Some(&big), "kept whole and in order");
        let empty = Pairing { name: String::new(), platform: String::new(), commands: vec![], ..pairing() };
        s.store.save(&empty).await.unwrap();
        assert_eq!(s.store.get(&empty.id).await.unwrap().as_ref(), Some(&empty), "empty fields stay empty");
    }

    pub(crate) async fn saving_again_replaces_the_pairing_of_that_id(s: Subject) {
        let first = pairing();
        s.store.save(&first).await.unwrap();
        let again = Pairing { id: first.id.clone(), paired_at_ms: first.paired_at_ms + 5, ..pairing() };
        s.store.save(&again).await.unwrap();
        assert_eq!(s.store.get(&first.id).await.unwrap().as_ref(), Some(&again));
        let all = s.store.load().await.unwrap();
        assert_eq!(all.iter().filter(|p| p.id == first.id).count(), 1, "one record per id");
    }

    pub(crate) async fn update_writes_only_while_the_stored_secret_is_the_same_and_keeps_the_pairing_time(s: Subject) {
        let p = pairing();
        s.store.save(&p).await.unwrap();
        let seen = Pairing {
            name: "Renamed".into(),
            platform: "macos".into(),
            commands: vec!["camera.snap".into()],
            paired_at_ms: 7,
            last_seen_ms: p.last_seen_ms + 60_000,
            ..p.clone()
        };
        assert!(s.store.update(&seen).await.unwrap());
        let stored = s.store.get(&p.id).await.unwrap().unwrap();
        assert_eq!(stored, Pairing { paired_at_ms: p.paired_at_ms, ..seen.clone() }, "the pairing time stays");
        // Paired again meanwhile (another secret): nothing is written.
        let stale = Pairing { secret_sha256: pairing().secret_sha256, name: "Stale".into(), ..seen.clone() };
        assert!(!s.store.update(&stale).await.unwrap());
        assert_eq!(s.store.get(&p.id).await.unwrap().unwrap().name, "Renamed");
        // Removed meanwhile: nothing is written, and nothing is created.
        let gone = pairing();
        assert!(!s.store.update(&gone).await.unwrap());
        assert_eq!(s.store.get(&gone.id).await.unwrap(), None);
    }

    pub(crate) async fn remove_forgets_a_pairing_and_says_whether_there_was_one(s: Subject) {
        let p = pairing();
        assert!(!s.store.remove(&p.id).await.unwrap(), "nothing to remove");
        s.store.save(&p).await.unwrap();
        let kept = pairing();
        s.store.save(&kept).await.unwrap();
        assert!(s.store.remove(&p.id).await.unwrap());
        assert_eq!(s.store.get(&p.id).await.unwrap(), None);
        assert!(!s.store.remove(&p.id).await.unwrap(), "already gone");
        let all = s.store.load().await.unwrap();
        assert!(!all.iter().any(|q| q.id == p.id));
        assert!(all.contains(&kept), "other pairings stay");
    }

    pub(crate) async fn a_second_handle_sees_the_first_handles_writes_at_once(s: Subject) {
        let p = pairing();
        s.store.save(&p).await.unwrap();
        assert_eq!(s.other.get(&p.id).await.unwrap().as_ref(), Some(&p));
        assert!(s.other.load().await.unwrap().contains(&p));
        let seen = Pairing { last_seen_ms: p.last_seen_ms + 1, ..p.clone() };
        assert!(s.other.update(&seen).await.unwrap());
        assert_eq!(s.store.get(&p.id).await.unwrap().as_ref(), Some(&seen));
        let repaired = Pairing { id: p.id.clone(), ..pairing() };
        s.other.save(&repaired).await.unwrap();
        assert!(!s.store.update(&seen).await.unwrap(), "the first handle's pairing was replaced");
        assert!(s.store.remove(&p.id).await.unwrap());
        assert_eq!(s.other.get(&p.id).await.unwrap(), None);
        assert!(!s.other.update(&repaired).await.unwrap(), "revoked through the first handle");
    }

    pub(crate) async fn changes_announce_every_other_handles_writes_and_never_the_handles_own(s: Subject) {
        if !s.shared {
            assert!(s.store.changes().is_none() && s.other.changes().is_none(), "nobody else writes");
            return;
        }
        let mut heard = s.store.changes().expect("a shared store announces changes");
        let mut next = async || tokio::time::timeout(PATIENCE, heard.recv()).await.expect("announced").unwrap();
        // Announcements arrive in commit order: had the handle's own write
        // been announced, it would come first.
        let own = pairing();
        s.store.save(&own).await.unwrap();
        let p = pairing();
        s.other.save(&p).await.unwrap();
        assert_eq!(next().await, PairingChange::Node(p.id.clone()), "a save");
        assert!(s.other.update(&Pairing { last_seen_ms: 9, ..p.clone() }).await.unwrap());
        assert_eq!(next().await, PairingChange::Node(p.id.clone()), "an update");
        assert!(s.other.remove(&p.id).await.unwrap());
        assert_eq!(next().await, PairingChange::Node(p.id.clone()), "a removal");
        // Writes that change nothing announce nothing; the handle's own
        // update and removal are not announced to it either.
        assert!(!s.other.update(&pairing()).await.unwrap());
        assert!(!s.other.remove(&pairing().id).await.unwrap());
        assert!(s.store.update(&own).await.unwrap());
        assert!(s.store.remove(&own.id).await.unwrap());
        let last = pairing();
        s.other.save(&last).await.unwrap();
        assert_eq!(next().await, PairingChange::Node(last.id.clone()));
        // The first handle's writes reach the other handle's subscribers.
        let mut other_heard = s.other.changes().unwrap();
        s.store.save(&own).await.unwrap();
        let change = tokio::time::timeout(PATIENCE, other_heard.recv()).await.expect("announced").unwrap();
        assert_eq!(change, PairingChange::Node(own.id.clone()));
    }
}

/// Every case: a sled test and an in-memory test each, and one PostgreSQL
/// test running them all.
macro_rules! cases {
    ($($name:ident),* $(,)?) => {
        /// The suite on sled: one temporary database per case.
        mod on_sled {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let (subject, _dir) = super::sled_subject(stringify!($name)).await;
                    super::suite::$name(subject).await;
                }
            )*
        }

        /// The suite on `MemoryPairings` (clones share one table).
        mod in_memory {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let store = codemode_nodes::MemoryPairings::default();
                    let other = store.clone();
                    let subject = super::Subject { store: std::sync::Arc::new(store), other: std::sync::Arc::new(other), shared: false };
                    super::suite::$name(subject).await;
                }
            )*
        }

        /// Runs every case on `subject()`'s backend, in order.
        async fn every_case(subject: impl AsyncFn() -> Subject) {
            $(
                eprintln!("pairing store suite: {}", stringify!($name));
                suite::$name(subject().await).await;
            )*
        }
    };
}

cases!(
    a_saved_pairing_reads_back_whole_through_get_and_load,
    saving_again_replaces_the_pairing_of_that_id,
    update_writes_only_while_the_stored_secret_is_the_same_and_keeps_the_pairing_time,
    remove_forgets_a_pairing_and_says_whether_there_was_one,
    a_second_handle_sees_the_first_handles_writes_at_once,
    changes_announce_every_other_handles_writes_and_never_the_handles_own,
);

/// Deletes a test's database directory when the test ends.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh sled session store and two pairing handles on it.
async fn sled_subject(case: &str) -> (Subject, TempDir) {
    let dir = std::env::temp_dir().join(format!("codemode-pairing-store-{case}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let name = format!("pairing-store-suite-{case}");
    let sessions = SessionStore::open(Some(&dir), codemode_store::StoreLimits::default(), name).expect("open");
    let store = codemode_store::node_pairings(&sessions).await.expect("pairings");
    let other = codemode_store::node_pairings(&sessions).await.expect("pairings");
    (Subject { store, other, shared: false }, TempDir(dir))
}

/// Two handles on a fresh PostgreSQL database, each through its own pool
/// (as two processes would have).
async fn pg_subject(url: &str) -> Subject {
    let handle = async || {
        let pg = codemode_store::Pg::connect(url, 2).await.expect("connect");
        let sessions = SessionStore::postgres(pg, codemode_store::StoreLimits::default(), "pairing-suite".into());
        codemode_store::node_pairings(&sessions).await.expect("pairings")
    };
    Subject { store: handle().await, other: handle().await, shared: true }
}

/// The suite on PostgreSQL, in a fresh database per case on the server
/// `CODEMODE_TEST_POSTGRES_URL` names (`./scripts/test.sh` starts one);
/// without it the test fails, saying so: it never passes without a
/// database.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pairing_store_suite_holds_on_postgresql() {
    every_case(async || pg_subject(&codemode_store::postgres::test_database().await).await).await;
}

/// A plain connection to `url`, for looking under the store.
async fn sql(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("connect");
    tokio::spawn(connection);
    client
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgresql_keeps_only_the_secrets_digest_and_refuses_anything_else_in_its_place() {
    let url = codemode_store::postgres::test_database().await;
    let s = pg_subject(&url).await;
    let p = suite::pairing();
    s.store.save(&p).await.unwrap();
    let row = sql(&url)
        .await
        .query_one("SELECT secret_sha256 FROM codemode_node_pairings WHERE id = $1", &[&p.id])
        .await
        .unwrap();
    assert_eq!(row.get::<_, String>(0), p.secret_sha256);
    // Anything but 64 lowercase hex digits (a digest's shape) is refused:
    // a secret in the clear, an uppercase digest, one digit too many.
    for not_a_digest in ["a-node-secret", &p.secret_sha256.to_uppercase(), &format!("{}0", p.secret_sha256)] {
        let bad = codemode_nodes::Pairing { secret_sha256: not_a_digest.to_owned(), ..suite::pairing() };
        let err = s.store.save(&bad).await.unwrap_err().to_string();
        assert!(err.contains("check constraint"), "{not_a_digest}: {err}");
        assert_eq!(s.store.get(&bad.id).await.unwrap(), None);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pairings_listener_killed_by_the_server_announces_a_resync_and_hears_changes_again() {
    let url = codemode_store::postgres::test_database().await;
    let s = pg_subject(&url).await;
    let mut heard = s.store.changes().unwrap();
    let killed = sql(&url)
        .await
        .query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE application_name = 'codemode-pairings-listener' AND datname = current_database()",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(killed.len(), 2, "one listener per handle");
    let patience = std::time::Duration::from_secs(30);
    let mut next = async || tokio::time::timeout(patience, heard.recv()).await.expect("announced").unwrap();
    // Once when the connection ends, once when it is back.
    assert_eq!(next().await, codemode_nodes::PairingChange::Resync);
    assert_eq!(next().await, codemode_nodes::PairingChange::Resync);
    let p = suite::pairing();
    s.other.save(&p).await.unwrap();
    assert_eq!(next().await, codemode_nodes::PairingChange::Node(p.id));
}
