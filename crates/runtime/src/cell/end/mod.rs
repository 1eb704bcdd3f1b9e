//! The end of a cell: where an ending cell is ([`state`]: draining the
//! requests it did not await, keeping its value by reference and
//! committing, recording a failure's end), what it asks the services for
//! ([`services`]: the reference, the commit) and the driver's steps that
//! take it there ([`steps`]).

mod services;
mod state;
mod steps;

pub(crate) use services::Finalized;
pub(crate) use state::{Ending, Recording};
