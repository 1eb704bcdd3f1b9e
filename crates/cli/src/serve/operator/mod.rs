//! The server's operator side, beside MCP on `serve --http`: the operator
//! API (JSON under `/operator/`) and the console (`/console`, HTML), both
//! for `[operator] tokens` only, both acting through the runtime's
//! [`Operator`](codemode_runtime::operator::Operator), which audits every
//! action.

mod api;
mod auth;
mod console;
mod endpoints;
mod figures;
mod http;

pub(crate) use endpoints::OperatorEndpoints;
