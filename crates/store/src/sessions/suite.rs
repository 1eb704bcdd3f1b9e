//! The session store's behaviour, checked against every backend: each case
//! below runs once on sled (a temporary database and its actor) and, with
//! the `postgres` feature, once on a fresh PostgreSQL database
//! ([`crate::postgres::test_database`]), so both backends keep one meaning.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::{SessionStore, StoreLimits, StoredValue};
use crate::error::StoreError;

/// Which backend a case runs on.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Sled,
    #[cfg(feature = "postgres")]
    Postgres,
}

/// Two handles on one store. On PostgreSQL they have separate pools, as
/// two processes would; on sled both are the same process's handle.
struct Stores {
    a: SessionStore,
    b: SessionStore,
}

fn unique(prefix: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("{prefix}-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

async fn stores(kind: Kind) -> Stores {
    let limits = StoreLimits::default();
    match kind {
        Kind::Sled => {
            let a = SessionStore::open(None, limits, unique("suite-sled")).unwrap();
            a.start_actor(None).await.unwrap();
            Stores { b: a.clone(), a }
        }
        #[cfg(feature = "postgres")]
        Kind::Postgres => {
            let url = crate::postgres::test_database().await;
            let a = SessionStore::postgres(crate::Pg::connect(&url, 4).await.unwrap(), limits, unique("suite-pg"));
            let b = SessionStore::postgres(crate::Pg::connect(&url, 4).await.unwrap(), limits, unique("suite-pg"));
            a.start_actor(None).await.unwrap();
            Stores { a, b }
        }
    }
}

fn v(json: &str) -> Option<StoredValue> {
    Some(StoredValue { json: json.to_owned(), network: false })
}

/// A JSON string value of exactly `bytes` bytes.
fn sized(bytes: usize) -> Option<StoredValue> {
    v(&format!("\"{}\"", "x".repeat(bytes - 2)))
}

fn w(key: &str, value: Option<StoredValue>) -> (String, Option<StoredValue>) {
    (key.to_owned(), value)
}

/// Runs `case` on every backend, as `name::sled` and `name::postgres`.
macro_rules! on_every_backend {
    ($name:ident, $case:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sled() {
                super::$case(super::stores(super::Kind::Sled).await).await;
            }

            #[cfg(feature = "postgres")]
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$case(super::stores(super::Kind::Postgres).await).await;
            }
        }
    };
}

on_every_backend!(a_committed_value_loads_back_verbatim_with_its_network_provenance_ga_7_1_ga_7_7, round_trip);
async fn round_trip(s: Stores) {
    let web = StoredValue { json: r#"{"from":"the web","n":[1,2.5,null]}"#.into(), network: true };
    let odd = "ключ \u{0} \"quoted\" \\ 🦀";
    s.a.commit("s", vec![w("web", Some(web.clone())), w("local", v("\"ü\"")), w(odd, v("[]"))]).await.unwrap();
    assert_eq!(s.b.load("s", "web").await.unwrap(), Some(web), "the network mark travels with the value");
    assert_eq!(s.b.load("s", "local").await.unwrap(), v("\"ü\""));
    assert_eq!(s.b.load("s", odd).await.unwrap(), v("[]"), "any key, NUL and all, is kept verbatim");
    assert_eq!(s.b.load("s", "absent").await.unwrap(), None);
    assert_eq!(s.b.load("never-written", "web").await.unwrap(), None);
    s.a.flush().await.unwrap();
}

on_every_backend!(a_session_exactly_at_1_mib_commits_and_one_byte_more_is_refused_writing_nothing_ga_7_3, at_the_limit);
async fn at_the_limit(s: Stores) {
    let quarter = 256 * 1024;
    // Exactly 1 MiB in one commit.
    s.a.commit(
        "full",
        vec![w("a", sized(quarter)), w("b", sized(quarter)), w("c", sized(quarter)), w("d", sized(quarter))],
    )
    .await
    .unwrap();
    s.a.check("full", vec![("a".into(), Some(quarter))]).await.unwrap();
    let over = s.a.check("full", vec![("e".into(), Some(1))]).await.unwrap_err();
    assert!(matches!(over, StoreError::SessionFull(1)), "{over:?}");
    assert_eq!(over.js_name(), "RangeError");
    // One byte over in a commit that also deletes nothing: refused whole.
    let over = s.b.commit("full", vec![w("z", None), w("e", v("1"))]).await.unwrap_err();
    assert!(matches!(over, StoreError::SessionFull(1)), "{over:?}");
    assert_eq!(s.a.load("full", "e").await.unwrap(), None, "a refused commit writes nothing");
    // Replacing a value counts its new size only; a delete frees its bytes.
    s.b.commit("full", vec![w("a", sized(quarter - 1)), w("e", v("1"))]).await.unwrap();
    s.b.commit("full", vec![w("b", None), w("f", sized(quarter))]).await.unwrap();
    // A fresh session given 1 MiB + 1 byte in its first commit.
    let over =
        s.a.commit(
            "fresh",
            vec![w("a", sized(quarter)), w("b", sized(quarter)), w("c", sized(quarter)), w("d", sized(quarter + 1))],
        )
        .await
        .unwrap_err();
    assert!(matches!(over, StoreError::SessionFull(1)), "{over:?}");
    assert_eq!(s.a.load("fresh", "a").await.unwrap(), None);
}

on_every_backend!(deleting_a_key_frees_it_and_within_a_commit_the_last_write_of_a_key_wins_ga_7_4, last_write_wins);
async fn last_write_wins(s: Stores) {
    s.a.commit("s", vec![w("k", v("1")), w("k", v("2")), w("gone", v("3")), w("gone", None)]).await.unwrap();
    assert_eq!(s.b.load("s", "k").await.unwrap(), v("2"));
    assert_eq!(s.b.load("s", "gone").await.unwrap(), None);
    s.a.commit("s", vec![w("k", None), w("k", v("4"))]).await.unwrap();
    assert_eq!(s.b.load("s", "k").await.unwrap(), v("4"));
    s.a.commit("s", vec![w("k", None)]).await.unwrap();
    assert_eq!(s.b.load("s", "k").await.unwrap(), None);
    s.a.commit("s", vec![]).await.unwrap();
    s.a.check("s", vec![]).await.unwrap();
}

on_every_backend!(
    sessions_are_isolated_even_when_one_name_prefixes_another_and_a_fork_copies_then_diverges_ga_7_7,
    isolation_and_fork
);
async fn isolation_and_fork(s: Stores) {
    s.a.commit("a", vec![w("bk", v("1"))]).await.unwrap();
    s.a.commit("ab", vec![w("k", v("2"))]).await.unwrap();
    assert_eq!(s.b.load("a", "k").await.unwrap(), None);
    assert_eq!(s.b.load("ab", "bk").await.unwrap(), None);
    assert_eq!(s.b.load("a", "bk").await.unwrap(), v("1"));
    let web = StoredValue { json: "7".into(), network: true };
    s.a.commit("parent", vec![w("x", v("1")), w("web", Some(web.clone()))]).await.unwrap();
    s.b.fork("parent", "child").await.unwrap();
    assert_eq!(s.a.load("child", "x").await.unwrap(), v("1"));
    assert_eq!(s.a.load("child", "web").await.unwrap(), Some(web), "a fork keeps provenance");
    s.a.commit("child", vec![w("x", v("2"))]).await.unwrap();
    assert_eq!(s.b.load("parent", "x").await.unwrap(), v("1"), "the parent does not see the child's writes");
    let taken = s.b.fork("ab", "child").await.unwrap_err();
    assert!(matches!(&taken, StoreError::SessionExists(to) if to == "child"), "{taken:?}");
    assert_eq!(s.a.load("child", "x").await.unwrap(), v("2"), "a refused fork changes nothing");
    s.b.fork("nobody", "empty-child").await.unwrap();
    assert_eq!(s.a.load("empty-child", "x").await.unwrap(), None);
}

on_every_backend!(concurrent_commits_to_one_session_are_applied_in_order_and_never_pass_1_mib_ga_7_3, commit_order);
async fn commit_order(s: Stores) {
    // Sixteen commits of 100 KiB each race from two handles: in any order,
    // exactly ten fit 1 MiB (1000 KiB), the eleventh would not.
    let mut tasks = Vec::new();
    for i in 0..16 {
        let store = if i % 2 == 0 { s.a.clone() } else { s.b.clone() };
        tasks.push(tokio::spawn(
            async move { store.commit("race", vec![w(&format!("k{i}"), sized(100 * 1024))]).await },
        ));
    }
    let mut committed = Vec::new();
    for (i, task) in tasks.into_iter().enumerate() {
        match task.await.unwrap() {
            Ok(()) => committed.push(i),
            Err(StoreError::SessionFull(1)) => {}
            Err(e) => panic!("commit {i}: {e:?}"),
        }
    }
    assert_eq!(committed.len(), 10, "committed: {committed:?}");
    for i in 0..16 {
        assert_eq!(s.a.load("race", &format!("k{i}")).await.unwrap().is_some(), committed.contains(&i), "k{i}");
    }
}

#[cfg(feature = "postgres")]
mod postgres_only {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    use super::*;
    use crate::sessions::Clock;

    const DAY: u64 = 86_400;
    const START: u64 = 1_700_000_000;

    #[derive(Debug)]
    struct ManualClock(AtomicU64);

    impl Clock for ManualClock {
        fn now_secs(&self) -> u64 {
            self.0.load(Ordering::SeqCst)
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sled_only_operations_on_a_postgres_store_are_typed_errors_not_panics() {
        let url = crate::postgres::test_database().await;
        let store =
            SessionStore::postgres(crate::Pg::connect(&url, 1).await.unwrap(), StoreLimits::default(), "p".into());
        let err = store.tree("pairings").unwrap_err();
        assert!(matches!(err, StoreError::SledOnly(_)), "{err:?}");
        assert!(err.to_string().contains("only available with the sled session store"), "{err}");
        assert!(store.pg().is_some());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_expired_postgres_session_is_emptied_when_it_comes_back_and_the_sweeper_deletes_the_rest_and_stale_results_ga_7_1()
     {
        let url = crate::postgres::test_database().await;
        let clock = Arc::new(ManualClock(AtomicU64::new(START)));
        let pg = crate::Pg::connect(&url, 2).await.unwrap();
        let store = SessionStore::postgres(pg.clone(), StoreLimits::default(), "retention".into())
            .with_retention(Some(Duration::from_secs(DAY)))
            .unwrap()
            .with_clock(Arc::clone(&clock) as Arc<dyn Clock>);
        for s in ["back", "swept", "kept"] {
            store.commit(s, vec![w("k", v("1"))]).await.unwrap();
        }
        clock.0.store(START + DAY, Ordering::SeqCst);
        assert_eq!(store.load("kept", "k").await.unwrap(), v("1"), "exactly the retention keeps");
        clock.0.store(START + DAY + 1, Ordering::SeqCst);
        assert_eq!(store.load("back", "k").await.unwrap(), None, "expired: emptied before it is served");
        store.commit("back", vec![w("fresh", v("2"))]).await.unwrap();
        let client = pg.client().await.unwrap();
        // Results of a reply that never ended: one saved two days ago (by
        // the server's clock), one just now.
        client
            .batch_execute(
                "INSERT INTO codemode_results (id, session, reply, json, network, saved_s) VALUES
                     ('result_old', 's', 'r', '1', false, extract(epoch FROM now())::bigint - 172800),
                     ('result_new', 's', 'r', '1', false, DEFAULT)",
            )
            .await
            .unwrap();
        // The sweeper's first sweep runs at start.
        store.start_actor(None).await.unwrap();
        let mut waited = 0;
        loop {
            let rows = client.query("SELECT session FROM codemode_sessions ORDER BY session", &[]).await.unwrap();
            let names: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
            let rows = client.query("SELECT id FROM codemode_results", &[]).await.unwrap();
            let results: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
            // Results older than the retention go too.
            if names == ["back", "kept"] && results == ["result_new"] {
                break;
            }
            assert!(waited < 200, "the sweeper left {names:?} and {results:?}");
            tokio::time::sleep(Duration::from_millis(25)).await;
            waited += 1;
        }
        assert_eq!(store.load("back", "fresh").await.unwrap(), v("2"), "written after it came back: kept");
        assert_eq!(store.load("kept", "k").await.unwrap(), v("1"), "seen at START + DAY: kept");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_postgres_commit_whose_caller_goes_away_is_still_applied_ga_7_6() {
        let url = crate::postgres::test_database().await;
        let store =
            SessionStore::postgres(crate::Pg::connect(&url, 2).await.unwrap(), StoreLimits::default(), "cancel".into());
        for i in 0..20 {
            // Dropped after its first poll: the commit is under way.
            let commit = store.commit("s", vec![(format!("k{i}"), v("1"))]);
            let _ = tokio::time::timeout(Duration::from_micros(1), commit).await;
        }
        let mut missing = 20;
        for _ in 0..200 {
            missing = 0;
            for i in 0..20 {
                if store.load("s", &format!("k{i}")).await.unwrap().is_none() {
                    missing += 1;
                }
            }
            if missing == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(missing, 0, "commits whose callers went away were lost");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pooled_connections_the_server_kills_are_typed_errors_at_worst_and_then_replaced() {
        let url = crate::postgres::test_database().await;
        let pg = crate::Pg::connect(&url, 2).await.unwrap();
        let store = SessionStore::postgres(pg.clone(), StoreLimits::default(), "killed".into());
        store.commit("s", vec![("k".into(), v("1"))]).await.unwrap();
        let admin = crate::Pg::connect(&url, 1).await.unwrap();
        let admin = admin.client().await.unwrap();
        admin
            .execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                 WHERE datname = current_database() AND pid <> pg_backend_pid()",
                &[],
            )
            .await
            .unwrap();
        let mut loaded = None;
        for _ in 0..5 {
            match store.load("s", "k").await {
                Ok(value) => {
                    loaded = value;
                    break;
                }
                Err(e) => assert!(matches!(e, StoreError::Database(_)), "{e:?}"),
            }
        }
        assert_eq!(loaded, v("1"));
    }
}
