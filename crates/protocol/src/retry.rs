//! Exponential back-off: the one schedule every retry loop uses.
//!
//! Reconnecting to an MCP server, to PostgreSQL's `LISTEN`, to a node
//! gateway, and retrying a journal write or a busy store all wait longer
//! after each failure, up to a ceiling, and start over after a success.
//! The schedule is plain data so each loop is tested without time.

use std::time::Duration;

/// An exponential back-off schedule: `first`, then twice as long after
/// each failure, at most `max`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backoff {
    first: Duration,
    max: Duration,
    next: Duration,
}

impl Backoff {
    /// A schedule that waits `first`, doubling up to `max` (at least
    /// `first`).
    #[must_use]
    pub fn new(first: Duration, max: Duration) -> Self {
        Self { first, max: max.max(first), next: first }
    }

    /// The pause before the next attempt; the one after it is twice as
    /// long (at most the ceiling).
    pub fn next_delay(&mut self) -> Duration {
        let delay = self.next;
        self.next = self.next.saturating_mul(2).min(self.max);
        delay
    }

    /// The pause [`next_delay`](Self::next_delay) would give, without
    /// advancing.
    #[must_use]
    pub fn peek(&self) -> Duration {
        self.next
    }

    /// An attempt succeeded: the next failure waits `first` again.
    pub fn reset(&mut self) {
        self.next = self.first;
    }

    /// [`next_delay`](Self::next_delay) scaled by a jitter factor between
    /// 0.5 and 1.5 taken from `byte` (a random byte), so many processes
    /// retrying together spread out.
    pub fn next_jittered(&mut self, byte: u8) -> Duration {
        self.next_delay().mul_f64(0.5 + f64::from(byte) / 255.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn delays_double_up_to_the_ceiling_and_start_over_after_a_reset() {
        let mut b = Backoff::new(100 * MS, 500 * MS);
        let first: Vec<_> = (0..5).map(|_| b.next_delay()).collect();
        assert_eq!(first, [100 * MS, 200 * MS, 400 * MS, 500 * MS, 500 * MS]);
        b.reset();
        assert_eq!(b.next_delay(), 100 * MS);
    }

    #[test]
    fn a_ceiling_below_the_first_delay_is_the_first_delay() {
        let mut b = Backoff::new(100 * MS, MS);
        assert_eq!((b.next_delay(), b.next_delay()), (100 * MS, 100 * MS));
    }

    #[test]
    fn jitter_stays_within_half_and_one_and_a_half_of_the_delay() {
        let mut low = Backoff::new(100 * MS, 100 * MS);
        assert_eq!(low.next_jittered(0), 50 * MS);
        assert_eq!(low.next_jittered(255), 150 * MS);
    }
}
