//! The clock reads a run made, kept small: a busy-wait that reads the
//! clock a million times must not outgrow its journal.
//!
//! Reads are whole units — `Date` in milliseconds, `performance.now()` in
//! microseconds — so each is stored as the step from the previous read of
//! its kind, and equal steps in a row (the same millisecond read again and
//! again, a steady rate) are one run. A value that is not a whole number of
//! units (journals written before reads were) is kept exactly, also as a
//! run of equal values.

/// `Date.now()`, `new Date()`: whole milliseconds since the Unix epoch.
pub(crate) const DATE: u8 = 0;
/// `performance.now()`: whole microseconds since the cell's time origin,
/// as milliseconds.
pub(crate) const PERFORMANCE: u8 = 1;

/// One run of reads of one kind.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) enum ClockRun {
    /// `count` reads, each `step` units after the previous read of `kind`.
    Step { kind: u8, step: i64, count: u32 },
    /// `count` reads of exactly `value`.
    Exact { kind: u8, value: f64, count: u32 },
}

impl ClockRun {
    /// This run and `next` as one run, when `next` repeats it.
    fn joined(self, next: Self) -> Option<Self> {
        let same = match (self, next) {
            (Self::Step { kind: k, step: s, .. }, Self::Step { kind, step, .. }) => k == kind && s == step,
            (Self::Exact { kind: k, value: v, .. }, Self::Exact { kind, value, .. }) => {
                k == kind && v.to_bits() == value.to_bits()
            }
            _ => false,
        };
        let count = self.count().checked_add(next.count())?;
        same.then(|| self.with_count(count))
    }

    fn kind(&self) -> u8 {
        match *self {
            Self::Step { kind, .. } | Self::Exact { kind, .. } => kind,
        }
    }

    fn count(&self) -> u32 {
        match *self {
            Self::Step { count, .. } | Self::Exact { count, .. } => count,
        }
    }

    fn with_count(self, count: u32) -> Self {
        match self {
            Self::Step { kind, step, .. } => Self::Step { kind, step, count },
            Self::Exact { kind, value, .. } => Self::Exact { kind, value, count },
        }
    }
}

/// Units per millisecond of a kind.
fn per_ms(kind: u8) -> f64 {
    if kind == PERFORMANCE { 1000.0 } else { 1.0 }
}

/// The value of `units` of `kind`, computed exactly as a live read makes
/// it, so a replay gives back the same bits.
pub(crate) fn value_of(kind: u8, units: i64) -> f64 {
    if kind == PERFORMANCE { units as f64 / 1000.0 } else { units as f64 }
}

/// `value` as whole units of `kind`, when it is exactly that.
fn units_of(kind: u8, value: f64) -> Option<i64> {
    let units = (value * per_ms(kind)).round();
    // Whole units within f64's exact integers, and back to the same bits.
    (units.is_finite() && units.abs() < 9.0e15)
        .then_some(units as i64)
        .filter(|u| value_of(kind, *u).to_bits() == value.to_bits())
}

/// Where the previous read of each kind left off, in units: what the next
/// step is counted from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Previous([i64; 2]);

impl Previous {
    fn get(&self, kind: u8) -> i64 {
        self.0[usize::from(kind & 1)]
    }

    fn set(&mut self, kind: u8, units: i64) {
        self.0[usize::from(kind & 1)] = units;
    }

    /// The value of one read of `run`, moving on past it.
    fn read(&mut self, run: &ClockRun) -> (u8, f64) {
        match *run {
            ClockRun::Step { kind, step, .. } => {
                let units = self.get(kind).saturating_add(step);
                self.set(kind, units);
                (kind, value_of(kind, units))
            }
            ClockRun::Exact { kind, value, .. } => {
                let near = (value * per_ms(kind)).round();
                self.set(kind, if near.is_finite() { near as i64 } else { 0 });
                (kind, value)
            }
        }
    }
}

/// Every clock read of a run, in order, as runs. Crosses a process
/// boundary as its runs only: the counts derived from them are rebuilt,
/// never taken on trust.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(from = "Vec<ClockRun>", into = "Vec<ClockRun>")]
pub(crate) struct ClockLog {
    runs: Vec<ClockRun>,
    len: usize,
    previous: Previous,
}

impl ClockLog {
    /// Records a read of `kind` that gave `value`.
    pub(crate) fn push(&mut self, kind: u8, value: f64) {
        let previous = &mut self.previous;
        let run = match units_of(kind, value) {
            Some(units) => {
                let step = units.saturating_sub(previous.get(kind));
                previous.set(kind, units);
                ClockRun::Step { kind, step, count: 1 }
            }
            None => {
                previous.read(&ClockRun::Exact { kind, value, count: 1 });
                ClockRun::Exact { kind, value, count: 1 }
            }
        };
        self.len += 1;
        if let Some(last) = self.runs.last_mut() {
            let same = match (*last, run) {
                (ClockRun::Step { kind: k, step: s, count }, ClockRun::Step { kind, step, .. }) => {
                    k == kind && s == step && count < u32::MAX
                }
                (ClockRun::Exact { kind: k, value: v, count }, ClockRun::Exact { kind, value, .. }) => {
                    k == kind && v.to_bits() == value.to_bits() && count < u32::MAX
                }
                _ => false,
            };
            if same {
                *last = last.with_count(last.count() + 1);
                return;
            }
        }
        self.runs.push(run);
    }

    /// Appends runs read from a journal (continuing where this log ends).
    pub(crate) fn extend(&mut self, runs: impl IntoIterator<Item = ClockRun>) {
        for run in runs {
            if run.count() == 0 {
                continue;
            }
            // Only the last read of a run moves where the next step counts
            // from; a step run moves it by its whole length.
            match run {
                ClockRun::Step { kind, step, count } => {
                    let units = self.previous.get(kind).saturating_add(step.saturating_mul(i64::from(count)));
                    self.previous.set(kind, units);
                }
                exact @ ClockRun::Exact { .. } => {
                    self.previous.read(&exact);
                }
            }
            self.len += run.count() as usize;
            // A run continuing the last one joins it, as `push` would have
            // made it: a log rebuilt from pieces is the same log.
            if let Some(last) = self.runs.last_mut()
                && let Some(joined) = last.joined(run)
            {
                *last = joined;
                continue;
            }
            self.runs.push(run);
        }
    }

    /// How many reads it holds.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// How many runs it holds (what its memory and journal size grow with).
    pub(crate) fn run_count(&self) -> usize {
        self.runs.len()
    }

    /// The runs covering reads `from..`, for a journal write that already
    /// has the reads before `from`.
    pub(crate) fn runs_from(&self, from: usize) -> Vec<ClockRun> {
        let mut skipped = 0usize;
        let mut out = Vec::new();
        for run in &self.runs {
            let count = run.count() as usize;
            if skipped + count <= from {
                skipped += count;
                continue;
            }
            let skip = from.saturating_sub(skipped);
            skipped += skip;
            out.push(run.with_count((count - skip) as u32));
        }
        out
    }

    /// The reads, in order, from the first.
    pub(crate) fn cursor(&self) -> ClockCursor {
        ClockCursor { runs: self.runs.clone(), run: 0, used: 0, previous: Previous::default(), left: self.len }
    }

    /// Every read, in order (for tests and format-1 journals).
    #[cfg(test)]
    pub(crate) fn values(&self) -> Vec<(u8, f64)> {
        let mut cursor = self.cursor();
        std::iter::from_fn(|| cursor.next()).collect()
    }
}

impl From<Vec<ClockRun>> for ClockLog {
    fn from(runs: Vec<ClockRun>) -> Self {
        let mut log = Self::default();
        log.extend(runs);
        log
    }
}

impl From<ClockLog> for Vec<ClockRun> {
    fn from(log: ClockLog) -> Self {
        log.runs
    }
}

impl FromIterator<(u8, f64)> for ClockLog {
    fn from_iter<I: IntoIterator<Item = (u8, f64)>>(iter: I) -> Self {
        let mut log = Self::default();
        for (kind, value) in iter {
            log.push(kind, value);
        }
        log
    }
}

/// The reads of a journal, handed out one at a time to a replay.
#[derive(Clone, Debug, Default)]
pub(crate) struct ClockCursor {
    runs: Vec<ClockRun>,
    run: usize,
    /// Reads of the current run already handed out.
    used: u32,
    previous: Previous,
    left: usize,
}

impl ClockCursor {
    /// The kind of the next read, without taking it.
    pub(crate) fn peek_kind(&self) -> Option<u8> {
        self.runs.get(self.run).map(ClockRun::kind)
    }

    /// The next read.
    pub(crate) fn next(&mut self) -> Option<(u8, f64)> {
        let run = *self.runs.get(self.run)?;
        let read = self.previous.read(&run);
        self.used += 1;
        if self.used >= run.count() {
            self.run += 1;
            self.used = 0;
        }
        self.left -= 1;
        Some(read)
    }

    /// Whether every read was handed out.
    pub(crate) fn is_empty(&self) -> bool {
        self.left == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_wait_on_the_same_millisecond_is_one_run() {
        let mut log = ClockLog::default();
        for _ in 0..70_000 {
            log.push(DATE, 1_733_318_400_123.0);
        }
        log.push(DATE, 1_733_318_400_124.0);
        assert_eq!(log.len(), 70_001);
        assert_eq!(log.run_count(), 3, "the first read, the repeats, the next millisecond");
    }

    #[test]
    fn every_read_comes_back_with_the_same_bits_in_the_same_order() {
        let reads = vec![
            (DATE, 1_733_318_400_123.0),
            (PERFORMANCE, 0.001),
            (PERFORMANCE, 12.345),
            (DATE, 1_733_318_400_123.0),
            (PERFORMANCE, 12.345),
            (PERFORMANCE, 1.0e-7),
            (PERFORMANCE, 13.0),
            (DATE, 1_733_318_400_200.0),
            (PERFORMANCE, f64::from_bits(0x4028_b0a3_d70a_3d71)),
        ];
        let log: ClockLog = reads.iter().copied().collect();
        let back = log.values();
        assert_eq!(back.len(), reads.len());
        for ((k1, v1), (k2, v2)) in reads.iter().zip(&back) {
            assert_eq!((k1, v1.to_bits()), (k2, v2.to_bits()));
        }
    }

    #[test]
    fn runs_from_an_index_continue_the_log_exactly() {
        let reads: Vec<(u8, f64)> = (0..50)
            .map(|i| if i % 7 == 0 { (PERFORMANCE, f64::from(i) * 0.25) } else { (DATE, 1000.0 + f64::from(i / 10)) })
            .collect();
        let log: ClockLog = reads.iter().copied().collect();
        for split in [0, 1, 6, 7, 25, 49, 50] {
            let mut rebuilt: ClockLog = reads[..split].iter().copied().collect();
            rebuilt.extend(log.runs_from(split));
            assert_eq!(rebuilt.len(), reads.len(), "split at {split}");
            let back = rebuilt.values();
            assert_eq!(back, reads, "split at {split}");
        }
    }
}
