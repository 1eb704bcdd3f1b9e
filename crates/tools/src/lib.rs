//! Built-in codemode tools that reach the host's filesystem.
//!
//! This is the only crate of codemode with filesystem access on behalf of
//! cells: [`workspace`] holds `read`, `ls`, `find` and `grep`, confined to
//! one root directory (GA-11.4, GA-12). Each is an ordinary
//! [`Tool`](codemode_catalog::Tool); a host registers the ones it wants.

#![deny(clippy::unwrap_used, clippy::expect_used)]

pub mod workspace;
