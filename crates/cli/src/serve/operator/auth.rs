//! Who may reach the operator endpoints: operator bearer tokens (kept as
//! SHA-256 digests, compared in constant time, distinct from client
//! tokens), and the console's sign-ins — a cookie naming a server-side
//! session that holds the operator's name and the CSRF token its forms
//! must carry.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::config::{OperatorSection, ServeSection};

/// The console's cookie.
pub(crate) const COOKIE: &str = "codemode_console";

/// How long a console sign-in lasts.
pub(crate) const CONSOLE_SESSION_TTL: Duration = Duration::from_secs(8 * 3600);

/// Console sign-ins kept at most; past it the oldest is signed out.
pub(crate) const MAX_CONSOLE_SESSIONS: usize = 256;

/// Who presented what.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Caller {
    /// An operator, by name.
    Operator(String),
    /// A valid client token: never an operator.
    Client,
    /// Nothing valid.
    Nobody,
}

/// The operator and client token digests.
pub(crate) struct Tokens {
    operators: Vec<([u8; 32], String)>,
    clients: Vec<([u8; 32], ())>,
}

fn digest(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// Compares every entry, whether or not an earlier one matched.
fn find<'a, T>(entries: &'a [([u8; 32], T)], presented: &[u8; 32]) -> Option<&'a T> {
    let mut found = None;
    for (expected, value) in entries {
        let diff = expected.iter().zip(presented.iter()).fold(0u8, |acc, (a, b)| acc | (a ^ b));
        if diff == 0 {
            found = Some(value);
        }
    }
    found
}

impl Tokens {
    pub(crate) fn new(operator: &OperatorSection, serve: &ServeSection) -> Self {
        Self {
            operators: operator.tokens.iter().map(|t| (digest(&t.token), t.name.clone())).collect(),
            clients: serve.tokens.iter().map(|t| (digest(&t.token), ())).collect(),
        }
    }

    /// Whether any operator is configured (otherwise nothing is served).
    pub(crate) fn any(&self) -> bool {
        !self.operators.is_empty()
    }

    /// Who `token` is.
    pub(crate) fn caller(&self, token: &str) -> Caller {
        let presented = digest(token.trim());
        if let Some(name) = find(&self.operators, &presented) {
            return Caller::Operator(name.clone());
        }
        if find(&self.clients, &presented).is_some() { Caller::Client } else { Caller::Nobody }
    }

    /// Who a request's `Authorization: Bearer …` names.
    pub(crate) fn bearer(&self, headers: &hyper::HeaderMap) -> Caller {
        let presented = headers
            .get(hyper::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        presented.map_or(Caller::Nobody, |token| self.caller(token))
    }
}

/// A signed-in console.
#[derive(Clone, Debug)]
pub(crate) struct ConsoleSession {
    /// The operator.
    pub name: String,
    /// The token every form of this sign-in carries.
    pub csrf: String,
    /// What the last action did, shown once.
    pub flash: Option<String>,
    expires: Instant,
    created: Instant,
}

/// The console's sign-ins, by the SHA-256 of their cookie (the cookie
/// itself is not kept).
#[derive(Default)]
pub(crate) struct ConsoleSessions(Mutex<HashMap<[u8; 32], ConsoleSession>>);

/// 32 random bytes as hex.
fn secret() -> anyhow::Result<String> {
    let bytes = codemode_protocol::ids::random_bytes::<32>()?;
    Ok(codemode_protocol::ids::hex_into(String::new(), &bytes))
}

impl ConsoleSessions {
    fn locked(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], ConsoleSession>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Signs `name` in; returns the cookie's value.
    pub(crate) fn sign_in(&self, name: &str) -> anyhow::Result<String> {
        let (cookie, csrf) = (secret()?, secret()?);
        let now = Instant::now();
        let mut sessions = self.locked();
        sessions.retain(|_, s| s.expires > now);
        while sessions.len() >= MAX_CONSOLE_SESSIONS {
            let Some(oldest) = sessions.iter().min_by_key(|(_, s)| s.created).map(|(k, _)| *k) else { break };
            sessions.remove(&oldest);
        }
        let session = ConsoleSession {
            name: name.to_owned(),
            csrf,
            flash: None,
            expires: now + CONSOLE_SESSION_TTL,
            created: now,
        };
        sessions.insert(digest(&cookie), session);
        Ok(cookie)
    }

    /// The sign-in a request's cookie names, if live.
    pub(crate) fn of(&self, headers: &hyper::HeaderMap) -> Option<(String, ConsoleSession)> {
        let cookie = cookie(headers)?;
        let key = digest(&cookie);
        let mut sessions = self.locked();
        match sessions.get(&key) {
            Some(s) if s.expires > Instant::now() => Some((cookie, s.clone())),
            Some(_) => {
                sessions.remove(&key);
                None
            }
            None => None,
        }
    }

    /// Takes the sign-in's flash message.
    pub(crate) fn take_flash(&self, cookie: &str) -> Option<String> {
        self.locked().get_mut(&digest(cookie)).and_then(|s| s.flash.take())
    }

    /// Leaves a flash message for the next page.
    pub(crate) fn flash(&self, cookie: &str, message: String) {
        if let Some(s) = self.locked().get_mut(&digest(cookie)) {
            s.flash = Some(message);
        }
    }

    /// Signs the cookie's session out.
    pub(crate) fn sign_out(&self, cookie: &str) {
        self.locked().remove(&digest(cookie));
    }
}

/// The console cookie's value in a request's `Cookie` headers. The cookie
/// is ours and hex: anything else under its name is ignored. (A cookie
/// header is `name=value` pairs split by `;` — RFC 6265 §4.2.1 — too
/// small a grammar to take a crate for.)
fn cookie(headers: &hyper::HeaderMap) -> Option<String> {
    headers.get_all(hyper::header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(
        |pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == COOKIE && value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| value.to_owned())
        },
    )
}

/// Compares a form's CSRF token with the sign-in's, in constant time.
pub(crate) fn csrf_matches(session: &ConsoleSession, presented: &str) -> bool {
    let (a, b) = (digest(&session.csrf), digest(presented));
    a.iter().zip(b.iter()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether a state-changing request comes from the console's own pages:
/// a browser's `Origin` (or `Sec-Fetch-Site`), when sent, must be this
/// server. Beside the CSRF token and the `SameSite=Strict` cookie.
pub(crate) fn same_origin(headers: &hyper::HeaderMap) -> bool {
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok())
        && !matches!(site, "same-origin" | "none")
    {
        return false;
    }
    let Some(origin) = headers.get(hyper::header::ORIGIN).and_then(|v| v.to_str().ok()) else { return true };
    let host = headers.get(hyper::header::HOST).and_then(|v| v.to_str().ok());
    host.is_some_and(|host| origin == format!("http://{host}") || origin == format!("https://{host}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{OperatorToken, ServeToken};

    fn tokens() -> Tokens {
        let operator = OperatorSection { tokens: vec![OperatorToken { token: "o".repeat(32), name: "ops".into() }] };
        let serve = ServeSection {
            tokens: vec![ServeToken { token: "c".repeat(32), principal: "alice".into() }],
            ..ServeSection::default()
        };
        Tokens::new(&operator, &serve)
    }

    #[test]
    fn an_operator_token_names_its_operator_and_a_client_token_is_never_one() {
        let t = tokens();
        assert_eq!(t.caller(&"o".repeat(32)), Caller::Operator("ops".into()));
        assert_eq!(t.caller(&"c".repeat(32)), Caller::Client);
        assert_eq!(t.caller(&"o".repeat(31)), Caller::Nobody);
        assert_eq!(t.bearer(&hyper::HeaderMap::new()), Caller::Nobody);
    }

    #[test]
    fn a_console_sign_in_is_found_by_its_cookie_only_and_signs_out() {
        let sessions = ConsoleSessions::default();
        let cookie = sessions.sign_in("ops").unwrap();
        let mut headers = hyper::HeaderMap::new();
        headers.insert(hyper::header::COOKIE, format!("a=b; {COOKIE}={cookie}").parse().unwrap());
        let (_, session) = sessions.of(&headers).unwrap();
        assert_eq!(session.name, "ops");
        assert!(csrf_matches(&session, &session.csrf) && !csrf_matches(&session, "x"));
        sessions.sign_out(&cookie);
        assert!(sessions.of(&headers).is_none());
        headers.insert(hyper::header::COOKIE, format!("{COOKIE}={}", "0".repeat(64)).parse().unwrap());
        assert!(sessions.of(&headers).is_none(), "an unknown cookie is nobody");
    }

    #[test]
    fn console_sign_ins_are_bounded() {
        let sessions = ConsoleSessions::default();
        for _ in 0..=MAX_CONSOLE_SESSIONS {
            sessions.sign_in("ops").unwrap();
        }
        assert_eq!(sessions.locked().len(), MAX_CONSOLE_SESSIONS);
    }

    #[test]
    fn a_cross_site_form_post_is_refused() {
        let mut headers = hyper::HeaderMap::new();
        headers.insert(hyper::header::HOST, "127.0.0.1:8080".parse().unwrap());
        assert!(same_origin(&headers), "no Origin: not a browser's cross-site post");
        headers.insert(hyper::header::ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        assert!(same_origin(&headers));
        headers.insert(hyper::header::ORIGIN, "http://evil.example".parse().unwrap());
        assert!(!same_origin(&headers));
        headers.insert(hyper::header::ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        headers.insert("sec-fetch-site", "cross-site".parse().unwrap());
        assert!(!same_origin(&headers));
    }
}
