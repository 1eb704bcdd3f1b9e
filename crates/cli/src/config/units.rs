//! The config's units: conversions between `Duration`s and the whole
//! milliseconds the file is written in.

use std::time::Duration;

/// A duration in whole milliseconds, the config's unit.
pub(super) fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
