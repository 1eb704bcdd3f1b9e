//! The cell: one live or parked `exec`, its actor and the parts it owns.
//!
//! A `CellActor` owns one cell — its QuickJS engine, its host work (tool
//! calls, timers, yields), its output, its observer and its durable side
//! — and lives on one JS thread for its whole life. Guest JavaScript only
//! runs inside an observation *window* (an `exec` or `wait` call with a
//! deadline); host work keeps going while the cell is parked, and its
//! results are delivered when the next window opens.
//!
//! The guest's host requests are declared in [`requests`], one type each.

mod actor;
pub(crate) mod approvals;
mod deciding;
mod drive;
mod durable_calls;
pub(crate) mod effects;
mod end;
mod end_steps;
pub(crate) mod guest_host;
pub(crate) mod journaling;
pub(crate) mod mode;
mod msg;
pub(crate) mod output;
pub(crate) mod pending;
mod report;
pub(crate) mod requests;
pub(crate) mod run;
pub(crate) mod services;
mod state;
mod task_steps;
mod tasks;
pub(crate) mod tools;
mod windows;

pub(crate) use actor::CellActor;
pub(crate) use guest_host::CellRequests;
pub(crate) use mode::CellMode;
pub(crate) use msg::CellMsg;
pub(crate) use services::CellServices;
pub(crate) use state::{CellArgs, CellPlan};
pub(crate) use tools::ToolTable;
