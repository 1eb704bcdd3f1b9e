//! The guest's host requests, declared once each.
//!
//! Every thing the guest can ask the host for is one type implementing
//! [`HostOp`](op::HostOp) in its family's file — tools, catalog, timers,
//! store, results, MCP, nodes — with its wire name, decoding, admission
//! bound, journal fingerprint, replay class, where it reaches and handler
//! side by side. The table below lists the types once; from it come the
//! [`HostRequest`] enum, the wire numbering ([`OpCode`]) the prelude reads
//! from `host.ops`, and the dispatch of each of those steps.
//!
//! A request that reaches outside the cell (`type Reach = Outside`) has no
//! way to start work but the [gate](gate): its handler only describes the
//! call, and the gate runs replay safety, the budget, the in-flight bound,
//! write-ahead, the policy, the span and the metrics, in that order.
//!
//! Adding a request: a type and its `HostOp` impl (with `Reach`) and
//! handler in the family's file, a line in the table, and the prelude
//! calling `hostRequest(OP.<name>, …)`. Everything else is derived; a
//! missing step is a compile error.

pub(crate) mod asked;
mod catalog;
mod catalog_api;
mod decode_cx;
pub(crate) mod done;
pub(crate) mod gate;
pub(crate) mod host_work;
mod mcp;
mod mcp_tasks;
mod nodes;
mod op;
pub(crate) mod outbound;
pub(crate) mod outcome;
mod rerun;
mod results;
pub(crate) mod session;
mod store;
mod timers;
mod tool_answer;
mod tools;

use std::fmt;

pub(crate) use crate::engine::settlement::{Answer, Fault, Settlement};
pub(crate) use catalog_api::{search_reply, shows_mcp};
pub(crate) use decode_cx::DecodeCx;
pub(crate) use done::{Completion, Done};
#[cfg(test)]
pub(crate) use op::ReachKind;
pub(crate) use op::{CellFailure, Handled, HostCx, Rerun};
pub(crate) use tool_answer::tool_settlement;

pub(crate) use catalog::{ApiList, ApiRead, Describe, Search};
pub(crate) use mcp::{McpApi, McpCall, McpOp};
pub(crate) use mcp_tasks::{RestoredInput, ResumedTask};
pub(crate) use nodes::{NodesGet, NodesInvoke, NodesList};
pub(crate) use results::{ResultDelete, ResultLoad, ResultSave};
pub(crate) use store::{Load, Store};
pub(crate) use timers::{Timer, Yield};
pub(crate) use tools::Call;

use crate::durable::journal::fnv::{Fnv, Refs};
use crate::engine::args::Args;
use crate::engine::host::RequestForm;
use op::{HostOp, Reach};

/// Declares the request table: the enum of requests, their wire numbers,
/// and the dispatch of every step to each type's `HostOp` impl.
macro_rules! host_requests {
    ($($name:ident),* $(,)?) => {
        /// One request the guest made, with typed arguments. Plain data
        /// by construction (every kind must serialize), so an engine in
        /// another process can send it.
        #[derive(serde::Serialize, serde::Deserialize)]
        pub(crate) enum HostRequest {
            $(
                #[doc = concat!("See [`", stringify!($name), "`].")]
                $name($name),
            )*
        }

        /// A request's number on the wire between the prelude and the
        /// host. The prelude reads the numbers from `host.ops` (name →
        /// number), so they are written only here.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum OpCode {
            $(
                #[doc = concat!("See [`", stringify!($name), "`].")]
                $name,
            )*
        }

        impl OpCode {
            /// Every request, in wire order.
            pub(crate) const ALL: &'static [OpCode] = &[$(OpCode::$name),*];

            /// Every request's form, in wire order: what the engine knows
            /// of each kind.
            pub(crate) const FORMS: &'static [RequestForm] = &[$(<$name as HostOp>::FORM),*];

            /// The name the prelude uses (`OP.<name>`), also in decode errors.
            #[cfg(test)]
            pub(crate) fn name(self) -> &'static str {
                match self {
                    $(OpCode::$name => <$name as HostOp>::NAME,)*
                }
            }

            /// Where requests of this kind reach.
            #[cfg(test)]
            pub(crate) fn reach(self) -> ReachKind {
                match self {
                    $(OpCode::$name => <<$name as HostOp>::Reach as Reach<$name>>::KIND,)*
                }
            }
        }

        impl HostRequest {
            /// Decodes request `op` from its arguments. Errors are already
            /// thrown in the guest.
            pub(crate) fn decode(op: OpCode, args: &Args<'_, '_>, cx: &DecodeCx<'_>) -> rquickjs::Result<Self> {
                match op {
                    $(OpCode::$name => <$name as HostOp>::decode(args, cx).map(Self::$name),)*
                }
            }

            /// How a divergence message names it.
            pub(crate) fn what(&self) -> &'static str {
                match self {
                    $(Self::$name(_) => <$name as HostOp>::WHAT,)*
                }
            }

            /// All the engine knows of the request's kind: its admission,
            /// how it is answered.
            pub(crate) fn form(&self) -> RequestForm {
                match self {
                    $(Self::$name(_) => <$name as HostOp>::FORM,)*
                }
            }

            /// Feeds the request into a journal fingerprint.
            pub(crate) fn fingerprint(&self, h: &mut Fnv, refs: &Refs<'_>) {
                match self {
                    $(Self::$name(r) => r.fingerprint(h, refs),)*
                }
            }

            /// Checks again what decoding it guaranteed (a request from
            /// an engine worker is untrusted input).
            pub(crate) fn recheck(&self, cx: &DecodeCx<'_>) -> Result<(), String> {
                match self {
                    $(Self::$name(r) => r.recheck(cx),)*
                }
            }

            /// Whether a crash may run it again.
            pub(crate) fn rerun(&self, cx: &HostCx<'_>) -> Rerun {
                match self {
                    $(Self::$name(r) => r.rerun(cx),)*
                }
            }

            /// Hands the request to its handler: one that reaches outside
            /// the cell goes through the gate.
            pub(crate) fn handle(self, id: u64, cx: &mut HostCx<'_>) -> Handled {
                match self {
                    $(Self::$name(r) => <<$name as HostOp>::Reach as Reach<$name>>::handle(r, id, cx),)*
                }
            }
        }

        impl fmt::Debug for HostRequest {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(Self::$name(r) => r.fmt(f),)*
                }
            }
        }
    };
}

host_requests! {
    Call,
    Describe,
    Search,
    ApiList,
    ApiRead,
    Yield,
    Timer,
    Store,
    Load,
    ResultSave,
    ResultLoad,
    ResultDelete,
    McpCall,
    McpOp,
    McpApi,
    NodesList,
    NodesGet,
    NodesInvoke,
}

impl OpCode {
    /// The request with wire number `n`.
    #[cfg(test)]
    pub(crate) fn from_wire(n: u32) -> Option<Self> {
        Self::ALL.get(n as usize).copied()
    }
}

#[cfg(test)]
mod tests;
