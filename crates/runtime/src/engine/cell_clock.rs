//! The clock a cell's `Date` reads: the host's journaled clock, through
//! the engine's own `Date`, untouched.
//!
//! QuickJS reads the time for `Date.now()`, `new Date()` and `Date()` in
//! one place, `date_now` in `quickjs.c`, which calls the C library's
//! `gettimeofday`. A replay must see the values the run saw, so the read
//! goes to the cell's journaled clock; replacing `Date` in JavaScript
//! would change its shape (a constructor that is not the intrinsic, a
//! `Date.now` with a `prototype`, a source text for `toString`). This
//! module defines `gettimeofday` instead, as `local_time` defines
//! `localtime_r`: on a thread running a cell ([`ClockScope`]) it answers
//! from the cell's clock, and every other caller in the process gets the
//! C library's own function (found once with `dlsym(RTLD_NEXT, …)`).

#![expect(
    unsafe_code,
    reason = "interposes the C library's gettimeofday for the engine, which calls it through its C code"
)]

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

/// A cell's clock: milliseconds since the epoch, whole, as the guest's
/// `Date` sees them (journaled for a replay).
pub(crate) type CellClock = Arc<dyn Fn() -> f64 + Send + Sync>;

thread_local! {
    /// The clock of the cell running on this thread, while it runs.
    static THREAD_CLOCK: RefCell<Option<CellClock>> = const { RefCell::new(None) };
}

/// While alive, `Date`'s clock on this thread is `clock`.
pub(crate) struct ClockScope {
    previous: Option<CellClock>,
}

impl ClockScope {
    pub(crate) fn enter(clock: &CellClock) -> Self {
        // A reference from code every engine runs, so the linker keeps
        // the object that defines the interposer whatever it inlines.
        std::hint::black_box(gettimeofday as GettimeofdayFn);
        let previous = THREAD_CLOCK.with(|slot| slot.borrow_mut().replace(Arc::clone(clock)));
        Self { previous }
    }
}

impl ClockScope {
    /// While alive, this thread reads the C library's clock again (an
    /// engine made while a cell runs seeds itself from the clock: that
    /// read is not the cell's).
    pub(crate) fn outside() -> Self {
        Self { previous: THREAD_CLOCK.with(|slot| slot.borrow_mut().take()) }
    }
}

impl Drop for ClockScope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        THREAD_CLOCK.with(|slot| *slot.borrow_mut() = previous);
    }
}

type GettimeofdayFn = unsafe extern "C" fn(*mut libc::timeval, *mut libc::c_void) -> libc::c_int;

/// The C library's own `gettimeofday`, for callers outside any cell.
fn next_gettimeofday() -> Option<GettimeofdayFn> {
    static NEXT: OnceLock<Option<GettimeofdayFn>> = OnceLock::new();
    *NEXT.get_or_init(|| {
        // SAFETY: `dlsym` with a NUL-terminated name; a non-null result
        // for `gettimeofday` is the C library's function of that type.
        let found = unsafe { libc::dlsym(libc::RTLD_NEXT, c"gettimeofday".as_ptr()) };
        // SAFETY: see above.
        (!found.is_null()).then(|| unsafe { std::mem::transmute::<*mut libc::c_void, GettimeofdayFn>(found) })
    })
}

/// `gettimeofday(2)`, answered from the running cell's clock (see the
/// module's documentation). The obsolete time zone argument is left
/// alone, as the C library leaves it.
///
/// # Safety
///
/// As the C function: `tv` is null or points at a writable `timeval`.
#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn gettimeofday(tv: *mut libc::timeval, tz: *mut libc::c_void) -> libc::c_int {
    // The clock is cloned out of the slot before it runs: reading it
    // takes the cell's link, never this thread's slot.
    let clock = THREAD_CLOCK.with(|slot| slot.borrow().clone());
    let Some(clock) = clock else {
        return match next_gettimeofday() {
            // SAFETY: the C library's function, with the caller's pointers.
            Some(next) => unsafe { next(tv, tz) },
            None => -1,
        };
    };
    if tv.is_null() {
        return 0;
    }
    let ms = clock() as i64;
    // SAFETY: checked non-null; the caller's contract.
    let tv = unsafe { &mut *tv };
    tv.tv_sec = ms.div_euclid(1000) as libc::time_t;
    tv.tv_usec = (ms.rem_euclid(1000) * 1000) as libc::suseconds_t;
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read() -> (libc::time_t, libc::suseconds_t) {
        let mut tv = libc::timeval { tv_sec: 0, tv_usec: 0 };
        // SAFETY: a valid pointer.
        assert_eq!(unsafe { gettimeofday(&mut tv, std::ptr::null_mut()) }, 0);
        (tv.tv_sec, tv.tv_usec)
    }

    #[test]
    fn the_clock_on_a_cells_thread_is_the_cells_and_the_c_librarys_elsewhere_ga_1_5() {
        let clock: CellClock = Arc::new(|| 1_234_567.0);
        {
            let _scope = ClockScope::enter(&clock);
            assert_eq!(read(), (1234, 567_000));
            let before: CellClock = Arc::new(|| -1.0);
            let _inner = ClockScope::enter(&before);
            assert_eq!(read(), (-1, 999_000));
            let _outside = ClockScope::outside();
            assert_ne!(read(), (-1, 999_000));
        }
        let (secs, _) = read();
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
        assert!((secs as u64).abs_diff(now) <= 2, "{secs} vs {now}");
    }
}
