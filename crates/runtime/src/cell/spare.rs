//! One prepared engine kept ready on each JS thread.
//!
//! Preparing a cell's engine (QuickJS runtime, fresh context, guest API)
//! is most of a trivial cell's cost. Each JS thread keeps one spare,
//! prepared while the thread is idle, so an `exec` only compiles and runs
//! the cell's own code. A spare has never run guest code: taking it still
//! gives every cell a brand-new context (GA-1.2).

use std::cell::RefCell;
use std::sync::Arc;

use codemode_catalog::Registry;
use codemode_catalog::mcp::McpHub;

use super::vm::{StartError, Vm};
use crate::limits::Limits;

thread_local! {
    static SPARE: RefCell<Option<Vm>> = const { RefCell::new(None) };
}

/// The thread's spare engine, or a freshly prepared one.
pub(crate) fn take(limits: &Limits, tools: &Registry, mcp: &McpHub) -> Result<Vm, StartError> {
    match SPARE.with(RefCell::take) {
        Some(vm) => Ok(vm),
        None => Vm::prepare(limits, tools, mcp),
    }
}

/// Prepares a new spare once the thread has run what is already queued
/// (the cell that took the spare answers first).
pub(crate) fn refill_later(limits: Arc<Limits>, tools: Registry, mcp: McpHub) {
    tokio::spawn(async move {
        tokio::task::yield_now().await;
        if SPARE.with(|s| s.borrow().is_some()) {
            return;
        }
        // A failure here is retried by the next cell, which reports it.
        if let Ok(vm) = Vm::prepare(&limits, &tools, &mcp) {
            SPARE.with(|s| *s.borrow_mut() = Some(vm));
        }
    });
}
