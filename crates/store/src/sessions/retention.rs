//! Session retention: forgetting sessions nobody has used for a while.
//!
//! A long-running server creates sessions that never come back (`codemode
//! serve` gives each connection a fresh one unless the client names it).
//! Every backend records when each session was last seen and deletes every
//! value of a session not seen for longer than the retention:
//!
//! - when the session is touched again, before serving it, so an expired
//!   session never reappears half-deleted;
//! - in a sweep at start and then every [`sweep_interval`], in bounded
//!   steps, so requests are never held up for long.
//!
//! How each backend records and sweeps is its own (`sled/sweep.rs`, and
//! `postgres.rs`); what is shared is here: the default, the clock and the
//! sweep's pace.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a session is kept after it was last seen, unless configured.
pub const DEFAULT_SESSION_RETENTION: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// Tells the store the time, so tests can move it without sleeping.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Seconds since the Unix epoch.
    fn now_secs(&self) -> u64;
}

/// The system's wall clock.
///
/// A clock set far ahead deletes sessions early; one set back only delays
/// deletion (ages never go below zero).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_secs(&self) -> u64 {
        // Before 1970 reads as 0: ages then look like 0, which only keeps data.
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
    }
}

/// How often the sweep runs for `retention_secs`: min(retention / 24, 1 h),
/// at least once a second.
pub(crate) fn sweep_interval(retention_secs: u64) -> Duration {
    Duration::from_secs((retention_secs / 24).clamp(1, 3600))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_runs_every_twenty_fourth_of_the_retention_at_most_hourly() {
        assert_eq!(sweep_interval(30 * 86_400), Duration::from_secs(3600));
        assert_eq!(sweep_interval(3600), Duration::from_secs(150));
        assert_eq!(sweep_interval(1), Duration::from_secs(1));
    }
}
