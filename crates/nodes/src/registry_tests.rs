//! Unit tests of the node registry: remembered fields, last-seen times.

use super::*;

#[test]
fn remembered_fields_are_cut_to_their_bound_and_lose_control_characters() {
    assert_eq!(bounded("linux", MAX_PLATFORM_CHARS), "linux");
    let at = "é".repeat(MAX_PLATFORM_CHARS);
    assert_eq!(bounded(&at, MAX_PLATFORM_CHARS), at, "exactly at the bound: kept whole");
    let cut = bounded(&"é".repeat(7_000_000), MAX_PLATFORM_CHARS);
    assert_eq!(cut.chars().count(), MAX_PLATFORM_CHARS);
    assert!(cut.ends_with('…'));
    assert_eq!(bounded("a\u{1b}[2Jb\n", 16), "a\u{fffd}[2Jb\u{fffd}");
}

#[test]
fn last_seen_is_shown_as_utc() {
    assert_eq!(last_seen(Some(0)), "1970-01-01T00:00:00Z");
    assert_eq!(last_seen(Some(1_795_000_000_000)), "2026-11-18T11:06:40Z");
    assert_eq!(last_seen(None), "never");
}
