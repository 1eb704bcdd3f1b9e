//! The end of a cell: where an ending cell is ([`state`]: draining the
//! requests it did not await, keeping its value by reference and
//! committing, recording a failure's end) and what it asks the services
//! for ([`services`]: the reference, the commit). The driver's steps that
//! take it there are `cell/end_steps.rs`, beside the other driver files.

pub(crate) mod services;
mod state;

pub(crate) use services::Finalized;
pub(crate) use state::{Delivered, Draining, Ending, Finishing, Recording};
