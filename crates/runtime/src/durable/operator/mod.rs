//! What an operator does to stored runs, from any process on either
//! backend, without running a cell: list and show them, decide their
//! pending approvals, abort them, and read the audit trail every one of
//! those actions leaves.
//!
//! [`Operator`] is the one handle: `codemode runs` (on the store directly)
//! and the server's operator API (`/operator/…`, the console) both act
//! through it, so the two paths answer alike and record alike.
//!
//! - `decide`: the decisions, left in the run's journal for its next resume.
//! - `views`: what an operator is shown of a run.
//! - `handle`: [`Operator`] itself, which audits every action.

mod decide;
mod handle;
mod views;

pub use decide::{OperatorError, approvals_of};
pub use handle::{AbortOutcome, Operator, RunQuery};
pub use views::{CURSOR_SEPARATOR, RunDetail, RunPage, RunView, SessionShown, TaskView, session_hash};
