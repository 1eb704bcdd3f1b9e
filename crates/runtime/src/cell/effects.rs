//! What a cell's requests leave behind for its end: the store writes it
//! buffered (committed only if it completes, GA-7.5/7.6) and whether it
//! has seen network-derived content (GA-7.7, GA-9.3).

pub(crate) use crate::durable::journal::WriteBuffer;

/// The effects a cell's host requests accumulated.
#[derive(Debug, Default)]
pub(crate) struct CellEffects {
    /// Store writes not yet committed (GA-7.5).
    pub writes: WriteBuffer,
    /// The cell has observed network-derived content (GA-7.7).
    pub network: bool,
    /// Its untrusted-content envelope id, made when first needed.
    pub envelope_id: Option<String>,
}

impl CellEffects {
    /// The envelope id of this cell's model text once it has observed
    /// network-derived content (GA-9.3); one id per cell. `run_id` keys
    /// the id when the OS gives no randomness (then logged): the run id
    /// is itself 128 random bits, and the envelope only has to be
    /// unguessable to whoever produced the content.
    pub(crate) fn untrusted_id(&mut self, run_id: &str) -> Option<String> {
        if !self.network {
            return None;
        }
        let id = self.envelope_id.get_or_insert_with(|| {
            codemode_protocol::ids::unguessable::<8>("").unwrap_or_else(|e| {
                tracing::warn!(error = %e, "envelope id derived from the run id");
                use sha2::{Digest, Sha256};
                codemode_protocol::ids::hex_into(String::new(), &Sha256::digest(run_id.as_bytes())[..8])
            })
        });
        Some(id.clone())
    }
}
