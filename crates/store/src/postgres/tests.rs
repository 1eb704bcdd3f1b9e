//! Tests of the shared PostgreSQL plumbing on a real server: the pool,
//! the migrations and the test databases. Each test makes its own database
//! with [`test_database`](super::test_database), so they run in parallel
//! without sharing data. Each concept's PostgreSQL backend is tested in its
//! own folder.

use super::{MIGRATIONS, Pg, test_database};
use crate::error::StoreError;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn processes_connecting_together_apply_every_migration_exactly_once() {
    let url = test_database().await;
    let connects: Vec<_> = (0..4)
        .map(|_| {
            tokio::spawn({
                let url = url.clone();
                async move { Pg::connect(&url, 2).await }
            })
        })
        .collect();
    for c in connects {
        c.await.unwrap().unwrap();
    }
    let pg = Pg::connect(&url, 1).await.unwrap();
    let rows = pg
        .client()
        .await
        .unwrap()
        .query("SELECT version, name FROM codemode_schema_migrations ORDER BY version", &[])
        .await
        .unwrap();
    let applied: Vec<(i64, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    let known: Vec<(i64, String)> = MIGRATIONS.iter().map(|m| (m.version, m.name.to_owned())).collect();
    assert_eq!(applied, known);
    assert!(!pg.url().contains("password"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_a_newer_codemode_migrated_is_refused_naming_its_version_and_left_untouched() {
    let url = test_database().await;
    let pg = Pg::connect(&url, 1).await.unwrap();
    let client = pg.client().await.unwrap();
    client.execute("INSERT INTO codemode_schema_migrations (version, name) VALUES (99, 'future')", &[]).await.unwrap();
    let err = Pg::connect(&url, 1).await.unwrap_err();
    let newest = MIGRATIONS.last().unwrap().version;
    assert!(matches!(err, StoreError::SchemaTooNew { found: 99, known, .. } if known == newest), "{err:?}");
    let message = err.to_string();
    assert!(
        message.contains("99") && message.contains("Upgrade codemode") && message.contains("127.0.0.1"),
        "{message}"
    );
    let count: i64 = client.query_one("SELECT count(*) FROM codemode_schema_migrations", &[]).await.unwrap().get(0);
    assert_eq!(count, i64::try_from(MIGRATIONS.len()).unwrap() + 1, "nothing was applied or removed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_or_malformed_url_is_a_connect_error_that_never_shows_the_password() {
    // Port 1 on loopback: nothing listens, the refusal is immediate.
    let err = Pg::connect("postgres://codemode:s3cret@127.0.0.1:1/db", 2).await.unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("postgres://codemode@127.0.0.1:1/db") && message.contains("[store] url"), "{message}");
    assert!(!message.contains("s3cret"), "{message}");
    let err = Pg::connect("postgres://codemode:s3cret@127.0.0.1:notaport/db", 2).await.unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }) && !err.to_string().contains("s3cret"), "{err}");
    let err = Pg::connect("host=127.0.0.1 port=1 password=s3cret user=u connect_timeout=2", 2).await.unwrap_err();
    assert!(!err.to_string().contains("s3cret"), "{err}");
    for size in [0, super::MAX_POOL_SIZE + 1] {
        assert!(matches!(Pg::connect("postgres://x@127.0.0.1:1/db", size).await, Err(StoreError::PoolSize(_))));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_that_does_not_exist_is_a_connect_error_naming_it() {
    let url = super::with_dbname(&test_database().await, "t_never_created");
    let err = Pg::connect(&url, 1).await.unwrap_err();
    assert!(matches!(err, StoreError::Connect { .. }), "{err:?}");
    assert!(err.to_string().contains("t_never_created"), "{err}");
}

#[test]
fn test_database_urls_name_the_new_database_in_both_url_forms() {
    assert_eq!(super::with_dbname("postgres://u@h:5/postgres", "t_1"), "postgres://u@h:5/t_1");
    assert_eq!(
        super::with_dbname("postgresql://u@h/postgres?sslmode=disable", "t_1"),
        "postgresql://u@h/t_1?sslmode=disable"
    );
    assert_eq!(super::with_dbname("postgres://u@h:5", "t_1"), "postgres://u@h:5/t_1");
    assert_eq!(super::with_dbname("host=h user=u", "t_1"), "host=h user=u dbname=t_1");
}
