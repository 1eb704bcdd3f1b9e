//! `codemode bench`'s arguments and the options they resolve to.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::durable;

/// `codemode bench`'s arguments, as given.
#[derive(clap::Args)]
pub(crate) struct BenchArgs {
    /// Measured runs per scenario.
    #[arg(long, default_value_t = 200)]
    runs: usize,
    /// Warm-up runs per scenario.
    #[arg(long, default_value_t = 20)]
    warmup: usize,
    /// Parked-cell counts for the RSS scenario.
    #[arg(long, default_value = "32,1000,10000")]
    parked: String,
    /// Fresh processes spawned for the first-exec scenario.
    #[arg(long, default_value_t = 20)]
    cold_runs: usize,
    /// How long the throughput scenario runs, in milliseconds.
    #[arg(long, default_value_t = 3000)]
    throughput_ms: u64,
    /// Also write the report as JSON to FILE.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Run the reference benchmark too (needs NODE24 and
    /// OPENCLAW_PROJECT from the oracle's setup.sh) and print ratios.
    #[arg(long)]
    compare: bool,
    /// Compare with this saved reference report (`bench.mjs --json
    /// FILE`) instead of running the reference.
    #[arg(long)]
    reference_json: Option<PathBuf>,
    /// The reference-oracle directory (default
    /// $CODEMODE_REFERENCE_ORACLE, else ../shared/reference-oracle).
    #[arg(long)]
    oracle: Option<PathBuf>,
    /// Run only these scenarios (comma-separated): floor, trivial,
    /// trivial_idle, seq100, par100, yield, parked, cold, cold_ts,
    /// throughput, hol;
    /// the durable-run scenarios journal, park_sled, park_group,
    /// park_growth, replay100, pg_wait, pg_commit, evicted, approval,
    /// approval_waits, pg_approval (`durable`: all of them) run only when
    /// named.
    #[arg(long, value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(SCENARIOS))]
    only: Vec<String>,
    /// PostgreSQL URL for pg_wait and pg_commit (default
    /// $CODEMODE_TEST_POSTGRES_URL; `scripts/postgres.sh start DIR`
    /// starts a throwaway server).
    #[arg(long)]
    postgres: Option<String>,
    /// Run counts for the evicted-runs memory scenario.
    #[arg(long, default_value = "10000")]
    evicted: String,
    /// Where the cells' engines run: `thread` (this process) or `process`
    /// (confined engine workers, as `serve` runs them). The parked-cell
    /// memory then counts the workers' too.
    #[arg(long, value_enum, default_value_t = IsolationArg::Thread)]
    isolation: IsolationArg,
}

/// `--isolation`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum IsolationArg {
    Thread,
    Process,
}

impl BenchArgs {
    /// The options the arguments ask for.
    ///
    /// # Errors
    /// `--parked` or `--evicted` is not a comma-separated list of counts.
    pub(crate) fn options(self) -> Result<BenchOptions> {
        Ok(BenchOptions {
            runs: self.runs,
            warmup: self.warmup,
            parked: parse_counts(&self.parked)?,
            cold_runs: self.cold_runs,
            throughput_ms: self.throughput_ms,
            json: self.json,
            compare: self.compare,
            reference_json: self.reference_json,
            oracle: self.oracle.unwrap_or_else(default_oracle),
            only: self.only,
            postgres: self.postgres,
            evicted: parse_counts(&self.evicted)?,
            isolation: match self.isolation {
                IsolationArg::Thread => codemode_runtime::Isolation::Thread,
                IsolationArg::Process => codemode_runtime::Isolation::Process,
            },
        })
    }
}

/// What `codemode bench` was asked to do.
#[derive(Clone, Debug)]
pub(crate) struct BenchOptions {
    pub runs: usize,
    pub warmup: usize,
    pub parked: Vec<usize>,
    pub cold_runs: usize,
    pub throughput_ms: u64,
    pub json: Option<PathBuf>,
    pub compare: bool,
    /// A saved reference report (`bench.mjs --json`) to compare with
    /// instead of running the reference.
    pub reference_json: Option<PathBuf>,
    pub oracle: PathBuf,
    /// Scenarios to run (all when empty): floor, trivial, seq100, par100, yield,
    /// parked, cold, throughput, hol; the durable-run ones (journal,
    /// park_sled, park_group, park_growth, replay100, pg_wait, pg_commit,
    /// evicted, approval, approval_waits, pg_approval, mcp_task, or
    /// `durable` for all of them) only when named.
    pub only: Vec<String>,
    /// PostgreSQL for `pg_wait`/`pg_commit` (else `CODEMODE_TEST_POSTGRES_URL`).
    pub postgres: Option<String>,
    /// Run counts for the `evicted` scenario.
    pub evicted: Vec<usize>,
    /// Where the cells' engines run.
    pub isolation: codemode_runtime::Isolation,
}

impl BenchOptions {
    pub(super) fn runs(&self, scenario: &str) -> bool {
        self.only.is_empty() || self.named(scenario)
    }

    /// Named by `--only` (the durable scenarios run only so).
    pub(super) fn named(&self, scenario: &str) -> bool {
        self.only.iter().any(|s| s == scenario || (s == "durable" && durable::DURABLE.contains(&scenario)))
    }
}

/// The scenario names `--only` accepts.
const SCENARIOS: [&str; 24] = [
    "floor",
    "trivial",
    "trivial_idle",
    "seq100",
    "par100",
    "yield",
    "parked",
    "cold",
    "cold_ts",
    "throughput",
    "hol",
    "journal",
    "park_sled",
    "park_group",
    "park_growth",
    "replay100",
    "pg_wait",
    "pg_commit",
    "evicted",
    "approval",
    "approval_waits",
    "pg_approval",
    "mcp_task",
    "durable",
];

/// The default oracle directory: `../shared/reference-oracle` from here.
pub(super) fn default_oracle() -> PathBuf {
    std::env::var_os("CODEMODE_REFERENCE_ORACLE")
        .map_or_else(|| Path::new("..").join("shared").join("reference-oracle"), PathBuf::from)
}

/// Parses `--parked 32,1000`.
pub(super) fn parse_counts(text: &str) -> Result<Vec<usize>> {
    text.split(',')
        .map(|s| s.trim().parse::<usize>().with_context(|| format!("--parked {text:?}: expected counts like 32,1000")))
        .collect()
}
