//! The pool's rules on workers that are plain flags: which worker a lease
//! gets, the bounds at their edges, recycling, expiry, crashes and
//! back-off. `tests/tests/sandbox.rs` runs it on real processes.

use std::sync::atomic::{AtomicBool, AtomicUsize};

use super::*;

#[derive(Debug)]
struct Flag {
    n: usize,
    alive: AtomicBool,
}

impl Worker for Flag {
    fn alive(&self) -> bool {
        self.alive.load(Ordering::SeqCst)
    }

    fn stop(&self) {
        self.alive.store(false, Ordering::SeqCst);
    }
}

/// Starts numbered flags; fails while `failing` is set.
#[derive(Clone, Default)]
struct Flags {
    started: Arc<AtomicUsize>,
    failing: Arc<AtomicBool>,
    /// Milliseconds each start takes.
    start_ms: Arc<AtomicUsize>,
}

impl WorkerFactory for Flags {
    type Worker = Flag;

    fn start(&self) -> io::Result<Flag> {
        if self.failing.load(Ordering::SeqCst) {
            return Err(io::Error::other("no"));
        }
        std::thread::sleep(Duration::from_millis(self.start_ms.load(Ordering::SeqCst) as u64));
        let n = self.started.fetch_add(1, Ordering::SeqCst);
        Ok(Flag { n, alive: AtomicBool::new(true) })
    }
}

fn config() -> PoolConfig {
    PoolConfig {
        warm: 2,
        max_workers: 4,
        max_workers_per_key: 4,
        cells_per_worker: 2,
        recycle_after: 3,
        idle_ttl: Duration::from_secs(60),
        backoff_min: Duration::from_millis(20),
        backoff_max: Duration::from_millis(40),
    }
}

fn pool(config: PoolConfig) -> (WorkerPool<Flags, &'static str>, Flags) {
    let flags = Flags::default();
    (WorkerPool::start(flags.clone(), config).unwrap(), flags)
}

/// Waits (bounded) until `f` holds.
fn eventually(what: &str, f: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !f() {
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn spares(pool: &WorkerPool<Flags, &'static str>) -> usize {
    pool.inner.lock().spares.len()
}

#[test]
fn a_lease_takes_a_warm_spare_and_the_supervisor_starts_another() {
    let (pool, _) = pool(config());
    eventually("two spares", || spares(&pool) == 2);
    let lease = pool.lease(&"a").unwrap();
    assert_eq!(pool.stats().leases_spare, 1);
    eventually("the spare replaced", || spares(&pool) == 2);
    drop(lease);
}

#[test]
fn two_keys_never_share_a_worker_at_once_or_one_after_the_other() {
    let (pool, _) = pool(config());
    let a = pool.lease(&"a").unwrap();
    let b = pool.lease(&"b").unwrap();
    assert_ne!(a.worker().n, b.worker().n);
    let first_a = a.worker().n;
    drop(a);
    // `a`'s worker is idle now, and still `a`'s: `b` never gets it.
    for _ in 0..3 {
        let b2 = pool.lease(&"b").unwrap();
        assert_ne!(b2.worker().n, first_a);
    }
    assert_eq!(pool.lease(&"a").unwrap().worker().n, first_a, "an idle worker serves its own key again");
}

#[test]
fn a_keys_cells_share_a_worker_up_to_cells_per_worker_and_then_get_another() {
    let (pool, _) = pool(config());
    let one = pool.lease(&"a").unwrap();
    let two = pool.lease(&"a").unwrap();
    assert_eq!(one.worker().n, two.worker().n, "exactly at the bound: one worker");
    let three = pool.lease(&"a").unwrap();
    assert_ne!(three.worker().n, one.worker().n, "one over: another worker");
    assert_eq!(pool.stats().leases_bound, 1);
}

#[test]
fn leases_of_one_key_at_once_with_no_spare_share_the_one_worker_started_for_it() {
    let (pool, flags) = pool(PoolConfig { warm: 0, cells_per_worker: 8, recycle_after: 100, ..config() });
    flags.start_ms.store(50, Ordering::SeqCst);
    let pool = Arc::new(pool);
    let leases: Vec<_> = (0..8)
        .map(|_| {
            let pool = Arc::clone(&pool);
            std::thread::spawn(move || pool.lease(&"a").map(|lease| lease.worker().n))
        })
        .collect();
    let workers: Vec<usize> = leases.into_iter().map(|l| l.join().unwrap().unwrap()).collect();
    assert!(workers.iter().all(|&n| n == workers[0]), "{workers:?}");
    assert_eq!(flags.started.load(Ordering::SeqCst), 1, "one worker was started for the key");
    assert_eq!(pool.stats().leases_started, 1);
}

#[test]
fn a_lease_arriving_while_the_warm_spare_starts_waits_for_it_rather_than_starting_another() {
    let flags = Flags::default();
    flags.start_ms.store(100, Ordering::SeqCst);
    let pool = Arc::new(WorkerPool::start(flags.clone(), PoolConfig { warm: 1, ..config() }).unwrap());
    eventually("the spare is starting", || pool.inner.lock().spares_starting == 1);
    // Two leases at once: one waits for the spare on its way, the other
    // (no second spare coming) starts a worker of its own.
    let leases: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|key| {
            let pool = Arc::clone(&pool);
            std::thread::spawn(move || pool.lease(&key).map(|lease| lease.worker().n))
        })
        .collect();
    let mut workers: Vec<usize> = leases.into_iter().map(|l| l.join().unwrap().unwrap()).collect();
    workers.sort_unstable();
    assert_eq!(workers, [0, 1], "the starting spare (0) and one started for a lease (1)");
    let stats = pool.stats();
    assert_eq!((stats.leases_spare, stats.leases_started), (1, 1), "{stats:?}");
}

#[test]
fn leases_of_one_key_arriving_while_the_warm_spare_starts_share_that_spare() {
    let flags = Flags::default();
    flags.start_ms.store(100, Ordering::SeqCst);
    let config = PoolConfig { warm: 1, cells_per_worker: 8, recycle_after: 100, ..config() };
    let pool = Arc::new(WorkerPool::start(flags.clone(), config).unwrap());
    eventually("the spare is starting", || pool.inner.lock().spares_starting == 1);
    let leases: Vec<_> = (0..6)
        .map(|_| {
            let pool = Arc::clone(&pool);
            std::thread::spawn(move || pool.lease(&"a").map(|lease| lease.worker().n))
        })
        .collect();
    let workers: Vec<usize> = leases.into_iter().map(|l| l.join().unwrap().unwrap()).collect();
    assert!(workers.iter().all(|&n| n == 0), "every lease got the spare: {workers:?}");
    let stats = pool.stats();
    assert_eq!((stats.leases_spare, stats.leases_started, stats.leases_bound), (1, 0, 5), "{stats:?}");
}

#[test]
fn workers_alive_are_bounded_and_a_lease_past_the_bound_is_refused_clearly() {
    let (pool, _) = pool(PoolConfig { cells_per_worker: 1, ..config() });
    // Exactly at the bound: four keys, four workers.
    let leases: Vec<_> = ["a", "b", "c", "d"].iter().map(|k| pool.lease(k).unwrap()).collect();
    eventually("no spare past the bound", || pool.stats().alive == 4);
    let err = pool.lease(&"e").err().expect("one over the bound is refused");
    assert!(matches!(err, PoolError::Exhausted { max: 4 }), "{err}");
    assert!(err.to_string().contains("max_workers"), "{err}");
    drop(leases);
    assert!(pool.lease(&"a").is_ok());
}

#[test]
fn a_worker_is_stopped_when_the_last_of_its_recycle_after_leases_ends() {
    let (pool, _) = pool(PoolConfig { cells_per_worker: 8, ..config() });
    let first = pool.lease(&"a").unwrap();
    let n = first.worker().n;
    let second = pool.lease(&"a").unwrap();
    let third = pool.lease(&"a").unwrap();
    assert!([&second, &third].iter().all(|l| l.worker().n == n), "exactly at the bound: the same worker");
    let fourth = pool.lease(&"a").unwrap();
    assert_ne!(fourth.worker().n, n, "one over: a fresh worker");
    let worker = Arc::clone(&first.worker);
    drop((first, second));
    assert!(worker.alive(), "leased still");
    drop(third);
    assert!(!worker.alive(), "stopped with its last lease");
    assert_eq!(pool.stats().recycled, 1);
}

#[test]
fn a_bound_worker_idle_past_its_ttl_is_stopped() {
    let (pool, _) = pool(PoolConfig { idle_ttl: Duration::from_millis(30), ..config() });
    let lease = pool.lease(&"a").unwrap();
    let worker = Arc::clone(&lease.worker);
    drop(lease);
    eventually("expired", || !worker.alive());
    assert_eq!(pool.stats().expired, 1);
    assert!(pool.bound_keys().is_empty());
}

#[test]
fn a_dead_worker_is_never_leased_and_a_failed_one_is_stopped_and_counted() {
    let (pool, _) = pool(config());
    let lease = pool.lease(&"a").unwrap();
    let dead = lease.worker().n;
    lease.worker().stop();
    drop(lease);
    let next = pool.lease(&"a").unwrap();
    assert_ne!(next.worker().n, dead);
    let worker = Arc::clone(&next.worker);
    let other = pool.lease(&"a").unwrap();
    assert_eq!(other.worker().n, worker.n);
    next.fail();
    assert!(!worker.alive(), "stopped: its other cell fails with it");
    drop(other);
    assert_ne!(pool.lease(&"a").unwrap().worker().n, worker.n, "never leased again");
    assert_eq!(pool.stats().crashed, 2);
}

#[test]
fn failed_starts_back_off_and_spares_come_back_when_starts_work_again() {
    let backoff =
        PoolConfig { backoff_min: Duration::from_millis(100), backoff_max: Duration::from_millis(400), ..config() };
    let (pool, flags) = pool(backoff);
    eventually("spares", || spares(&pool) == 2);
    flags.failing.store(true, Ordering::SeqCst);
    // A spare killed while starts fail: the supervisor retries after
    // 100, 200, 400, 400 ms, not in a loop.
    let spare = Arc::clone(&pool.inner.lock().spares[0]);
    spare.stop();
    eventually("a failed start", || pool.stats().start_failures >= 1);
    std::thread::sleep(Duration::from_millis(1_000));
    let failures = pool.stats().start_failures;
    assert!(failures <= 5, "{failures} failed starts within a second of the first, backing off from 100 ms");
    let refused = pool.lease(&"a").and_then(|_| pool.lease(&"b"));
    assert!(matches!(refused, Err(PoolError::Start(_))), "no spare left, and a start fails");
    flags.failing.store(false, Ordering::SeqCst);
    eventually("spares again", || spares(&pool) == 2);
}

#[test]
fn dropping_the_pool_stops_idle_workers_now_and_leased_ones_with_their_lease() {
    let (pool, _) = pool(config());
    eventually("spares", || spares(&pool) == 2);
    let spare = Arc::clone(&pool.inner.lock().spares[0]);
    let lease = pool.lease(&"a").unwrap();
    let leased = Arc::clone(&lease.worker);
    drop(pool);
    eventually("the spare stopped", || !spare.alive());
    assert!(leased.alive());
    drop(lease);
    assert!(!leased.alive());
}

#[test]
fn a_dead_worker_frees_its_slot_at_once_though_its_leases_live_on() {
    let (pool, _) = pool(PoolConfig { warm: 0, max_workers: 2, max_workers_per_key: 2, ..config() });
    let a1 = pool.lease(&"a").unwrap();
    let b1 = pool.lease(&"b").unwrap();
    assert!(matches!(pool.lease(&"c"), Err(PoolError::Exhausted { max: 2 })));
    // Both die while their leases (parked cells) live on.
    a1.worker().stop();
    b1.worker().stop();
    let c = pool.lease(&"c").expect("a dead worker's slot is free at once");
    assert_eq!(pool.stats().alive, 1, "the dead workers left: {:?}", pool.bound_keys());
    assert_eq!(pool.stats().crashed, 2);
    // Its lessees let go later: nothing more to count.
    drop((a1, b1));
    assert_eq!(pool.stats().crashed, 2);
    assert_eq!(pool.bound_keys(), vec!["c"]);
    drop(c);
    // The supervisor sweeps one that dies leased with no lease asking.
    let d = pool.lease(&"d").unwrap();
    d.worker().stop();
    eventually("swept", || !pool.bound_keys().contains(&"d"));
}

#[test]
fn one_key_holds_at_most_its_cap_of_workers_and_others_still_get_theirs() {
    let (pool, _) =
        pool(PoolConfig { warm: 0, max_workers: 4, max_workers_per_key: 2, cells_per_worker: 1, ..config() });
    let held: Vec<_> = (0..2).map(|_| pool.lease(&"a").unwrap()).collect();
    assert!(matches!(pool.lease(&"a"), Err(PoolError::KeyExhausted { max: 2 })), "one over the cap");
    let other = pool.lease(&"b").expect("another key still gets a worker");
    drop(held);
    drop(other);
}
