//! Cross-thread control of a running cell and what its guest costs.
//!
//! The QuickJS interrupt handler reads [`CellControl`] every few thousand
//! bytecode operations: past the window's deadline, past the guest-CPU
//! budget, or once aborted, guest code stops. The same place counts the
//! cell's costs for its receipt (the result's telemetry): guest CPU time,
//! time spent waiting on the host inside windows, the largest heap seen.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Nothing set / not running.
const NONE: u64 = u64::MAX;

/// CPU time this thread has used, in nanoseconds.
///
/// `std` has no per-thread CPU clock; `CLOCK_THREAD_CPUTIME_ID` is POSIX.
fn thread_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// The system's monotonic clock, in nanoseconds: the one clock a host and
/// its engine workers share (`Instant` reads it but cannot be sent), so a
/// step's deadline crosses to a worker as a point in time, not as time
/// left from whenever the worker gets to it.
pub(crate) fn monotonic_ns() -> u64 {
    clock_ns(libc::CLOCK_MONOTONIC)
}

/// The point `at` (an `Instant` of this process) on the monotonic clock.
pub(crate) fn monotonic_at(at: Instant) -> u64 {
    let now = Instant::now();
    let base = monotonic_ns();
    match at.checked_duration_since(now) {
        Some(ahead) => base.saturating_add(u64::try_from(ahead.as_nanos()).unwrap_or(u64::MAX)),
        None => base.saturating_sub(u64::try_from(now.duration_since(at).as_nanos()).unwrap_or(u64::MAX)),
    }
}

/// The `Instant` of this process at monotonic time `at` (a time already
/// past is now).
pub(crate) fn instant_at(at: u64) -> Instant {
    Instant::now() + Duration::from_nanos(at.saturating_sub(monotonic_ns()))
}

#[expect(unsafe_code, reason = "clock_gettime is a plain libc call")]
fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock ids used are
    // constants every supported target defines.
    let rc = unsafe { libc::clock_gettime(clock, &raw mut ts) };
    // It cannot fail for these clocks on Linux or macOS.
    debug_assert_eq!(rc, 0, "clock_gettime({clock}) failed");
    let secs = u64::try_from(ts.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(ts.tv_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// Why the interrupt handler stopped guest code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Stop {
    /// Aborted by a host or client.
    Aborted,
    /// Past the window's wall-clock deadline.
    Deadline,
    /// Past the run's guest-CPU budget.
    CpuBudget,
    /// The engine's worker process failed (it died, misbehaved or fell
    /// silent): the cell cannot go on there. Never set by the interrupt
    /// handler.
    Crashed,
}

/// What a cell's guest has cost so far (see [`CellControl::costs`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Costs {
    /// CPU time the JS thread spent running the cell's steps.
    pub guest_cpu: Duration,
    /// Wall-clock time inside windows that the guest sat idle waiting on
    /// host work (tools, timers).
    pub host_wait: Duration,
    /// The most bytes the engine has held at once (noted at the end of
    /// each window, and by a worker in each report).
    pub heap_peak_bytes: u64,
}

/// Cross-thread control of a running cell: its deadline, CPU budget and
/// abort flag, read by the QuickJS interrupt handler; and its costs.
#[derive(Debug)]
pub(crate) struct CellControl {
    epoch: Instant,
    deadline_ns: AtomicU64,
    aborted: AtomicBool,
    /// Why guest code was stopped (a [`Stop`] as its index + 1; 0: not).
    stopped: AtomicU64,
    /// The run's guest-CPU budget, or [`NONE`].
    cpu_budget_ns: u64,
    /// Off while a resumed run replays: the replay re-runs work the run
    /// already paid for (and the receipt does not count it).
    cpu_enforced: AtomicBool,
    /// CPU time of the steps that have ended.
    cpu_spent_ns: AtomicU64,
    /// When the running step began (since `epoch`), or [`NONE`].
    step_start_ns: AtomicU64,
    /// The thread's CPU clock at the running step's first interrupt check,
    /// or [`NONE`]; and when (since `epoch`) it was read.
    step_cpu_mark_ns: AtomicU64,
    step_wall_mark_ns: AtomicU64,
    /// When the guest went idle inside a window (since `epoch`), or [`NONE`].
    idle_since_ns: AtomicU64,
    host_wait_ns: AtomicU64,
    heap_peak_bytes: AtomicU64,
}

impl CellControl {
    /// A cell's control; `cpu_budget` bounds the guest's CPU time over the
    /// whole run.
    pub(crate) fn new(cpu_budget: Option<Duration>) -> Self {
        let budget = cpu_budget.map_or(NONE, |d| u64::try_from(d.as_nanos()).unwrap_or(NONE));
        Self {
            epoch: Instant::now(),
            deadline_ns: AtomicU64::new(NONE),
            aborted: AtomicBool::new(false),
            stopped: AtomicU64::new(0),
            cpu_budget_ns: budget,
            cpu_enforced: AtomicBool::new(true),
            cpu_spent_ns: AtomicU64::new(0),
            step_start_ns: AtomicU64::new(NONE),
            step_cpu_mark_ns: AtomicU64::new(NONE),
            step_wall_mark_ns: AtomicU64::new(NONE),
            idle_since_ns: AtomicU64::new(NONE),
            host_wait_ns: AtomicU64::new(0),
            heap_peak_bytes: AtomicU64::new(0),
        }
    }

    fn nanos(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.epoch).as_nanos()).unwrap_or(NONE - 1)
    }

    /// Sets the instant after which guest code is interrupted: a window
    /// opens, and the guest waits on the host until its first step.
    pub(crate) fn set_deadline(&self, at: Instant) {
        self.deadline_ns.store(self.nanos(at), Ordering::Relaxed);
        self.idle_since_ns.store(self.nanos(Instant::now()), Ordering::Relaxed);
    }

    /// No deadline: the window closed and the cell is parked.
    pub(crate) fn clear_deadline(&self) {
        self.deadline_ns.store(NONE, Ordering::Relaxed);
        self.end_idle();
    }

    /// The engine holds `bytes` now.
    pub(crate) fn note_heap(&self, bytes: usize) {
        self.heap_peak_bytes.fetch_max(bytes as u64, Ordering::Relaxed);
    }

    fn end_idle(&self) {
        let since = self.idle_since_ns.swap(NONE, Ordering::Relaxed);
        if since != NONE {
            let waited = self.nanos(Instant::now()).saturating_sub(since);
            self.host_wait_ns.fetch_add(waited, Ordering::Relaxed);
        }
    }

    /// Guest code starts running on this thread (until [`end_step`](Self::end_step)).
    pub(crate) fn begin_step(&self) {
        self.end_idle();
        self.step_cpu_mark_ns.store(NONE, Ordering::Relaxed);
        self.step_start_ns.store(self.nanos(Instant::now()), Ordering::Relaxed);
    }

    /// CPU time the running step has taken, or 0 outside a step.
    ///
    /// The thread's CPU clock is a system call (~0.3 µs here, as much as a
    /// whole short step), so a step is timed by the wall clock until its
    /// first interrupt check (every few thousand bytecode operations) and
    /// by the CPU clock from there: a short step costs two wall-clock reads,
    /// a long one a CPU-clock read per interrupt check, and the wall-clock
    /// part of a step is at most one interrupt interval.
    fn running_cpu_ns(&self) -> u64 {
        let start = self.step_start_ns.load(Ordering::Relaxed);
        if start == NONE {
            return 0;
        }
        let mark = self.step_cpu_mark_ns.load(Ordering::Relaxed);
        if mark == NONE {
            return self.nanos(Instant::now()).saturating_sub(start);
        }
        let before_mark = self.step_wall_mark_ns.load(Ordering::Relaxed).saturating_sub(start);
        before_mark.saturating_add(thread_cpu_ns().saturating_sub(mark))
    }

    /// The step that [`begin_step`](Self::begin_step) began has ended: its
    /// CPU time is counted, and inside a window the guest now waits.
    pub(crate) fn end_step(&self) {
        let took = self.running_cpu_ns();
        self.step_start_ns.store(NONE, Ordering::Relaxed);
        self.cpu_spent_ns.fetch_add(took, Ordering::Relaxed);
        if self.deadline_ns.load(Ordering::Relaxed) != NONE {
            self.idle_since_ns.store(self.nanos(Instant::now()), Ordering::Relaxed);
        }
    }

    /// A resumed run replays its journal: its CPU is neither budgeted nor
    /// counted until [`resume_costs`](Self::resume_costs).
    pub(crate) fn pause_cpu_budget(&self) {
        self.cpu_enforced.store(false, Ordering::Relaxed);
    }

    /// The replay is over: the run goes on with the costs its journal
    /// recorded, and its budget applies again.
    pub(crate) fn resume_costs(&self, recorded: Costs) {
        let ns = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(NONE - 1);
        self.cpu_spent_ns.store(ns(recorded.guest_cpu), Ordering::Relaxed);
        self.host_wait_ns.store(ns(recorded.host_wait), Ordering::Relaxed);
        self.heap_peak_bytes.fetch_max(recorded.heap_peak_bytes, Ordering::Relaxed);
        self.cpu_enforced.store(true, Ordering::Relaxed);
    }

    /// What the guest has cost so far, the running step included.
    pub(crate) fn costs(&self) -> Costs {
        let cpu = self.cpu_spent_ns.load(Ordering::Relaxed).saturating_add(self.running_cpu_ns());
        let mut wait = self.host_wait_ns.load(Ordering::Relaxed);
        let since = self.idle_since_ns.load(Ordering::Relaxed);
        if since != NONE {
            wait = wait.saturating_add(self.nanos(Instant::now()).saturating_sub(since));
        }
        Costs {
            guest_cpu: Duration::from_nanos(cpu),
            host_wait: Duration::from_nanos(wait),
            heap_peak_bytes: self.heap_peak_bytes.load(Ordering::Relaxed),
        }
    }

    /// Asks a running step to stop as soon as possible.
    pub(crate) fn abort(&self) {
        self.aborted.store(true, Ordering::Relaxed);
    }

    /// Why the interrupt handler stopped guest code, if it did.
    pub(crate) fn stopped(&self) -> Option<Stop> {
        match self.stopped.load(Ordering::Relaxed) {
            0 => None,
            1 => Some(Stop::Aborted),
            2 => Some(Stop::Deadline),
            _ => Some(Stop::CpuBudget),
        }
    }

    fn over_cpu_budget(&self) -> bool {
        // The first check of a step marks where the CPU clock takes over.
        if self.step_start_ns.load(Ordering::Relaxed) != NONE && self.step_cpu_mark_ns.load(Ordering::Relaxed) == NONE {
            self.step_wall_mark_ns.store(self.nanos(Instant::now()), Ordering::Relaxed);
            self.step_cpu_mark_ns.store(thread_cpu_ns(), Ordering::Relaxed);
        }
        if self.cpu_budget_ns == NONE || !self.cpu_enforced.load(Ordering::Relaxed) {
            return false;
        }
        let running = self.running_cpu_ns();
        self.cpu_spent_ns.load(Ordering::Relaxed).saturating_add(running) > self.cpu_budget_ns
    }

    /// The interrupt handler's question: stop guest code now?
    pub(crate) fn should_interrupt(&self) -> bool {
        let stop = if self.aborted.load(Ordering::Relaxed) {
            Stop::Aborted
        } else if self.nanos(Instant::now()) > self.deadline_ns.load(Ordering::Relaxed) {
            Stop::Deadline
        } else if self.over_cpu_budget() {
            Stop::CpuBudget
        } else {
            return false;
        };
        // The first reason stands: an abort after a timeout is a timeout.
        let code = match stop {
            Stop::Aborted => 1,
            Stop::Deadline => 2,
            Stop::CpuBudget | Stop::Crashed => 3,
        };
        let _ = self.stopped.compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(d: Duration) {
        let start = thread_cpu_ns();
        while thread_cpu_ns() - start < u64::try_from(d.as_nanos()).unwrap() {
            std::hint::black_box(0);
        }
    }

    #[test]
    fn a_step_past_the_cpu_budget_is_interrupted_and_one_within_it_is_not() {
        let control = CellControl::new(Some(Duration::from_millis(20)));
        control.begin_step();
        assert!(!control.should_interrupt(), "nothing spent yet");
        spin(Duration::from_millis(25));
        assert!(control.should_interrupt());
        assert_eq!(control.stopped(), Some(Stop::CpuBudget));
        control.end_step();
        assert!(control.costs().guest_cpu >= Duration::from_millis(25));
    }

    #[test]
    fn cpu_spent_while_replaying_is_neither_budgeted_nor_counted() {
        let control = CellControl::new(Some(Duration::from_millis(5)));
        control.pause_cpu_budget();
        control.begin_step();
        spin(Duration::from_millis(10));
        assert!(!control.should_interrupt(), "a replay is not budgeted");
        control.end_step();
        control.resume_costs(Costs { guest_cpu: Duration::from_millis(1), ..Costs::default() });
        assert_eq!(control.costs().guest_cpu, Duration::from_millis(1));
        assert!(!control.should_interrupt());
    }

    #[test]
    fn time_idle_inside_a_window_is_host_wait_and_parked_time_is_not() {
        let control = CellControl::new(None);
        control.set_deadline(Instant::now() + Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(5));
        control.begin_step();
        control.end_step();
        control.clear_deadline();
        control.note_heap(1000);
        let waited = control.costs().host_wait;
        assert!(waited >= Duration::from_millis(5), "{waited:?}");
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(control.costs().host_wait, waited, "parked time is not host wait");
        assert_eq!(control.costs().heap_peak_bytes, 1000);
    }
}
