//! File work on the blocking pool, and the [`Cancel`] flag that stops it
//! once the call that started it is dropped.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use codemode_catalog::ToolError;

/// Set when a workspace call's future is dropped (the cell was aborted or
/// timed out): its blocking work checks it in every loop and stops, so an
/// abandoned call never keeps a blocking thread busy.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// `Err` once the call was abandoned.
    pub(crate) fn check(&self) -> Result<(), ToolError> {
        if self.0.load(Ordering::Relaxed) {
            return Err(ToolError { message: "the call was cancelled".into(), code: "cancelled".into() });
        }
        Ok(())
    }

    pub(super) fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Cancels on drop: lives in the async fn, so dropping its future flags the
/// blocking work (setting it after the work finished is harmless).
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Runs file work on the blocking pool; dropping the returned future sets
/// the work's [`Cancel`] flag.
pub(super) async fn blocking<T: Send + 'static>(
    work: impl FnOnce(&Cancel) -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    let cancel = Cancel::default();
    let _cancel_on_drop = CancelOnDrop(cancel.clone());
    tokio::task::spawn_blocking(move || {
        // A call abandoned while queued for a thread does nothing.
        cancel.check()?;
        work(&cancel)
    })
    .await
    .unwrap_or_else(|e| Err(ToolError::new(format!("file work failed: {e}"))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn dropping_a_workspace_call_stops_its_blocking_work() {
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let (stopped_tx, stopped_rx) = std::sync::mpsc::channel();
        let call = tokio::spawn(blocking(move |cancel| {
            let _ = started_tx.send(());
            // Stands for a walk or read loop: runs until cancelled.
            while cancel.check().is_ok() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            let _ = stopped_tx.send(());
            Ok(())
        }));
        started_rx.await.unwrap();
        call.abort();
        // The bound only keeps a broken build from hanging the test run.
        stopped_rx.recv_timeout(std::time::Duration::from_secs(30)).expect("the blocking work kept running");
    }
}
