//! A node's hello as the gateway read it, and its bounds: plain data the
//! listener produces and the registry decides on.

use crate::protocol::{
    Credentials, MAX_CODE_CHARS, MAX_COMMAND_CHARS, MAX_COMMANDS, MAX_ID_CHARS, MAX_NAME_CHARS, MAX_PLATFORM_CHARS,
    MAX_SECRET_CHARS, MAX_TOKEN_CHARS,
};

/// The hello of a node, as the gateway read it.
pub(crate) struct Hello {
    pub id: String,
    pub name: String,
    pub platform: String,
    pub commands: Vec<String>,
    pub credentials: Credentials,
}

/// A hello field out of its bounds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum HelloError {
    #[error("node id must be 1–{MAX_ID_CHARS} characters without control characters")]
    Id,
    #[error("node name must be at most {MAX_NAME_CHARS} characters without control characters")]
    Name,
    #[error("node platform must be at most {MAX_PLATFORM_CHARS} characters without control characters")]
    Platform,
    #[error("a node advertises at most {MAX_COMMANDS} commands of 1–{MAX_COMMAND_CHARS} characters")]
    Commands,
    #[error("a secret has at most {MAX_SECRET_CHARS} characters")]
    Secret,
    #[error("a pairing code has at most {MAX_CODE_CHARS} characters")]
    Code,
    #[error("a pairing token has at most {MAX_TOKEN_CHARS} characters")]
    Token,
}

/// Why the registry refuses a well-formed hello: the text the node is
/// told (and operators see among the pending nodes).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Refusal {
    /// Too many wrong codes or tokens came from the node's address.
    #[error("too many attempts to pair from this address; retry in {wait_secs} s")]
    TooManyAttempts { wait_secs: u64 },
    /// The token is none the gateway was configured with.
    #[error("the pairing token is not one the gateway accepts")]
    BadToken,
    /// The code expired; a new one was issued.
    #[error("the pairing code expired; use the new code the gateway printed")]
    CodeExpired,
    /// The code is wrong (the same words for every wrong code: nothing
    /// says how close it was).
    #[error("the pairing code is not valid (codes are one-time; use the latest code the gateway printed)")]
    BadCode,
    /// The node is paired, but presented no matching secret.
    #[error("node \"{node}\" is paired with other credentials; present its secret, or pair again with a new code")]
    OtherCredentials { node: String },
    /// The node is not paired and presented no code or token.
    #[error(
        "node \"{node}\" is not paired: start it with --code <the pairing code the gateway printed> or --token <a token from the gateway's [nodes] configuration>"
    )]
    NotPaired { node: String },
    /// The gateway had no randomness for the node's secret.
    #[error("the gateway cannot issue a secret right now ({0}); retry later")]
    NoRandomness(String),
}

impl From<codemode_protocol::ids::NoRandomness> for Refusal {
    fn from(e: codemode_protocol::ids::NoRandomness) -> Self {
        Self::NoRandomness(e.to_string())
    }
}

pub(crate) fn check_hello(hello: &Hello) -> Result<(), HelloError> {
    // `chars().nth(max)` stops after max + 1 characters however long the text.
    let over = |s: &str, max: usize| s.chars().nth(max).is_some();
    let text = |s: &str, max: usize| !over(s, max) && !s.chars().any(char::is_control);
    let word = |s: &str, max: usize| !s.is_empty() && text(s, max);
    if !word(&hello.id, MAX_ID_CHARS) {
        return Err(HelloError::Id);
    }
    if !text(&hello.name, MAX_NAME_CHARS) {
        return Err(HelloError::Name);
    }
    if !text(&hello.platform, MAX_PLATFORM_CHARS) {
        return Err(HelloError::Platform);
    }
    if hello.commands.len() > MAX_COMMANDS || hello.commands.iter().any(|c| !word(c, MAX_COMMAND_CHARS)) {
        return Err(HelloError::Commands);
    }
    let creds = &hello.credentials;
    if creds.secret.as_deref().is_some_and(|s| over(s, MAX_SECRET_CHARS)) {
        return Err(HelloError::Secret);
    }
    if creds.code.as_deref().is_some_and(|s| over(s, MAX_CODE_CHARS)) {
        return Err(HelloError::Code);
    }
    if creds.token.as_deref().is_some_and(|s| over(s, MAX_TOKEN_CHARS)) {
        return Err(HelloError::Token);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hello() -> Hello {
        Hello {
            id: "n".into(),
            name: "n".into(),
            platform: "linux".into(),
            commands: vec![],
            credentials: Credentials::default(),
        }
    }

    #[test]
    fn every_hello_field_is_accepted_exactly_at_its_bound_and_refused_one_over() {
        // A field set to `n` characters; multi-byte characters count as one.
        type Set = fn(&mut Hello, String);
        let fields: [(Set, usize, HelloError); 7] = [
            (|h, v| h.id = v, MAX_ID_CHARS, HelloError::Id),
            (|h, v| h.name = v, MAX_NAME_CHARS, HelloError::Name),
            (|h, v| h.platform = v, MAX_PLATFORM_CHARS, HelloError::Platform),
            (|h, v| h.commands = vec![v], MAX_COMMAND_CHARS, HelloError::Commands),
            (|h, v| h.credentials.secret = Some(v), MAX_SECRET_CHARS, HelloError::Secret),
            (|h, v| h.credentials.code = Some(v), MAX_CODE_CHARS, HelloError::Code),
            (|h, v| h.credentials.token = Some(v), MAX_TOKEN_CHARS, HelloError::Token),
        ];
        for (set, max, error) in fields {
            for ch in ["x", "é", "🦀"] {
                let mut at = hello();
                set(&mut at, ch.repeat(max));
                assert_eq!(check_hello(&at), Ok(()), "{error:?} at {max} × {ch}");
                let mut over = hello();
                set(&mut over, ch.repeat(max + 1));
                assert_eq!(check_hello(&over), Err(error.clone()), "{error:?} at {} × {ch}", max + 1);
            }
        }
        let many = |n: usize| (0..n).map(|i| format!("c{i}")).collect::<Vec<_>>();
        assert_eq!(check_hello(&Hello { commands: many(MAX_COMMANDS), ..hello() }), Ok(()));
        let over = check_hello(&Hello { commands: many(MAX_COMMANDS + 1), ..hello() }).unwrap_err();
        assert_eq!(over.to_string(), "a node advertises at most 256 commands of 1–128 characters");
        assert_eq!(check_hello(&Hello { id: String::new(), ..hello() }), Err(HelloError::Id));
        assert_eq!(check_hello(&Hello { commands: vec![String::new()], ..hello() }), Err(HelloError::Commands));
        assert_eq!(check_hello(&Hello { name: String::new(), platform: String::new(), ..hello() }), Ok(()));
        for (field, error) in [("id", HelloError::Id), ("name", HelloError::Name), ("platform", HelloError::Platform)] {
            let mut h = hello();
            match field {
                "id" => h.id = "a\nb".into(),
                "name" => h.name = "a\u{1b}[2J".into(),
                _ => h.platform = "a\rb".into(),
            }
            assert_eq!(check_hello(&h), Err(error), "control characters in {field} are refused");
        }
    }
}
