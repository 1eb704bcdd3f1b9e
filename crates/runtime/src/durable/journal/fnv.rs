//! The hash journal fingerprints are made of, and how a request names
//! what it refers to by index (a native tool, an MCP server) inside one:
//! by identity in format 2, by position in format 1.

use serde_json::Value;

/// A stable 64-bit FNV-1a hash. Written here because it must never change
/// between builds (journals outlive processes and binaries), which std's
/// `DefaultHasher` does not promise, and a cryptographic hash would cost
/// more than the whole recording budget per call. A collision only weakens
/// the divergence check; it cannot make a replay run a request twice.
#[derive(Clone, Copy)]
pub(crate) struct Fnv(pub u64);

impl Fnv {
    pub(crate) fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// A length-prefixed field, so `("ab","c")` and `("a","bc")` differ.
    pub(crate) fn field(&mut self, bytes: &[u8]) {
        self.bytes(&(bytes.len() as u64).to_le_bytes());
        self.bytes(bytes);
    }

    pub(crate) fn n(&mut self, n: u64) {
        self.bytes(&n.to_le_bytes());
    }

    pub(crate) fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.bytes(b"n"),
            Value::Bool(b) => self.bytes(if *b { b"t" } else { b"f" }),
            Value::Number(n) => {
                self.bytes(b"#");
                self.field(n.to_string().as_bytes());
            }
            Value::String(s) => {
                self.bytes(b"s");
                self.field(s.as_bytes());
            }
            Value::Array(a) => {
                self.bytes(b"[");
                self.n(a.len() as u64);
                a.iter().for_each(|v| self.value(v));
            }
            // In insertion order: the replay runs the same code, which
            // builds its objects in the same order.
            Value::Object(o) => self.map(o),
        }
    }

    pub(crate) fn map(&mut self, o: &serde_json::Map<String, Value>) {
        self.bytes(b"{");
        self.n(o.len() as u64);
        for (k, v) in o {
            self.field(k.as_bytes());
            self.value(v);
        }
    }

    pub(crate) fn opt(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.field(s.as_bytes()),
            None => self.bytes(b"-"),
        }
    }
}

/// How a format-2 fingerprint names what a request refers to by index.
pub(crate) trait Identities {
    /// The catalog id of the tool at engine index `tool` (`None`: no tool
    /// there).
    fn tool(&self, tool: usize) -> Option<&str>;
    /// The configured name of the MCP server the guest's namespace calls
    /// `server`.
    fn server(&self, server: usize) -> Option<&str>;
}

/// How a fingerprint names a tool or an MCP server a request refers to.
pub(crate) enum Refs<'a> {
    /// Format 2: by identity — a native tool by its catalog id, an MCP
    /// server by its configured name — so a deploy that adds, removes or
    /// reorders tools changes no fingerprint of a tool still there.
    Identity(&'a dyn Identities),
    /// Format 1: by registry and server position, byte for byte as
    /// format-1 builds hashed them.
    Position,
}

impl Refs<'_> {
    /// The tool at engine index `tool`.
    pub(crate) fn tool(&self, h: &mut Fnv, tool: usize) {
        match self {
            Self::Identity(ids) => match ids.tool(tool) {
                Some(id) => h.field(id.as_bytes()),
                None => {
                    h.bytes(b"#");
                    h.n(tool as u64);
                }
            },
            Self::Position => h.n(tool as u64),
        }
    }

    /// The MCP server the guest's namespace calls `server`.
    pub(crate) fn server(&self, h: &mut Fnv, server: usize) {
        match self {
            Self::Identity(ids) => match ids.server(server) {
                Some(name) => h.field(name.as_bytes()),
                None => {
                    h.bytes(b"#");
                    h.n(server as u64);
                }
            },
            Self::Position => h.n(server as u64),
        }
    }

    /// An MCP server, or the root namespace (`None`).
    pub(crate) fn opt_server(&self, h: &mut Fnv, server: Option<usize>) {
        match (self, server) {
            (_, Some(s)) => self.server(h, s),
            (Self::Identity(_), None) => h.bytes(b"-"),
            (Self::Position, None) => h.n(u64::MAX),
        }
    }
}
