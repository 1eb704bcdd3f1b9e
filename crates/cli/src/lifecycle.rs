//! Graceful shutdown of `codemode serve`.
//!
//! The first SIGTERM or SIGINT starts a shutdown: new `exec` calls are
//! refused with [`Refusal::ShuttingDown`], `/ready` fails, and calls already
//! in a window (a running `exec` or `wait`) get up to the shutdown grace to
//! finish. Then the transport stops and `main` shuts the runtime down in
//! order, flushes telemetry and exits 0. A second signal exits at once with
//! `128 + signal`, as if the signal had not been handled.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::Result;
use codemode_runtime::CodeMode;
use tokio::sync::watch;

use crate::telemetry::Telemetry;

/// How long the telemetry exporters may take to flush at exit.
pub(crate) const TELEMETRY_FLUSH: Duration = Duration::from_secs(5);

/// Why a call is refused while the server shuts down; answered as a
/// `failed` result with `runtime_unavailable` and this message.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refusal {
    /// The first shutdown signal has arrived.
    #[error(
        "codemode is shutting down ({0}) and admits no new cells; run this cell again once the server is back, or \
         on another instance."
    )]
    ShuttingDown(&'static str),
}

/// The serving state every connection and the health listener share.
#[derive(Debug)]
pub(crate) struct Lifecycle {
    /// The signal that started the shutdown; `None` while serving.
    shutdown: watch::Sender<Option<&'static str>>,
    /// What must end before the transport stops: calls in a window now,
    /// and (over HTTP) responses not yet written.
    in_flight: watch::Sender<Pending>,
    /// How long running calls may take to finish once shutdown starts.
    grace: Duration,
    /// Whether the MCP transport accepts calls yet (it starts after the
    /// probe listener).
    serving: AtomicBool,
}

/// What a drain waits for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pending {
    /// MCP calls in a window.
    calls: usize,
    /// HTTP responses being written (a call's result reaches its client
    /// only once its response is).
    responses: usize,
}

impl Pending {
    fn is_empty(&self) -> bool {
        self.calls == 0 && self.responses == 0
    }
}

/// One call in a window, or one response being written; counted until it
/// is dropped.
#[derive(Debug)]
pub(crate) struct InFlight {
    lifecycle: Arc<Lifecycle>,
    response: bool,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let response = self.response;
        self.lifecycle.in_flight.send_modify(|p| {
            let count = if response { &mut p.responses } else { &mut p.calls };
            *count = count.saturating_sub(1);
        });
    }
}

impl Lifecycle {
    /// A server that is not shutting down, with `grace` for running calls.
    pub(crate) fn new(grace: Duration) -> Arc<Self> {
        Arc::new(Self {
            shutdown: watch::Sender::new(None),
            in_flight: watch::Sender::new(Pending::default()),
            grace,
            serving: AtomicBool::new(false),
        })
    }

    /// Records that the MCP transport accepts calls now.
    pub(crate) fn mark_serving(&self) {
        self.serving.store(true, Ordering::Release);
    }

    /// Whether the MCP transport accepts calls yet.
    pub(crate) fn is_serving(&self) -> bool {
        self.serving.load(Ordering::Acquire)
    }

    /// The signal that started the shutdown, once one has.
    pub(crate) fn shutting_down(&self) -> Option<&'static str> {
        *self.shutdown.borrow()
    }

    /// Starts the shutdown because of `signal`; returns whether this is the
    /// first request (a second one means: exit now).
    pub(crate) fn begin(&self, signal: &'static str) -> bool {
        self.shutdown.send_if_modified(|state| match state {
            Some(_) => false,
            None => {
                *state = Some(signal);
                true
            }
        })
    }

    /// Counts a call that may start a cell, unless the server is shutting
    /// down. Counted first and checked second, so a shutdown that starts
    /// meanwhile either sees this call or refuses it.
    pub(crate) fn admit(self: &Arc<Self>) -> Result<InFlight, Refusal> {
        let call = self.track();
        match self.shutting_down() {
            None => Ok(call),
            Some(signal) => Err(Refusal::ShuttingDown(signal)),
        }
    }

    /// Counts a call that only observes existing cells (`wait`): allowed
    /// during the grace, so a client can still collect a result.
    pub(crate) fn track(self: &Arc<Self>) -> InFlight {
        self.in_flight.send_modify(|p| p.calls += 1);
        InFlight { lifecycle: Arc::clone(self), response: false }
    }

    /// Counts an HTTP response until it is written (dropped).
    pub(crate) fn track_response(self: &Arc<Self>) -> InFlight {
        self.in_flight.send_modify(|p| p.responses += 1);
        InFlight { lifecycle: Arc::clone(self), response: true }
    }

    /// Calls in a window now.
    pub(crate) fn in_flight(&self) -> usize {
        self.in_flight.borrow().calls
    }

    /// Waits until a shutdown starts.
    pub(crate) async fn requested(&self) {
        let mut state = self.shutdown.subscribe();
        // The sender lives in `self`, so the wait cannot fail.
        let _ = state.wait_for(Option::is_some).await;
    }

    /// Waits until a shutdown starts, then until every call in a window
    /// has finished or the grace has passed; logs each step. The transport
    /// stops accepting calls when this returns.
    pub(crate) async fn drain(&self) {
        self.requested().await;
        let signal = self.shutting_down().unwrap_or("shutdown");
        let grace_ms = self.grace.as_millis();
        tracing::info!(
            "shutdown ({signal}): admitting no new cells; waiting up to {grace_ms} ms for {} running call(s)",
            self.in_flight()
        );
        let mut count = self.in_flight.subscribe();
        match tokio::time::timeout(self.grace, count.wait_for(Pending::is_empty)).await {
            Ok(_) => tracing::info!("shutdown: no call is running; closing the transport"),
            Err(_) => tracing::warn!(
                "shutdown: {} call(s) still running after the {grace_ms} ms grace; closing the transport anyway",
                self.in_flight()
            ),
        }
    }
}

/// The rest of a shutdown once the transport has stopped: say what is
/// dropped, stop the runtime in order (cells, executor, services, MCP
/// servers, nodes, then the store is flushed), flush telemetry.
pub(crate) async fn finish(rt: &CodeMode, telemetry: Telemetry) {
    match rt.live_cells().await {
        Ok(0) => tracing::info!("shutdown: no live cell to drop"),
        Ok(live) => {
            let parked = rt.metrics().parked_cells;
            tracing::info!("shutdown: stopping {live} live cell(s), {parked} of them parked: {}", survival(rt));
        }
        Err(e) => tracing::warn!("shutdown: the live cells could not be counted: {e}"),
    }
    tracing::info!("shutdown: stopping the runtime (cells, executor, services, MCP servers, nodes, store)");
    rt.shutdown().await;
    if telemetry.exports() {
        tracing::info!("shutdown: flushing telemetry (up to {} ms)", TELEMETRY_FLUSH.as_millis());
    }
    telemetry.shutdown(TELEMETRY_FLUSH).await;
    tracing::info!("shutdown: complete");
}

/// What of the cells being stopped survives, for the configured backend,
/// journal mode and durability.
fn survival(rt: &CodeMode) -> String {
    use codemode_runtime::{Durability, JournalMode};
    let Some(d) = rt.run_durability() else {
        return "runs are not journaled here ([runs] journal = \"off\", or a temporary store), so none of them \
                survives the restart"
            .to_owned();
    };
    let resumed_by = if d.shared {
        "any codemode process on the same PostgreSQL database resumes them (at once: their leases are released)"
    } else {
        "the next codemode process on this store resumes them"
    };
    let unparked = match d.journal {
        JournalMode::EveryCall => "a running cell resumes from its last settled call",
        _ => "a running cell that never parked is lost, and one that parked before loses what it did since",
    };
    let power = match d.durability {
        Durability::Process => {
            "; with [runs] durability = \"process\" a power loss may still lose the parks of its last moments"
        }
        Durability::Machine => "",
    };
    format!("parked runs are journaled and survive it: {resumed_by}; {unparked}{power}")
}

/// The exit status of a process ended by signal `number`, the shell's
/// convention.
const fn signal_status(number: i32) -> i32 {
    128 + number
}

/// Starts the shutdown on the first SIGTERM or SIGINT (ctrl-c) and exits
/// at once on the second.
///
/// # Errors
/// The signal handlers could not be installed.
#[cfg(unix)]
pub(crate) fn listen(lifecycle: Arc<Lifecycle>) -> Result<()> {
    use tokio::signal::unix::{SignalKind, signal};

    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    tokio::spawn(async move {
        loop {
            let (name, number) = tokio::select! {
                Some(()) = term.recv() => ("SIGTERM", nix::libc::SIGTERM),
                Some(()) = int.recv() => ("SIGINT", nix::libc::SIGINT),
                else => return,
            };
            on_signal(&lifecycle, name, number);
        }
    });
    Ok(())
}

/// Starts the shutdown on the first ctrl-c and exits at once on the second.
///
/// # Errors
/// Never: the handler is installed on first use.
#[cfg(not(unix))]
pub(crate) fn listen(lifecycle: Arc<Lifecycle>) -> Result<()> {
    tokio::spawn(async move {
        while tokio::signal::ctrl_c().await.is_ok() {
            on_signal(&lifecycle, "ctrl-c", 2);
        }
    });
    Ok(())
}

/// The first signal starts the shutdown; a second exits now.
fn on_signal(lifecycle: &Lifecycle, name: &'static str, number: i32) {
    if lifecycle.begin(name) {
        return;
    }
    // Cells and unexported spans are lost, and the store keeps what it
    // last flushed: the operator asked for this twice.
    tracing::error!(
        "second shutdown signal ({name}): exiting now with {} call(s) still running",
        lifecycle.in_flight()
    );
    // Its MCP servers do not outlive it, even now.
    codemode_mcp::end_all_server_processes();
    std::process::exit(signal_status(number));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_signal_starts_a_shutdown_and_exec_is_refused_after_it() {
        let lifecycle = Lifecycle::new(Duration::from_secs(1));
        assert!(!lifecycle.is_serving());
        lifecycle.mark_serving();
        assert!(lifecycle.is_serving());
        let call = lifecycle.admit().expect("serving admits");
        assert_eq!(lifecycle.in_flight(), 1);
        assert!(lifecycle.begin("SIGTERM"));
        assert!(!lifecycle.begin("SIGINT"), "the second signal is not a new shutdown");
        let refusal = lifecycle.admit().expect_err("shutting down refuses");
        assert!(refusal.to_string().contains("shutting down (SIGTERM)"), "{refusal}");
        assert_eq!(lifecycle.in_flight(), 1, "a refused call is not counted");
        let wait = lifecycle.track();
        let response = lifecycle.track_response();
        assert_eq!(lifecycle.in_flight(), 2, "responses are not calls");
        drop((call, wait));
        assert_eq!(lifecycle.in_flight(), 0);
        assert!(!lifecycle.in_flight.borrow().is_empty(), "the response is still being written");
        drop(response);
        assert!(lifecycle.in_flight.borrow().is_empty());
    }

    #[tokio::test]
    async fn draining_ends_when_the_last_call_ends_or_the_grace_passes() {
        let lifecycle = Lifecycle::new(Duration::from_secs(60));
        let call = lifecycle.admit().expect("serving admits");
        lifecycle.begin("SIGTERM");
        let drained = tokio::spawn({
            let lifecycle = Arc::clone(&lifecycle);
            async move { lifecycle.drain().await }
        });
        drop(call);
        tokio::time::timeout(Duration::from_secs(30), drained).await.expect("drained").expect("joined");

        let stuck = Lifecycle::new(Duration::from_millis(10));
        let _call = stuck.admit().expect("serving admits");
        stuck.begin("SIGINT");
        tokio::time::timeout(Duration::from_secs(30), stuck.drain()).await.expect("the grace bounds the drain");
    }
}
