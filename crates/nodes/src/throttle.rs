//! How the gateway resists strangers: per-address back-off for pairing
//! attempts, a bounded map of addresses, and a rate-limited log line.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::{NonZeroU32, NonZeroUsize};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The time source of the gateway's back-off, code expiry and log limits;
/// tests inject one they can advance.
pub type Clock = Arc<dyn Fn() -> Instant + Send + Sync>;

/// The gateway's defences against unauthenticated peers.
#[derive(Clone)]
pub struct GatewayLimits {
    /// Failed pairing attempts (a wrong code or token) an address may make
    /// before it has to wait.
    pub failures_before_backoff: u32,
    /// The first wait; it doubles with every further failure.
    pub first_backoff: Duration,
    /// The longest wait (a year at most).
    pub max_backoff: Duration,
    /// Addresses whose attempts are remembered; past this the address
    /// heard from least recently is forgotten.
    pub tracked_addresses: NonZeroUsize,
    /// Failed code attempts (from any address) after which the pairing code
    /// is replaced and the new one shown.
    pub rotate_code_after: NonZeroU32,
    /// At most one "node refused" warning per this interval (a day at
    /// most); the next one says how many were not logged.
    pub log_interval: Duration,
    /// Connections that are not paired yet, at once.
    pub max_unpaired_connections: NonZeroUsize,
    /// Of those, from one address.
    pub max_unpaired_per_address: NonZeroUsize,
    /// The clock.
    pub clock: Clock,
}

impl std::fmt::Debug for GatewayLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GatewayLimits")
            .field("failures_before_backoff", &self.failures_before_backoff)
            .field("first_backoff", &self.first_backoff)
            .field("max_backoff", &self.max_backoff)
            .field("tracked_addresses", &self.tracked_addresses)
            .field("rotate_code_after", &self.rotate_code_after)
            .field("log_interval", &self.log_interval)
            .field("max_unpaired_connections", &self.max_unpaired_connections)
            .field("max_unpaired_per_address", &self.max_unpaired_per_address)
            .finish_non_exhaustive()
    }
}

impl Default for GatewayLimits {
    fn default() -> Self {
        Self {
            failures_before_backoff: 5,
            first_backoff: Duration::from_secs(5),
            max_backoff: Duration::from_secs(15 * 60),
            tracked_addresses: NonZeroUsize::new(4096).unwrap_or(NonZeroUsize::MIN),
            rotate_code_after: NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN),
            log_interval: Duration::from_secs(1),
            max_unpaired_connections: NonZeroUsize::new(64).unwrap_or(NonZeroUsize::MIN),
            max_unpaired_per_address: NonZeroUsize::new(8).unwrap_or(NonZeroUsize::MIN),
            clock: Arc::new(Instant::now),
        }
    }
}

/// Bounds the configured durations so `Instant` arithmetic cannot
/// overflow.
const LONGEST_WAIT: Duration = Duration::from_secs(365 * 24 * 3600);
const LONGEST_LOG_INTERVAL: Duration = Duration::from_secs(24 * 3600);

/// The key an address is throttled under: an IPv6 host usually owns a
/// whole /64, so it counts as one address; IPv4-mapped IPv6 counts as IPv4.
pub(crate) fn address_key(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut octets = v6.octets();
                octets[8..].fill(0);
                IpAddr::from(octets)
            }
        },
    }
}

struct Attempts {
    failures: u32,
    locked_until: Option<Instant>,
    last: Instant,
}

/// Failed pairing attempts per address.
pub(crate) struct Throttle {
    limits: GatewayLimits,
    addresses: HashMap<IpAddr, Attempts>,
}

impl Throttle {
    pub(crate) fn new(limits: GatewayLimits) -> Self {
        Self { limits, addresses: HashMap::new() }
    }

    pub(crate) fn now(&self) -> Instant {
        (self.limits.clock)()
    }

    /// After this long without a failure an address starts afresh.
    fn memory(&self) -> Duration {
        self.limits.max_backoff.min(LONGEST_WAIT).saturating_mul(2)
    }

    /// How long `addr` must still wait before it may try again, if at all.
    pub(crate) fn locked(&self, addr: IpAddr) -> Option<Duration> {
        let now = self.now();
        let until = self.addresses.get(&address_key(addr))?.locked_until?;
        until.checked_duration_since(now).filter(|left| !left.is_zero())
    }

    /// Records a failed attempt from `addr`; returns the wait it now owes.
    pub(crate) fn failed(&mut self, addr: IpAddr) -> Option<Duration> {
        let now = self.now();
        let key = address_key(addr);
        if !self.addresses.contains_key(&key) && self.addresses.len() >= self.limits.tracked_addresses.get() {
            self.make_room(now);
        }
        let memory = self.memory();
        let entry = self.addresses.entry(key).or_insert(Attempts { failures: 0, locked_until: None, last: now });
        if now.saturating_duration_since(entry.last) > memory {
            entry.failures = 0;
        }
        entry.failures = entry.failures.saturating_add(1);
        entry.last = now;
        let over = entry.failures.checked_sub(self.limits.failures_before_backoff)?;
        // 2^over, without overflow: past 2^20 the cap has long been reached.
        let wait = self
            .limits
            .first_backoff
            .saturating_mul(1u32 << over.min(20))
            .min(self.limits.max_backoff)
            .min(LONGEST_WAIT);
        entry.locked_until = Some(now + wait);
        Some(wait)
    }

    /// `addr` paired: its failures are forgiven.
    pub(crate) fn succeeded(&mut self, addr: IpAddr) {
        self.addresses.remove(&address_key(addr));
    }

    /// Forgets stale addresses, or else the one heard from least recently.
    fn make_room(&mut self, now: Instant) {
        let memory = self.memory();
        self.addresses
            .retain(|_, a| now.saturating_duration_since(a.last) <= memory || a.locked_until.is_some_and(|u| u > now));
        if self.addresses.len() >= self.limits.tracked_addresses.get()
            && let Some(oldest) = self.addresses.iter().min_by_key(|(_, a)| a.last).map(|(k, _)| *k)
        {
            self.addresses.remove(&oldest);
        }
    }

    /// Addresses remembered now.
    #[cfg(test)]
    pub(crate) fn tracked(&self) -> usize {
        self.addresses.len()
    }
}

/// Lets one line through per interval and counts the rest.
pub(crate) struct LogLimiter {
    interval: Duration,
    next: Option<Instant>,
    suppressed: u64,
}

impl LogLimiter {
    pub(crate) fn new(interval: Duration) -> Self {
        Self { interval: interval.min(LONGEST_LOG_INTERVAL), next: None, suppressed: 0 }
    }

    /// `Some(n)` when a line may be logged now, `n` being how many were
    /// held back since the last one; `None` when this one is held back.
    pub(crate) fn allow(&mut self, now: Instant) -> Option<u64> {
        if self.next.is_some_and(|next| now < next) {
            self.suppressed = self.suppressed.saturating_add(1);
            return None;
        }
        self.next = Some(now + self.interval);
        Some(std::mem::take(&mut self.suppressed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(clock: &Arc<std::sync::Mutex<Instant>>) -> GatewayLimits {
        let clock = Arc::clone(clock);
        GatewayLimits {
            tracked_addresses: NonZeroUsize::new(3).unwrap(),
            clock: Arc::new(move || *clock.lock().unwrap()),
            ..GatewayLimits::default()
        }
    }

    #[test]
    fn an_address_waits_after_five_failures_and_the_wait_doubles_up_to_the_cap() {
        let clock = Arc::new(std::sync::Mutex::new(Instant::now()));
        let mut throttle = Throttle::new(limits(&clock));
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..4 {
            assert_eq!(throttle.failed(a), None);
        }
        assert_eq!(throttle.failed(a), Some(Duration::from_secs(5)));
        assert_eq!(throttle.locked(a), Some(Duration::from_secs(5)));
        *clock.lock().unwrap() += Duration::from_secs(5);
        assert_eq!(throttle.locked(a), None, "the wait has passed");
        assert_eq!(throttle.failed(a), Some(Duration::from_secs(10)));
        assert_eq!(throttle.failed(a), Some(Duration::from_secs(20)));
        for _ in 0..40 {
            throttle.failed(a);
        }
        assert_eq!(throttle.locked(a), Some(Duration::from_secs(15 * 60)), "capped");
        throttle.succeeded(a);
        assert_eq!(throttle.locked(a), None);
    }

    #[test]
    fn the_map_of_addresses_stays_bounded_and_ipv6_counts_per_64() {
        let clock = Arc::new(std::sync::Mutex::new(Instant::now()));
        let mut throttle = Throttle::new(limits(&clock));
        for i in 0..100u8 {
            *clock.lock().unwrap() += Duration::from_millis(1);
            throttle.failed(IpAddr::from([198, 51, 100, i]));
        }
        assert_eq!(throttle.tracked(), 3);
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let same_64: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        assert_eq!(address_key(one), address_key(same_64));
        assert_eq!(address_key("::ffff:192.0.2.7".parse().unwrap()), "192.0.2.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn the_log_limiter_lets_one_line_per_interval_through_and_counts_the_rest() {
        let mut log = LogLimiter::new(Duration::from_secs(1));
        let t = Instant::now();
        assert_eq!(log.allow(t), Some(0));
        assert_eq!(log.allow(t + Duration::from_millis(10)), None);
        assert_eq!(log.allow(t + Duration::from_millis(999)), None);
        assert_eq!(log.allow(t + Duration::from_secs(1)), Some(2));
        assert_eq!(log.allow(t + Duration::from_millis(1500)), None);
    }
}
