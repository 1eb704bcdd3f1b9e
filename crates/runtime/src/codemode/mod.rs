//! The embedding facade: [`facade::CodeMode`], its builder, sessions and
//! replies.

pub(crate) mod bench_hooks;
pub(crate) mod builder;
pub(crate) mod facade;
mod quota;
pub(crate) mod readiness;
pub(crate) mod session;
