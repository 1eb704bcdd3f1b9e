//! The result of an `exec` or `wait` call.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::output::Output;

/// Identifies a parked cell across `wait` calls.
pub type RunId = String;

/// What one `exec` or `wait` call reports.
///
/// Serialized with a `status` tag: `{"status":"completed",…}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum CellResult {
    /// The cell's top-level promise resolved.
    Completed {
        /// The cell's final value, projected to JSON (`undefined` → `null`).
        value: serde_json::Value,
        /// Output produced since the previous observation.
        output: Output,
        /// Things the model should know that did not fail the cell.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        warnings: Vec<String>,
        /// Counters for the whole cell.
        telemetry: Telemetry,
        /// Envelope id when the cell observed network-derived content; the
        /// model text is then wrapped (never serialized).
        #[serde(skip)]
        untrusted: Option<String>,
    },
    /// The cell is parked: call `wait` with `runId` to go on observing it.
    #[serde(rename_all = "camelCase")]
    Waiting {
        /// The parked cell: call `wait` with it to go on observing it.
        run_id: RunId,
        /// Why the call returned before the cell settled.
        reason: WaitReason,
        /// Host work still outstanding (tool calls, timers, yields).
        pending_tool_calls: Vec<PendingCall>,
        /// Calls waiting for a decision (`approve`/`deny` in `wait`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pending_approvals: Vec<crate::approval::PendingApproval>,
        /// Output produced since the previous observation.
        output: Output,
        /// Things the model should know about the run (it is no longer
        /// journaled, say).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        warnings: Vec<String>,
        /// Counters so far.
        telemetry: Telemetry,
        /// Envelope id when the cell observed network-derived content.
        #[serde(skip)]
        untrusted: Option<String>,
    },
    /// The cell ended without a value.
    Failed {
        /// What kind of failure.
        code: ErrorCode,
        /// A message for the model: what went wrong and what to do.
        error: String,
        /// Where the failure happened.
        phase: Phase,
        /// Output produced since the previous observation.
        output: Output,
        /// Counters for the whole cell.
        telemetry: Telemetry,
        /// Envelope id when the cell observed network-derived content.
        #[serde(skip)]
        untrusted: Option<String>,
    },
}

impl CellResult {
    /// The compact JSON of the result (never wrapped).
    #[must_use]
    pub fn to_model_json(&self) -> String {
        // Serializing plain data with string keys cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The text a model reads: the compact JSON, wrapped as untrusted
    /// content when the cell observed network-derived data (GA-9.3).
    #[must_use]
    pub fn to_model_text(&self) -> String {
        match self.untrusted() {
            Some(id) => crate::untrusted::wrap(&self.to_model_json(), id),
            None => self.to_model_json(),
        }
    }

    /// The envelope id, when the cell observed network-derived content.
    #[must_use]
    pub fn untrusted(&self) -> Option<&str> {
        match self {
            Self::Completed { untrusted, .. } | Self::Waiting { untrusted, .. } | Self::Failed { untrusted, .. } => {
                untrusted.as_deref()
            }
        }
    }

    /// Sets the envelope id (never serialized: a result read back from
    /// where it was kept gets it again this way).
    pub fn set_untrusted(&mut self, id: Option<String>) {
        match self {
            Self::Completed { untrusted, .. } | Self::Waiting { untrusted, .. } | Self::Failed { untrusted, .. } => {
                *untrusted = id;
            }
        }
    }

    /// The status word: `completed`, `waiting` or `failed`.
    #[must_use]
    pub fn status(&self) -> &'static str {
        match self {
            Self::Completed { .. } => "completed",
            Self::Waiting { .. } => "waiting",
            Self::Failed { .. } => "failed",
        }
    }

    /// The output delivered with this result.
    #[must_use]
    pub fn output(&self) -> &Output {
        match self {
            Self::Completed { output, .. } | Self::Waiting { output, .. } | Self::Failed { output, .. } => output,
        }
    }

    /// The cell's counters and receipt with this result.
    #[must_use]
    pub fn telemetry(&self) -> &Telemetry {
        match self {
            Self::Completed { telemetry, .. } | Self::Waiting { telemetry, .. } | Self::Failed { telemetry, .. } => {
                telemetry
            }
        }
    }

    /// The run id, when the cell is parked.
    #[must_use]
    pub fn run_id(&self) -> Option<&str> {
        match self {
            Self::Waiting { run_id, .. } => Some(run_id),
            _ => None,
        }
    }

    /// A `completed` result: the cell's value, no output, no warnings,
    /// zero counters (the `with_*` methods add them).
    #[must_use]
    pub fn completed(value: serde_json::Value) -> Self {
        Self::Completed {
            value,
            output: Output::default(),
            warnings: Vec::new(),
            telemetry: Telemetry::default(),
            untrusted: None,
        }
    }

    /// A `waiting` result for run `run_id`: nothing pending, no output, zero
    /// counters (the `with_*` methods add them).
    #[must_use]
    pub fn waiting(run_id: impl Into<RunId>, reason: WaitReason) -> Self {
        Self::Waiting {
            run_id: run_id.into(),
            reason,
            pending_tool_calls: Vec::new(),
            pending_approvals: Vec::new(),
            output: Output::default(),
            warnings: Vec::new(),
            telemetry: Telemetry::default(),
            untrusted: None,
        }
    }

    /// A `failed` result: no output, zero counters (the `with_*` methods
    /// add them).
    #[must_use]
    pub fn failed(code: ErrorCode, error: impl Into<String>, phase: Phase) -> Self {
        Self::Failed {
            code,
            error: error.into(),
            phase,
            output: Output::default(),
            telemetry: Telemetry::default(),
            untrusted: None,
        }
    }

    /// A failure that happened before any guest code ran.
    #[must_use]
    pub fn input_error(code: ErrorCode, error: impl Into<String>) -> Self {
        Self::failed(code, error, Phase::Input)
    }

    /// With this output.
    #[must_use]
    pub fn with_output(mut self, delivered: Output) -> Self {
        match &mut self {
            Self::Completed { output, .. } | Self::Waiting { output, .. } | Self::Failed { output, .. } => {
                *output = delivered;
            }
        }
        self
    }

    /// With these counters.
    #[must_use]
    pub fn with_telemetry(mut self, counters: Telemetry) -> Self {
        match &mut self {
            Self::Completed { telemetry, .. } | Self::Waiting { telemetry, .. } | Self::Failed { telemetry, .. } => {
                *telemetry = counters;
            }
        }
        self
    }

    /// With these warnings (a `failed` result carries none: its error says
    /// it all).
    #[must_use]
    pub fn with_warnings(mut self, given: Vec<String>) -> Self {
        match &mut self {
            Self::Completed { warnings, .. } | Self::Waiting { warnings, .. } => *warnings = given,
            Self::Failed { .. } => {}
        }
        self
    }

    /// With the envelope id of the network-derived content the cell
    /// observed, if any.
    #[must_use]
    pub fn with_untrusted(mut self, id: Option<String>) -> Self {
        self.set_untrusted(id);
        self
    }

    /// With the host work and the approvals a `waiting` result lists
    /// (other results list none).
    #[must_use]
    pub fn with_pending(mut self, calls: Vec<PendingCall>, approvals: Vec<crate::approval::PendingApproval>) -> Self {
        if let Self::Waiting { pending_tool_calls, pending_approvals, .. } = &mut self {
            *pending_tool_calls = calls;
            *pending_approvals = approvals;
        }
        self
    }
}

/// Why a cell failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The request or the cell's source was unusable (syntax error, shell
    /// command, module import, unknown run id, admission limits).
    InvalidInput,
    /// The executor could not run the cell (shut down, overloaded).
    RuntimeUnavailable,
    /// The cell was aborted.
    Aborted,
    /// The cell ran past its CPU or wall-clock budget.
    Timeout,
    /// Nothing useful fit in the output budget.
    OutputLimitExceeded,
    /// The guest threw, or the host failed unexpectedly.
    InternalError,
    /// A headless cell made more tool calls than its budget allows.
    ToolBudgetExceeded,
    /// A run resumed from its journal did not do what the journal recorded
    /// (a different request, clock read or order): it was stopped rather
    /// than resumed wrongly.
    ReplayDiverged,
    /// The run's stored journals would have passed the session's or the
    /// principal's quota: it was ended rather than stored past it.
    QuotaExceeded,
    /// The engine process running the cell failed (it died, broke the
    /// engine protocol, or stopped answering): the cell could not go on.
    /// Other cells, on other engine processes, were not affected.
    EngineCrashed,
}

impl ErrorCode {
    /// Every code, as the published schemas list them.
    pub const ALL: [Self; 10] = [
        Self::InvalidInput,
        Self::RuntimeUnavailable,
        Self::Aborted,
        Self::Timeout,
        Self::OutputLimitExceeded,
        Self::InternalError,
        Self::ToolBudgetExceeded,
        Self::ReplayDiverged,
        Self::QuotaExceeded,
        Self::EngineCrashed,
    ];

    /// The protocol's name for the code, as it is serialized
    /// (`invalid_input`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidInput => "invalid_input",
            Self::RuntimeUnavailable => "runtime_unavailable",
            Self::Aborted => "aborted",
            Self::Timeout => "timeout",
            Self::OutputLimitExceeded => "output_limit_exceeded",
            Self::InternalError => "internal_error",
            Self::ToolBudgetExceeded => "tool_budget_exceeded",
            Self::ReplayDiverged => "replay_diverged",
            Self::QuotaExceeded => "quota_exceeded",
            Self::EngineCrashed => "engine_crashed",
        }
    }
}

/// Where a failure happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The cell's input broke a rule: before any guest code ran (a syntax
    /// error, refused source), or a request its rules refuse (a queue past
    /// its bound, a call a restart-safe cell may not make; it fails the
    /// cell even if caught).
    Input,
    /// While guest code ran.
    Guest,
    /// In the host, outside guest code.
    Host,
    /// A host request the cell made (a tool call) failed, and the cell did
    /// not catch its error.
    Bridge,
}

impl Phase {
    /// The protocol's name for the phase, as it is serialized (`guest`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Input => "input",
            Self::Guest => "guest",
            Self::Host => "host",
            Self::Bridge => "bridge",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a call returned `waiting`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WaitReason {
    /// The cell called `yield_control` and all outstanding work is yields.
    Yield,
    /// Host work was still pending when the call's budget ran out.
    PendingTools,
    /// A call waits for a person's decision (`pendingApprovals`).
    Approval,
}

impl WaitReason {
    /// The protocol's name for the reason, as it is serialized
    /// (`pending_tools`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Yield => "yield",
            Self::PendingTools => "pending_tools",
            Self::Approval => "approval",
        }
    }
}

impl std::fmt::Display for WaitReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One outstanding host request of a parked cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PendingCall {
    /// Stable id, `bridge:<method>:<n>`.
    pub id: String,
    /// The bridge method (`callValue`, `sleep`, `yield`, …).
    pub method: String,
}

/// Counters a cell reports with every result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Telemetry {
    /// Tool calls started.
    pub call_count: u32,
    /// `catalog.search` calls.
    pub search_count: u32,
    /// `describe()` calls.
    pub describe_count: u32,
    /// Timers started with `setTimeout`.
    pub timer_count: u32,
    /// `yield_control` calls.
    pub yield_count: u32,
    /// CPU time the guest's own code took, in microseconds: the JS
    /// thread's CPU clock around every step of the run (host work a guest
    /// call does synchronously included; a journal replay not).
    #[serde(default)]
    pub guest_cpu_us: u64,
    /// Wall-clock time, in microseconds, that the guest sat idle inside
    /// its windows waiting on host work (tools, timers, approvals). Time
    /// parked between windows is not counted.
    #[serde(default)]
    pub host_wait_us: u64,
    /// The largest heap the cell's engine held, in bytes, measured at the
    /// end of each window (a heap that grew and was collected within one
    /// window is not seen).
    #[serde(default)]
    pub heap_peak_bytes: u64,
    /// Output budget used, in bytes (compact JSON, UTF-8; GA-4).
    #[serde(default)]
    pub output_bytes: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OutputEntry;

    #[test]
    fn error_code_phase_and_wait_reason_names_are_their_serialized_names() {
        for code in ErrorCode::ALL {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
        }
        for phase in [Phase::Input, Phase::Guest, Phase::Host, Phase::Bridge] {
            assert_eq!(serde_json::to_value(phase).unwrap(), phase.as_str());
            assert_eq!(phase.to_string(), phase.as_str());
        }
        for reason in [WaitReason::Yield, WaitReason::PendingTools] {
            assert_eq!(serde_json::to_value(reason).unwrap(), reason.as_str());
            assert_eq!(reason.to_string(), reason.as_str());
        }
    }

    #[test]
    fn completed_results_serialize_as_compact_camel_case_json() {
        let r = CellResult::Completed {
            value: serde_json::json!({"b": 1, "a": 2}),
            output: Output::Entries(vec![OutputEntry::text("hi")]),
            warnings: vec![],
            telemetry: Telemetry::default(),
            untrusted: None,
        };
        assert_eq!(
            r.to_model_json(),
            r#"{"status":"completed","value":{"b":1,"a":2},"output":[{"type":"text","text":"hi"}],"telemetry":{"callCount":0,"searchCount":0,"describeCount":0,"timerCount":0,"yieldCount":0,"guestCpuUs":0,"hostWaitUs":0,"heapPeakBytes":0,"outputBytes":0}}"#
        );
    }

    #[test]
    fn waiting_results_carry_the_run_id_and_pending_calls() {
        let r = CellResult::Waiting {
            run_id: "run_1".into(),
            reason: WaitReason::PendingTools,
            pending_tool_calls: vec![PendingCall { id: "bridge:sleep:1".into(), method: "sleep".into() }],
            pending_approvals: vec![],
            output: Output::default(),
            warnings: Vec::new(),
            telemetry: Telemetry::default(),
            untrusted: None,
        };
        let json = r.to_model_json();
        assert!(json.starts_with(r#"{"status":"waiting","runId":"run_1","reason":"pending_tools","pendingToolCalls":[{"id":"bridge:sleep:1","method":"sleep"}]"#), "{json}");
        let back: CellResult = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn failed_results_name_code_and_phase() {
        let r = CellResult::input_error(ErrorCode::InvalidInput, "bad");
        assert!(
            r.to_model_json().starts_with(r#"{"status":"failed","code":"invalid_input","error":"bad","phase":"input""#)
        );
    }
}
