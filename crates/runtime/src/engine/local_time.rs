//! The time zone a cell's `Date` calls local: the runtime's configured
//! zone (UTC unless `Limits::time_zone` names another), the same in
//! both engine homes and on every host — never the host's `TZ` or
//! `/etc/localtime`.
//!
//! QuickJS reads local time in one place, `getTimezoneOffset` in
//! `quickjs.c`, which calls the C library's `localtime_r` and keeps only
//! its `tm_gmtoff`. It offers no hook, so this module defines
//! `localtime_r` itself: the link resolves QuickJS's call (statically
//! linked into the same binary) to it before the C library's. On a
//! thread that is running a cell ([`ZoneScope`]) — or anywhere in an
//! engine worker, whose every thread is an engine's
//! ([`set_process_zone`]) — it answers from the cell's zone with the
//! zone data compiled into the binary (jiff's bundled tzdb), reading no
//! file and making no system call, so a confined worker never trips its
//! filter. Every other caller in the process gets the C library's own
//! `localtime_r`, unchanged (found once with `dlsym(RTLD_NEXT, …)`).

#![expect(
    unsafe_code,
    reason = "interposes the C library's localtime_r for the engine, which calls it through its C code"
)]

use std::cell::RefCell;
use std::fmt;
use std::sync::OnceLock;

use jiff::Timestamp;
use jiff::tz::TimeZone;

/// The zone a cell's local time is in: an IANA name checked against the
/// zone data compiled into codemode when it is made, so a runtime never
/// starts with a zone its cells cannot use.
#[derive(Clone)]
pub struct CellTimeZone {
    name: String,
    zone: TimeZone,
}

/// A time zone name the compiled-in zone data does not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{name}` is not a time zone codemode knows ({reason}): use an IANA name such as \"UTC\" or \"Europe/Berlin\"")]
pub struct UnknownTimeZone {
    /// The name given.
    pub name: String,
    /// What the zone data said.
    pub reason: String,
}

impl CellTimeZone {
    /// UTC: the default, as in Cloudflare Workers and the reference system.
    pub fn utc() -> Self {
        Self { name: "UTC".to_owned(), zone: TimeZone::UTC }
    }

    /// The zone `name` names in the IANA database compiled into codemode
    /// (jiff's bundled tzdb, the same on every host), or why not.
    ///
    /// ```
    /// use codemode_runtime::CellTimeZone;
    /// assert_eq!(CellTimeZone::named("Asia/Tokyo").unwrap().name(), "Asia/Tokyo");
    /// assert!(CellTimeZone::named("Mars/Olympus_Mons").is_err());
    /// ```
    pub fn named(name: &str) -> Result<Self, UnknownTimeZone> {
        if name == "UTC" {
            return Ok(Self::utc());
        }
        let zone =
            jiff::tz::db().get(name).map_err(|e| UnknownTimeZone { name: name.to_owned(), reason: e.to_string() })?;
        let name = zone.iana_name().unwrap_or(name).to_owned();
        Ok(Self { name, zone })
    }

    /// The zone's IANA name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Default for CellTimeZone {
    fn default() -> Self {
        Self::utc()
    }
}

impl PartialEq for CellTimeZone {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for CellTimeZone {}

impl fmt::Debug for CellTimeZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CellTimeZone({})", self.name)
    }
}

impl serde::Serialize for CellTimeZone {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}

impl<'de> serde::Deserialize<'de> for CellTimeZone {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Self::named(&name).map_err(serde::de::Error::custom)
    }
}

fn clamped(seconds: i64) -> Timestamp {
    let (min, max) = (Timestamp::MIN.as_second(), Timestamp::MAX.as_second());
    Timestamp::from_second(seconds.clamp(min, max)).unwrap_or(Timestamp::UNIX_EPOCH)
}

thread_local! {
    /// The zone of the cell running on this thread, while it runs.
    static THREAD_ZONE: RefCell<Option<CellTimeZone>> = const { RefCell::new(None) };
    /// The abbreviation `tm_zone` points at, kept until the next call.
    static ABBREVIATION: RefCell<std::ffi::CString> = RefCell::new(std::ffi::CString::default());
}

/// An engine worker's zone: every thread of a worker runs engines.
static PROCESS_ZONE: OnceLock<CellTimeZone> = OnceLock::new();

/// Makes `zone` this process's local time for every thread that is not
/// in a [`ZoneScope`] (an engine worker, once, before it confines
/// itself). A second call keeps the first zone.
pub(crate) fn set_process_zone(zone: &CellTimeZone) {
    let _ = PROCESS_ZONE.set(zone.clone());
    keep_linked();
}

/// While alive, local time on this thread is `zone`'s.
pub(crate) struct ZoneScope {
    previous: Option<CellTimeZone>,
}

impl ZoneScope {
    pub(crate) fn enter(zone: &CellTimeZone) -> Self {
        keep_linked();
        let previous = THREAD_ZONE.with(|slot| slot.borrow_mut().replace(zone.clone()));
        Self { previous }
    }
}

impl Drop for ZoneScope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        THREAD_ZONE.with(|slot| *slot.borrow_mut() = previous);
    }
}

type LocaltimeR = unsafe extern "C" fn(*const libc::time_t, *mut libc::tm) -> *mut libc::tm;

/// A reference to the interposer from code every engine runs, so the
/// linker keeps the object that defines it whatever it inlines.
fn keep_linked() {
    std::hint::black_box(localtime_r as LocaltimeR);
}

/// The C library's own `localtime_r`, for callers outside any cell.
fn next_localtime_r() -> Option<LocaltimeR> {
    static NEXT: OnceLock<Option<LocaltimeR>> = OnceLock::new();
    *NEXT.get_or_init(|| {
        // SAFETY: `dlsym` with a NUL-terminated name; a non-null result
        // for `localtime_r` is the C library's function of that type.
        let found = unsafe { libc::dlsym(libc::RTLD_NEXT, c"localtime_r".as_ptr()) };
        // SAFETY: see above.
        (!found.is_null()).then(|| unsafe { std::mem::transmute::<*mut libc::c_void, LocaltimeR>(found) })
    })
}

/// The zone local time is in on this thread now, if a cell's.
fn current_zone<R>(f: impl FnOnce(Option<&CellTimeZone>) -> R) -> R {
    THREAD_ZONE.with(|slot| match slot.borrow().as_ref() {
        Some(zone) => f(Some(zone)),
        None => f(PROCESS_ZONE.get()),
    })
}

/// `localtime_r(3)`, answered from the running cell's zone (see the
/// module's documentation).
///
/// # Safety
///
/// As the C function: `time` and `out` point at valid, writable values.
#[unsafe(no_mangle)]
pub(crate) unsafe extern "C" fn localtime_r(time: *const libc::time_t, out: *mut libc::tm) -> *mut libc::tm {
    if time.is_null() || out.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: checked non-null; the caller's contract.
    let (seconds, out) = unsafe { (*time, &mut *out) };
    let answered = current_zone(|zone| zone.map(|zone| fill(zone, seconds, out)));
    match answered {
        Some(true) => out,
        Some(false) => std::ptr::null_mut(),
        None => match next_localtime_r() {
            // SAFETY: the C library's function, with the caller's pointers.
            Some(next) => unsafe { next(time, out) },
            None => std::ptr::null_mut(),
        },
    }
}

/// Fills `out` with `seconds` in `zone`. A time outside the zone data's
/// years (-9999..=9999) gets only its offset (`tm_gmtoff`, all QuickJS
/// reads) and answers `false`, as the C library answers `EOVERFLOW` for
/// a year it cannot hold.
fn fill(zone: &CellTimeZone, seconds: i64, out: &mut libc::tm) -> bool {
    let at = clamped(seconds);
    let info = zone.zone.to_offset_info(at);
    let offset = info.offset();
    out.tm_gmtoff = libc::c_long::from(offset.seconds());
    out.tm_isdst = libc::c_int::from(info.dst().is_dst());
    let abbreviation = std::ffi::CString::new(info.abbreviation()).unwrap_or_default();
    out.tm_zone = ABBREVIATION.with(|slot| {
        let mut slot = slot.borrow_mut();
        *slot = abbreviation;
        slot.as_ptr()
    });
    if at.as_second() != seconds {
        // SAFETY: setting errno, as the C function does.
        unsafe { *libc::__errno_location() = libc::EOVERFLOW };
        return false;
    }
    let civil = offset.to_datetime(at);
    out.tm_sec = libc::c_int::from(civil.second());
    out.tm_min = libc::c_int::from(civil.minute());
    out.tm_hour = libc::c_int::from(civil.hour());
    out.tm_mday = libc::c_int::from(civil.day());
    out.tm_mon = libc::c_int::from(civil.month()) - 1;
    out.tm_year = libc::c_int::from(civil.year()) - 1900;
    out.tm_wday = libc::c_int::from(civil.weekday().to_sunday_zero_offset());
    out.tm_yday = libc::c_int::from(civil.day_of_year()) - 1;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offset_in(zone: Option<&CellTimeZone>, seconds: i64) -> (Option<i64>, libc::tm) {
        let _scope = zone.map(ZoneScope::enter);
        // SAFETY: a zeroed `tm` is a valid value of the C struct.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointers.
        let done = unsafe { localtime_r(&seconds, &mut tm) };
        ((!done.is_null()).then_some(tm.tm_gmtoff), tm)
    }

    #[test]
    fn local_time_on_a_cells_thread_is_its_zone_and_the_c_librarys_elsewhere_ga_1_2() {
        let tokyo = CellTimeZone::named("Asia/Tokyo").unwrap();
        let (offset, tm) = offset_in(Some(&tokyo), 0);
        assert_eq!(offset, Some(9 * 3600));
        assert_eq!((tm.tm_year, tm.tm_mon, tm.tm_mday, tm.tm_hour, tm.tm_wday, tm.tm_yday), (70, 0, 1, 9, 4, 0));
        let berlin = CellTimeZone::named("Europe/Berlin").unwrap();
        // 2020-07-01 00:00 UTC: summer time.
        let (offset, tm) = offset_in(Some(&berlin), 1_593_561_600);
        assert_eq!((offset, tm.tm_isdst), (Some(7200), 1));
        assert_eq!(offset_in(Some(&CellTimeZone::utc()), 1_593_561_600).0, Some(0));
        // Past the zone data's years: the offset at its end, and EOVERFLOW.
        let (offset, tm) = offset_in(Some(&tokyo), 8_640_000_000_000);
        assert_eq!((offset, tm.tm_gmtoff), (None, 9 * 3600));
        // Outside a scope: the C library's answer, whatever the host's zone.
        let mut theirs: libc::tm = unsafe { std::mem::zeroed() };
        let next = next_localtime_r().expect("the C library's localtime_r");
        unsafe { next(&1_593_561_600, &mut theirs) };
        assert_eq!(offset_in(None, 1_593_561_600).0, Some(theirs.tm_gmtoff));
    }

    #[test]
    fn a_zone_name_the_compiled_in_data_lacks_is_refused_by_name_ga_1_2() {
        let err = CellTimeZone::named("Europe/Atlantis").unwrap_err();
        assert!(err.to_string().contains("`Europe/Atlantis` is not a time zone"), "{err}");
        assert_eq!(CellTimeZone::named("europe/berlin").unwrap().name(), "Europe/Berlin");
        let json = serde_json::to_string(&CellTimeZone::named("Asia/Tokyo").unwrap()).unwrap();
        assert_eq!(serde_json::from_str::<CellTimeZone>(&json).unwrap().name(), "Asia/Tokyo");
    }
}
