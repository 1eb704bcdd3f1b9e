//! A cell's engine in another process: the worker that runs engines
//! ([`worker`]), the host's side of its channel ([`client`]), and what
//! crosses between them ([`protocol`]).
//!
//! The worker holds nothing of the host but the cells' sources, the
//! prelude and the values its cells are given: it is started with an empty
//! environment and one socket, and confines itself (`codemode_sandbox`)
//! before it runs guest code. Everything it needs of the host's
//! configuration while a step runs — a tool's metadata, the MCP namespace,
//! an MCP call's argument defaults — it asks for over the channel, as the
//! in-process engine asks its
//! [`GuestHost`](super::host::GuestHost). What a step produced comes
//! back as one [`StepReport`](protocol::StepReport): the requests the guest
//! made (decoded in the worker: to the host, untrusted input), the output,
//! the outcome, the clock and configuration reads for the journal, the
//! interruption and the costs.

pub(crate) mod client;
pub(crate) mod mirror;
pub(crate) mod protocol;
pub(crate) mod worker;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::args::Args;
use super::host::{Admitted, CompleteArguments, McpRoutes, RequestForm};
use crate::limits::Limits;

/// How a worker reads its guests' requests: the runtime's request table,
/// named here as a trait so the engine stays a leaf.
pub(crate) trait RequestTable: Send + Sync + 'static {
    /// A decoded request: plain data, sent to the host.
    type Request: Admitted + Serialize + DeserializeOwned + Send + std::fmt::Debug + 'static;

    /// Every request's form, in wire order.
    fn forms() -> &'static [RequestForm];

    /// Decodes request number `op` from the prelude's arguments; `mcp`
    /// completes an MCP call's arguments (the worker asks its host).
    fn decode(
        op: usize,
        args: &Args<'_, '_>,
        mcp: &dyn CompleteArguments,
        routes: Option<&McpRoutes>,
    ) -> rquickjs::Result<Self::Request>;
}

/// The limits an engine enforces itself, as the host gives them to a
/// worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EngineLimits {
    pub memory_limit_bytes: usize,
    pub max_stack_bytes: usize,
    pub cpu_budget: Option<std::time::Duration>,
    pub max_in_flight: usize,
    pub max_queued: usize,
    pub max_timers: usize,
    pub max_output_bytes: usize,
    /// The zone cells' local time is in (the worker checks the name against
    /// its own compiled-in zone data as it decodes it).
    pub time_zone: crate::CellTimeZone,
}

impl EngineLimits {
    /// The engine's part of `limits`.
    pub(crate) fn of(limits: &Limits) -> Self {
        Self {
            memory_limit_bytes: limits.memory_limit_bytes,
            max_stack_bytes: limits.max_stack_bytes,
            cpu_budget: limits.cpu_budget,
            max_in_flight: limits.max_in_flight,
            max_queued: limits.max_queued,
            max_timers: limits.max_timers,
            max_output_bytes: limits.max_output_bytes,
            time_zone: limits.time_zone.clone(),
        }
    }

    /// Limits with these engine limits (the rest are the host's business
    /// and left at their defaults).
    pub(crate) fn limits(self) -> Limits {
        Limits {
            memory_limit_bytes: self.memory_limit_bytes,
            max_stack_bytes: self.max_stack_bytes,
            cpu_budget: self.cpu_budget,
            max_in_flight: self.max_in_flight,
            max_queued: self.max_queued,
            max_timers: self.max_timers,
            max_output_bytes: self.max_output_bytes,
            time_zone: self.time_zone,
            ..Limits::default()
        }
    }
}

#[cfg(test)]
mod tests;
