//! The cell's durable side: the part of a cell that journals it
//! ([`Durability`]: called when the cell makes a request, steps, parks and
//! ends), the journal's writer for one run ([`run_journal`]), the replay a
//! resumed run goes through before it goes live ([`replay`]), and what its
//! fingerprints name tools and servers by ([`identities`],
//! [`fingerprint`]). What it stores and how (the journal's format, the
//! record's commit, the store) is `crate::durable`'s.

mod announced;
mod bench;
mod durability;
mod fingerprint;
mod identities;
pub(crate) mod msg;
mod replay;
mod restored;
mod run_journal;

pub(crate) use announced::Announcements;
pub use bench::bench_record_calls;
pub(crate) use durability::{Durability, DurableStart, ParkRefusal, ParkSend, Parked, WriteAhead};
pub(crate) use fingerprint::{fingerprint, fingerprint_v1};
pub(crate) use identities::CellIds;
pub(crate) use msg::{DurableMsg, Mailbox};
pub(crate) use replay::{Replayed, Resumed};
pub(crate) use restored::Restored;
pub(crate) use run_journal::{HostState, Meta, WriteError};
