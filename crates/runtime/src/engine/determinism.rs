//! What the guest reads from the clock, `Math.random` and the host's
//! configuration: answered live and recorded for the run's journal, or
//! answered from a journal while a run is replayed, so a replay sees what
//! the run saw.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use super::clock::{ClockCursor, ClockLog, ClockRun, DATE, PERFORMANCE, value_of};

/// A synchronous read of the host's configuration, journaled with its
/// answer (format 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum EnvKey {
    /// `host.meta(index)`: a tool handle's metadata.
    Meta(u32),
    /// `host.mcpTree()`: the MCP namespace, read when a cell first touches
    /// `MCP`.
    McpTree,
}

impl EnvKey {
    pub(crate) fn encode(self) -> String {
        match self {
            Self::Meta(i) => format!("m{i}"),
            Self::McpTree => "t".to_owned(),
        }
    }

    pub(crate) fn decode(text: &str) -> Option<Self> {
        match text.as_bytes().first()? {
            b't' if text.len() == 1 => Some(Self::McpTree),
            b'm' => text[1..].parse().ok().map(Self::Meta),
            _ => None,
        }
    }
}

/// The most configuration reads a journal keeps: past it the run can no
/// longer be journaled (it lives on in memory only, and says so).
pub(crate) const MAX_ENV_READS: usize = 65_536;

/// What the guest reads from the clock and `Math.random`: recorded so a
/// replay sees the same values.
#[derive(Debug)]
pub(crate) struct Determinism {
    /// Every clock read so far (kept only while `recording`).
    pub reads: ClockLog,
    /// Reads still to answer from a journal, in order.
    pub replay: ClockCursor,
    /// The run is journaled: reads are kept for its journal.
    pub recording: bool,
    /// The most clock runs kept before the run overflows its journal.
    max_runs: usize,
    /// Replaying journaled steps: a read the journal does not have is a
    /// divergence, not a live read.
    pub strict: bool,
    /// Why the replay diverged, once.
    pub diverged: Option<String>,
    /// More reads than a journal keeps were made: `reads` and `env` are no
    /// longer kept.
    pub overflow: bool,
    /// `Math.random`'s seed and state (SplitMix64).
    pub seed: u64,
    rng: u64,
    /// `performance.now()`'s origin.
    origin: Instant,
    /// Every synchronous read of the host's configuration so far (tool
    /// metadata, the MCP namespace), with its answer.
    pub env: Vec<(EnvKey, String)>,
    /// Where each of `env` was answered from (an engine in a worker tells
    /// its host which, never the value: the host has both).
    pub env_sources: Vec<EnvSource>,
    /// Configuration reads still to answer from a journal, in order.
    pub env_replay: VecDeque<(EnvKey, String)>,
    /// The journal has the cell's configuration reads (format 2): while
    /// replaying, a read it does not have is a divergence.
    pub env_journaled: bool,
    /// Where the MCP servers of a replayed namespace are now, by the index
    /// the guest's namespace calls them; `None` when its indexes are this
    /// process's.
    pub mcp_routes: Option<Arc<HashMap<usize, McpRoute>>>,
}

/// Where a configuration read was answered from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum EnvSource {
    /// The journal of the run being replayed.
    Journal,
    /// The host, live.
    Host,
}

/// An MCP server of a replayed cell's namespace: its configured name, and
/// its index in this process's hub (`None`: no longer configured).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct McpRoute {
    pub name: String,
    pub hub: Option<usize>,
}

/// How a cell's clock, `Math.random` and configuration reads are set up
/// before it starts, as data: the cell hands it to its engine, which may
/// run in another process.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Setup {
    /// `Math.random`'s seed.
    pub seed: u64,
    /// Reads are kept for the run's journal, up to this many clock runs.
    pub max_runs: usize,
    /// The journal a resumed run replays first.
    pub replay: Option<ReplayReads>,
}

/// What a replayed run read, from its journal.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct ReplayReads {
    pub clock: ClockLog,
    pub env: Vec<(EnvKey, String)>,
    /// The journal has the cell's configuration reads (format 2): while
    /// replaying, a read it does not have is a divergence.
    pub env_journaled: bool,
}

impl Determinism {
    pub(crate) fn new() -> Self {
        Self {
            reads: ClockLog::default(),
            replay: ClockCursor::default(),
            recording: false,
            max_runs: 0,
            strict: false,
            diverged: None,
            overflow: false,
            seed: 0,
            rng: 0,
            origin: Instant::now(),
            env: Vec::new(),
            env_sources: Vec::new(),
            env_replay: VecDeque::new(),
            env_journaled: false,
            mcp_routes: None,
        }
    }

    /// A read of the host's configuration: answered from the journal while
    /// one is replayed, else by `live`, and recorded either way. The bool
    /// is whether the answer came from the journal.
    ///
    /// # Errors
    /// What `live` failed with.
    pub(crate) fn env_read(
        &mut self,
        key: EnvKey,
        live: impl FnOnce() -> Result<String, ConfigReadError>,
    ) -> Result<(String, bool), ConfigReadError> {
        let journaled = match self.env_replay.front() {
            Some((k, _)) if *k == key => self.env_replay.pop_front().map(|(_, v)| v),
            _ => None,
        };
        let (value, replayed) = match journaled {
            Some(v) => (v, true),
            None => {
                if self.strict && self.env_journaled {
                    self.diverged.get_or_insert_with(|| {
                        "the replayed cell read the tool or MCP configuration where its journal has no such read"
                            .to_owned()
                    });
                }
                (live()?, false)
            }
        };
        if self.recording && !self.overflow {
            if self.env.len() < MAX_ENV_READS {
                self.env.push((key, value.clone()));
                self.env_sources.push(if replayed { EnvSource::Journal } else { EnvSource::Host });
            } else {
                self.overflowed();
            }
        }
        Ok((value, replayed))
    }

    /// Sets up the reads as `setup` says (a fresh cell reads live with
    /// seed 0 and keeps nothing).
    pub(crate) fn set_up(&mut self, setup: Setup) {
        self.start(setup.seed);
        self.record(setup.max_runs);
        if let Some(replay) = setup.replay {
            self.replaying(&replay.clock);
            self.env_replay = replay.env.into();
            self.env_journaled = replay.env_journaled;
        }
    }

    /// The journaled steps are replayed: a read the journal still has is a
    /// divergence, and reads are live from here.
    pub(crate) fn end_replay(&mut self) {
        if !self.replay.is_empty() {
            self.diverged.get_or_insert_with(|| {
                "the replayed cell read the clock fewer times than its journal recorded".to_owned()
            });
        }
        self.strict = false;
    }

    /// Keeps every read for the run's journal, up to `max_runs` runs of
    /// clock reads (each takes a few bytes of it).
    pub(crate) fn record(&mut self, max_runs: usize) {
        self.recording = true;
        self.max_runs = max_runs;
    }

    /// Starts the cell's randomness from `seed` and its monotonic clock now.
    pub(crate) fn start(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = seed;
        self.origin = std::time::Instant::now();
    }

    /// Replays `reads` before reading live; `performance.now()` then goes
    /// on from the last replayed value, never backwards.
    pub(crate) fn replaying(&mut self, reads: &ClockLog) {
        let mut last = 0.0_f64;
        let mut cursor = reads.cursor();
        while let Some((kind, value)) = cursor.next() {
            if kind == PERFORMANCE {
                last = value;
            }
        }
        self.origin = std::time::Instant::now()
            .checked_sub(std::time::Duration::from_secs_f64(last.max(0.0) / 1000.0))
            .unwrap_or_else(std::time::Instant::now);
        self.replay = reads.cursor();
        self.strict = true;
    }

    /// A clock read of `kind`.
    pub(crate) fn now(&mut self, kind: u8) -> f64 {
        let value = match self.replay.peek_kind() {
            Some(k) if k == kind => self.replay.next().map_or_else(|| self.live(kind), |(_, v)| v),
            Some(_) | None if self.strict => {
                self.diverged.get_or_insert_with(|| {
                    "the replayed cell read the clock where its journal has no such read".to_owned()
                });
                self.live(kind)
            }
            _ => self.live(kind),
        };
        if self.recording && !self.overflow {
            self.reads.push(kind, value);
            if self.reads.run_count() > self.max_runs {
                self.overflowed();
            }
        }
        value
    }

    /// More reads than a journal keeps: stop keeping them (the run is then
    /// kept in memory only, which the journal side records).
    pub(crate) fn overflowed(&mut self) {
        self.overflow = true;
        self.reads = ClockLog::default();
        self.env = Vec::new();
        self.env_sources = Vec::new();
    }

    /// The host's side of a set-up an engine in a worker applies: what the
    /// host needs to rebuild the reads it reports ([`absorb`](Self::absorb)).
    pub(crate) fn host_side(&mut self, setup: &Setup) {
        self.record(setup.max_runs);
        if let Some(replay) = &setup.replay {
            self.env_replay = replay.env.clone().into();
        }
    }

    /// Takes the reads one step of an engine in a worker reported, which
    /// are untrusted: clock runs are rebuilt into this log and bounded as
    /// the engine bounds them; a configuration read's value is never
    /// taken from the worker but from the journal the host replays or the
    /// answers it gave in this step (`given`, in order).
    ///
    /// # Errors
    /// What the worker reported that its engine would not have.
    pub(crate) fn absorb(
        &mut self,
        clock: Vec<ClockRun>,
        env: Vec<(EnvKey, EnvSource)>,
        given: &mut VecDeque<(EnvKey, String)>,
        overflow: bool,
    ) -> Result<(), String> {
        if overflow {
            self.overflowed();
            return Ok(());
        }
        if clock.is_empty() && env.is_empty() {
            return Ok(());
        }
        if !self.recording || self.overflow {
            return Err("it reported clock or configuration reads of a run that keeps none".into());
        }
        self.reads.extend(clock);
        if self.reads.run_count() > self.max_runs {
            return Err(format!(
                "it reported {} runs of clock reads, past the {} its engine keeps",
                self.reads.run_count(),
                self.max_runs
            ));
        }
        for (key, source) in env {
            if self.env.len() >= MAX_ENV_READS {
                return Err(format!("it reported more than {MAX_ENV_READS} configuration reads"));
            }
            let value = match source {
                EnvSource::Journal => self.env_replay.pop_front().filter(|(k, _)| *k == key),
                EnvSource::Host => given.pop_front().filter(|(k, _)| *k == key),
            };
            let Some((_, value)) = value else {
                return Err(format!("it reported a read of {key:?} from {source:?} that was not answered so"));
            };
            self.env.push((key, value));
            self.env_sources.push(source);
        }
        Ok(())
    }

    /// A live read: whole milliseconds for `Date`, whole microseconds for
    /// `performance.now()` (as journaled, so a replay gives the same bits).
    fn live(&self, kind: u8) -> f64 {
        if kind == PERFORMANCE {
            let micros = i64::try_from(self.origin.elapsed().as_micros()).unwrap_or(i64::MAX);
            return value_of(PERFORMANCE, micros);
        }
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        value_of(DATE, ms)
    }

    /// `Math.random()`: SplitMix64, 53 bits in `[0, 1)`.
    pub(crate) fn random(&mut self) -> f64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// A synchronous read of the host's configuration (a tool handle's
/// metadata, the MCP namespace) that could not be answered.
#[derive(Debug, thiserror::Error)]
#[error("{what} could not be read: {reason}")]
pub(crate) struct ConfigReadError {
    /// What was read.
    pub what: &'static str,
    /// Why it failed.
    pub reason: String,
}

/// This process's hub index of the MCP server the guest's namespace calls
/// `server`, given the routes of a replayed namespace (`None`: the
/// namespace's indexes are this process's); `None` when the server was
/// removed since the run began.
pub(crate) fn hub_index(routes: Option<&HashMap<usize, McpRoute>>, server: usize) -> Option<usize> {
    match routes {
        None => Some(server),
        Some(routes) => routes.get(&server).and_then(|r| r.hub),
    }
}
