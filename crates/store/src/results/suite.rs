//! The results cache's behaviour, checked against every backend: each case
//! below runs once in memory (an actor) and, with the `postgres` feature,
//! once on a fresh PostgreSQL database ([`crate::postgres::test_database`]),
//! so both backends keep one meaning. Where they differ by design (memory
//! refuses saves into an ended reply and holds what it saved; PostgreSQL
//! keeps no memory of ended replies and holds nothing in the process), a
//! case says so.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::{ResultsCache, ResultsError, ResultsHeld, ResultsLimits, Scope};
use crate::value::StoredValue;

/// Which backend a case runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Memory,
    #[cfg(feature = "postgres")]
    Postgres,
}

/// Two handles on one cache: on PostgreSQL with separate pools, as two
/// processes would have; in memory two handles on one actor.
struct Caches {
    kind: Kind,
    a: ResultsCache,
    b: ResultsCache,
}

fn unique(prefix: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("{prefix}-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

async fn caches(kind: Kind, limits: ResultsLimits) -> Caches {
    match kind {
        Kind::Memory => {
            let name = unique("suite-results");
            let a = ResultsCache::new(name.clone(), limits);
            a.start_unsupervised().await.unwrap();
            Caches { kind, b: ResultsCache::new(name, limits), a }
        }
        #[cfg(feature = "postgres")]
        Kind::Postgres => {
            let url = crate::postgres::test_database().await;
            let a = ResultsCache::postgres(crate::Pg::connect(&url, 4).await.unwrap(), "results-a".into(), limits);
            let b = ResultsCache::postgres(crate::Pg::connect(&url, 4).await.unwrap(), "results-b".into(), limits);
            Caches { kind, a, b }
        }
    }
}

fn v(json: &str) -> StoredValue {
    StoredValue { json: json.to_owned(), network: false }
}

/// Runs `case` on every backend, as `name::memory` and `name::postgres`.
macro_rules! on_every_backend {
    ($name:ident, $case:ident, $limits:expr) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn memory() {
                super::$case(super::caches(super::Kind::Memory, $limits).await).await;
            }

            #[cfg(feature = "postgres")]
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$case(super::caches(super::Kind::Postgres, $limits).await).await;
            }
        }
    };
}

on_every_backend!(
    results_are_bounded_per_reply_scoped_shared_by_handles_and_end_with_the_reply_ga_6_5,
    bounded_scoped_and_ended,
    super::ResultsLimits { max_entries: 3, max_bytes: 10 }
);
async fn bounded_scoped_and_ended(Caches { kind, a, b }: Caches) {
    let scope = Scope { session: "s".into(), reply: "r1".into() };
    let other = Scope { session: "s".into(), reply: "r2".into() };
    let web = StoredValue { json: "\"web\"".into(), network: true };
    let id = a.save(scope.clone(), web.clone()).await.unwrap();
    assert!(id.starts_with("result_") && id.len() == "result_".len() + 32, "{id}");
    assert_eq!(b.load(scope.clone(), id.clone()).await.unwrap(), web, "another handle loads it, provenance kept");
    assert_eq!(b.load(other.clone(), id.clone()).await.unwrap_err(), ResultsError::OtherScope);
    assert_eq!(b.load(scope.clone(), "  ".into()).await.unwrap_err(), ResultsError::BadId);
    assert_eq!(b.load(scope.clone(), "result_nope".into()).await.unwrap_err(), ResultsError::Unavailable);
    // Bytes: 5 used of 10; exactly at the bound fits, one more does not.
    let over = b.save(scope.clone(), v("123456")).await.unwrap_err();
    assert!(matches!(&over, ResultsError::Full(m) if m.contains("5 of 10 bytes")), "{over:?}");
    let second = b.save(scope.clone(), v("1234")).await.unwrap();
    let third = a.save(scope.clone(), v("1")).await.unwrap();
    let over = a.save(scope.clone(), v("1")).await.unwrap_err();
    assert!(matches!(&over, ResultsError::Full(m) if m.contains("3 references")), "{over:?}");
    // The other reply has its own bounds.
    a.save(other.clone(), v("1")).await.unwrap();
    assert!(b.delete(scope.clone(), second.clone()).await.unwrap());
    assert_eq!(a.load(scope.clone(), second.clone()).await.unwrap_err(), ResultsError::Deleted(second.clone()));
    assert_eq!(a.delete(scope.clone(), second.clone()).await.unwrap_err(), ResultsError::Deleted(second));
    a.save(scope.clone(), v("1")).await.unwrap();
    b.end_reply_wait(scope.clone()).await.unwrap();
    assert_eq!(a.load(scope.clone(), third).await.unwrap_err(), ResultsError::Unavailable);
    assert_eq!(a.load(scope.clone(), id).await.unwrap_err(), ResultsError::Unavailable);
    let late = a.save(scope.clone(), v("12345678")).await;
    let sa = a.stats();
    match kind {
        // The actor refuses a save into the ended reply, counts every
        // handle's saves in one place and holds what is left: the other
        // reply's one byte.
        Kind::Memory => {
            assert_eq!(late.unwrap_err(), ResultsError::ReplyEnded);
            assert_eq!((sa.saves, sa.saved_bytes), (5, 5 + 4 + 1 + 1 + 1));
            assert_eq!(sa.held, Some(ResultsHeld { entries: 1, bytes: 1 }));
        }
        // Each process counts its own saves (refused ones not), and holds
        // none: the rows are the database's.
        #[cfg(feature = "postgres")]
        Kind::Postgres => {
            late.unwrap();
            let sb = b.stats();
            assert_eq!((sa.saves, sa.saved_bytes, sb.saves, sb.saved_bytes), (5, 5 + 1 + 1 + 1 + 8, 1, 4));
            assert_eq!((sa.held, sb.held), (None, None), "the rows are the database's, not this process's");
        }
    }
}

on_every_backend!(
    concurrent_saves_from_two_handles_never_pass_a_replys_bounds_ga_6_5,
    concurrent_saves,
    super::ResultsLimits { max_entries: 5, max_bytes: 1000 }
);
async fn concurrent_saves(Caches { a, b, .. }: Caches) {
    let scope = Scope { session: "s".into(), reply: "r".into() };
    let tasks: Vec<_> = (0..12)
        .map(|i| {
            let (cache, scope) = (if i % 2 == 0 { a.clone() } else { b.clone() }, scope.clone());
            tokio::spawn(async move { cache.save(scope, v("1")).await })
        })
        .collect();
    let mut saved = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => saved += 1,
            Err(ResultsError::Full(_)) => {}
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!(saved, 5);
}

on_every_backend!(
    ending_a_reply_without_waiting_deletes_its_results_ga_6_5,
    end_without_waiting,
    super::ResultsLimits::default()
);
async fn end_without_waiting(Caches { a: cache, .. }: Caches) {
    let scope = Scope { session: "s".into(), reply: "r".into() };
    let id = cache.save(scope.clone(), v("1")).await.unwrap();
    cache.end_reply(scope.clone());
    let mut gone = false;
    for _ in 0..200 {
        if cache.load(scope.clone(), id.clone()).await == Err(ResultsError::Unavailable) {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(gone, "the reply's result outlived its end");
}
