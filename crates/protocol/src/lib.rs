//! The guest↔host vocabulary of codemode.
//!
//! This crate has no engine and no I/O (OS randomness for ids aside). It
//! owns what crosses the boundary between a cell and its host, and what a
//! model finally reads:
//!
//! - [`CellResult`]: the outcome of one `exec` or `wait` call — `completed`,
//!   `waiting` or `failed` — serialized as compact model-facing JSON with
//!   [`CellResult::to_model_json`].
//! - [`ErrorCode`] and [`Phase`]: why and where a cell failed; [`RunEnd`]:
//!   how a run ended, as the run index, the run store and operators see it.
//! - [`OutputEntry`]: one item of the ordered output channel (`text`, `json`,
//!   `console`), and [`Output`], the list delivered by one call (or a
//!   truncation marker once the output budget is spent).
//! - [`approval`]: pending approvals a parked cell lists and the
//!   [`Decisions`] a `wait` carries.
//! - [`budget`]: JSON budget helpers — UTF-16 lengths as JavaScript counts
//!   them, surrogate-safe truncation, UTF-8 byte budgets.
//! - [`ids`]: unguessable identities (the one place that reads OS
//!   randomness, with no predictable fallback), and [`retry`]: the
//!   exponential back-off every retry loop uses.
//!
//! Every type here is plain data: `Send`, `Sync`, cheap to clone, and
//! stable on the wire (field names are the contract's camelCase names).

#![deny(clippy::unwrap_used, clippy::expect_used)]

pub mod approval;
pub mod budget;
pub mod calls;
mod end;
pub mod ids;
mod output;
mod result;
pub mod retry;
mod schema;
mod task;
pub mod untrusted;

pub use approval::{DeciderKind, Decisions, Denial, PendingApproval, Verdict};
pub use calls::{ArgumentError, ExecArgs, MAX_TITLE_CHARS, WaitArgs};
pub use end::{RunEnd, UnknownRunEnd};
pub use output::{Output, OutputEntry, TRUNCATED_GUIDANCE, TruncationMarker};
pub use result::{CellResult, ErrorCode, PendingCall, Phase, RunId, Telemetry, WaitReason};
pub use schema::{derived_schema, result_schema};
pub use task::{InputAnswer, InputAsk, McpTask, OnInput, OnTask, TaskForm, TaskHooks, form_defaults, form_missing};
