//! Riding out a store that is briefly away (a connection cut, a database
//! restarting): the one retry bound reads and checks of the run store and
//! the session store share, so a cell's fate and a `wait`'s answer do not
//! hang on a blip.

use std::future::Future;
use std::time::{Duration, Instant};

use codemode_protocol::retry::Backoff;

/// How long [`riding_out`] retries: as long as journal writes do.
pub(crate) const STORE_RETRY: Duration = Duration::from_secs(5);

/// `op`, retried while `transient` says its error is the store being away,
/// for up to [`STORE_RETRY`]. Only for operations a repeat changes nothing
/// by (reads, claims, checks).
pub(crate) async fn riding_out<T, E, F>(transient: impl Fn(&E) -> bool, mut op: impl FnMut() -> F) -> Result<T, E>
where
    F: Future<Output = Result<T, E>>,
{
    let began = Instant::now();
    let mut backoff = Backoff::new(Duration::from_millis(25), Duration::from_millis(500));
    loop {
        match op().await {
            Err(e) if transient(&e) && began.elapsed() + backoff.peek() < STORE_RETRY => {
                tokio::time::sleep(backoff.next_delay()).await;
            }
            other => return other,
        }
    }
}
