//! `[operator]`: who may act on a running server's durable runs — list and
//! show them, decide their approvals, abort them — through its operator
//! API (`/operator/…`) and console (`/console`).

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use super::ServeSection;

/// `[operator]`: the operators' tokens.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct OperatorSection {
    /// Operator bearer tokens, each naming its operator. None: the server
    /// serves no operator API and no console.
    pub tokens: Vec<OperatorToken>,
}

/// One `[operator] tokens` entry.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OperatorToken {
    /// The secret presented as `Authorization: Bearer <token>` (or typed
    /// into the console's sign-in).
    pub token: String,
    /// Who the token is: the audit trail names them.
    pub name: String,
}

/// The shortest operator token accepted: 128 bits of hex, as client tokens.
pub(crate) const MIN_OPERATOR_TOKEN_CHARS: usize = 32;

impl OperatorSection {
    /// Checks the tokens: long enough, each once, none also a client's
    /// (a client token must never reach the operator endpoints), names
    /// valid.
    pub(super) fn check(&self, serve: &ServeSection) -> Result<()> {
        let mut seen = std::collections::HashSet::new();
        for (i, t) in self.tokens.iter().enumerate() {
            if t.token.chars().count() < MIN_OPERATOR_TOKEN_CHARS {
                bail!("operator.tokens[{i}].token is too short: use at least {MIN_OPERATOR_TOKEN_CHARS} characters");
            }
            if !seen.insert(&t.token) {
                bail!("operator.tokens[{i}].token repeats an earlier token: each token names one operator");
            }
            if serve.tokens.iter().any(|c| c.token == t.token) {
                bail!(
                    "operator.tokens[{i}].token is also a [serve] client token: operator and client tokens must \
                     differ, or a client could act as an operator"
                );
            }
            super::check_name(&format!("operator.tokens[{i}].name"), &t.name)?;
        }
        Ok(())
    }
}
