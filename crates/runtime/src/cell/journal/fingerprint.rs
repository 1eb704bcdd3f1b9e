//! Request fingerprints: a stable 64-bit hash of what a request asked for,
//! so a replay can tell the same request from another.
//!
//! Format 2 fingerprints name things by identity — a native tool by its
//! catalog id (`openclaw:<name>`), an MCP server by its configured name —
//! so a deploy that adds, removes or reorders tools does not change the
//! fingerprint of a request to a tool that is still there. Format 1
//! hashed registry and server *positions*; its function is kept unchanged
//! so journals written by format-1 builds still replay where the tool
//! list did not change.

use serde_json::Value;

use super::super::requests::HostRequest;

/// A stable 64-bit FNV-1a hash. Written here because it must never change
/// between builds (journals outlive processes and binaries), which std's
/// `DefaultHasher` does not promise, and a cryptographic hash would cost
/// more than the whole recording budget per call. A collision only weakens
/// the divergence check; it cannot make a replay run a request twice.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// A length-prefixed field, so `("ab","c")` and `("a","bc")` differ.
    fn field(&mut self, bytes: &[u8]) {
        self.bytes(&(bytes.len() as u64).to_le_bytes());
        self.bytes(bytes);
    }

    fn n(&mut self, n: u64) {
        self.bytes(&n.to_le_bytes());
    }

    fn value(&mut self, v: &Value) {
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

    fn map(&mut self, o: &serde_json::Map<String, Value>) {
        self.bytes(b"{");
        self.n(o.len() as u64);
        for (k, v) in o {
            self.field(k.as_bytes());
            self.value(v);
        }
    }

    fn opt(&mut self, s: Option<&str>) {
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

/// The format-2 fingerprint of a request: its method, what it refers to by
/// identity, and its arguments.
pub(crate) fn fingerprint(request: &HostRequest, ids: &dyn Identities) -> u64 {
    let mut h = Fnv::new();
    h.bytes(b"v2");
    match request {
        HostRequest::Call { tool, input } => {
            h.bytes(b"call");
            tool_ref(&mut h, ids, *tool);
            h.value(input);
        }
        HostRequest::Describe { tool } => {
            h.bytes(b"describe");
            tool_ref(&mut h, ids, *tool);
        }
        HostRequest::McpCall { server, tool, args } => {
            h.bytes(b"mcpCall");
            server_ref(&mut h, ids, *server);
            h.field(tool.as_bytes());
            h.map(args);
        }
        HostRequest::McpOp { server, op, args } => {
            h.bytes(b"mcpOp");
            server_ref(&mut h, ids, *server);
            h.field(op.as_bytes());
            h.map(args);
        }
        HostRequest::McpApi { server, method, schema } => {
            h.bytes(b"mcpApi");
            match server {
                Some(s) => server_ref(&mut h, ids, *s),
                None => h.bytes(b"-"),
            }
            h.opt(method.as_deref());
            h.bytes(if *schema { b"1" } else { b"0" });
        }
        other => common(&mut h, other),
    }
    h.0
}

fn tool_ref(h: &mut Fnv, ids: &dyn Identities, tool: usize) {
    match ids.tool(tool) {
        Some(id) => h.field(id.as_bytes()),
        None => {
            h.bytes(b"#");
            h.n(tool as u64);
        }
    }
}

fn server_ref(h: &mut Fnv, ids: &dyn Identities, server: usize) {
    match ids.server(server) {
        Some(name) => h.field(name.as_bytes()),
        None => {
            h.bytes(b"#");
            h.n(server as u64);
        }
    }
}

/// The requests whose arguments name nothing by position: hashed the same
/// way in both formats.
fn common(h: &mut Fnv, request: &HostRequest) {
    match request {
        HostRequest::Search { query, limit } => {
            h.bytes(b"search");
            h.field(query.as_bytes());
            h.n(limit.map_or(u64::MAX, f64::to_bits));
        }
        HostRequest::ApiList { prefix } => {
            h.bytes(b"apiList");
            h.field(prefix.as_bytes());
        }
        HostRequest::ApiRead { path } => {
            h.bytes(b"apiRead");
            h.field(path.as_bytes());
        }
        HostRequest::Yield { reason } => {
            h.bytes(b"yield");
            h.opt(reason.as_deref());
        }
        HostRequest::Timer { delay_ms } => {
            h.bytes(b"timer");
            h.n(*delay_ms);
        }
        HostRequest::Store { key, json } => {
            h.bytes(b"store");
            h.field(key.as_bytes());
            h.opt(json.as_deref());
        }
        HostRequest::Load { key } => {
            h.bytes(b"load");
            h.field(key.as_bytes());
        }
        HostRequest::ResultSave { json, .. } => {
            h.bytes(b"resultSave");
            h.field(json.as_bytes());
        }
        HostRequest::ResultLoad { result_id } => {
            h.bytes(b"resultLoad");
            h.field(result_id.as_bytes());
        }
        HostRequest::ResultDelete { result_id } => {
            h.bytes(b"resultDelete");
            h.field(result_id.as_bytes());
        }
        HostRequest::NodesList => h.bytes(b"nodesList"),
        HostRequest::NodesGet { query } => {
            h.bytes(b"nodesGet");
            h.field(query.as_bytes());
        }
        HostRequest::NodesInvoke { node, command, params } => {
            h.bytes(b"nodesInvoke");
            h.field(node.as_bytes());
            h.field(command.as_bytes());
            h.value(params);
        }
        // Named by identity in `fingerprint`, by position in
        // `fingerprint_v1`: never reach here.
        HostRequest::Call { .. }
        | HostRequest::Describe { .. }
        | HostRequest::McpCall { .. }
        | HostRequest::McpOp { .. }
        | HostRequest::McpApi { .. } => h.bytes(b"?"),
    }
}

/// The format-1 fingerprint: tools and MCP servers by position. Kept
/// byte for byte as format-1 builds computed it.
pub(crate) fn fingerprint_v1(request: &HostRequest) -> u64 {
    let mut h = Fnv::new();
    match request {
        HostRequest::Call { tool, input } => {
            h.bytes(b"call");
            h.n(*tool as u64);
            h.value(input);
        }
        HostRequest::Describe { tool } => {
            h.bytes(b"describe");
            h.n(*tool as u64);
        }
        HostRequest::McpCall { server, tool, args } => {
            h.bytes(b"mcpCall");
            h.n(*server as u64);
            h.field(tool.as_bytes());
            h.map(args);
        }
        HostRequest::McpOp { server, op, args } => {
            h.bytes(b"mcpOp");
            h.n(*server as u64);
            h.field(op.as_bytes());
            h.map(args);
        }
        HostRequest::McpApi { server, method, schema } => {
            h.bytes(b"mcpApi");
            h.n(server.map_or(u64::MAX, |s| s as u64));
            h.opt(method.as_deref());
            h.bytes(if *schema { b"1" } else { b"0" });
        }
        other => common(&mut h, other),
    }
    h.0
}

/// A short description of a request for a divergence message (no
/// arguments: they may hold guest data).
pub(crate) fn describe(request: &HostRequest) -> &'static str {
    match request {
        HostRequest::Call { .. } => "a tool call",
        HostRequest::Describe { .. } => "describe()",
        HostRequest::Search { .. } => "catalog.search",
        HostRequest::ApiList { .. } => "API.list",
        HostRequest::ApiRead { .. } => "API.read",
        HostRequest::Yield { .. } => "yield_control",
        HostRequest::Timer { .. } => "setTimeout",
        HostRequest::Store { .. } => "store",
        HostRequest::Load { .. } => "load",
        HostRequest::ResultSave { .. } => "results.save",
        HostRequest::ResultLoad { .. } => "results.load",
        HostRequest::ResultDelete { .. } => "results.delete",
        HostRequest::McpCall { .. } => "an MCP tool call",
        HostRequest::McpOp { .. } => "an MCP operation",
        HostRequest::McpApi { .. } => "MCP $api()",
        HostRequest::NodesList => "nodes.list",
        HostRequest::NodesGet { .. } => "nodes.get",
        HostRequest::NodesInvoke { .. } => "a node invoke",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct Table(Vec<&'static str>, Vec<&'static str>);

    impl Identities for Table {
        fn tool(&self, tool: usize) -> Option<&str> {
            self.0.get(tool).copied()
        }
        fn server(&self, server: usize) -> Option<&str> {
            self.1.get(server).copied()
        }
    }

    #[test]
    fn format_2_fingerprints_name_tools_and_servers_by_identity_not_position() {
        let before = Table(vec!["openclaw:alpha", "openclaw:beta"], vec!["acct", "files"]);
        let after = Table(vec!["openclaw:gamma", "openclaw:beta", "openclaw:alpha"], vec!["files", "acct"]);
        let call = |tool| HostRequest::Call { tool, input: json!({"n": 1}) };
        assert_eq!(fingerprint(&call(1), &before), fingerprint(&call(1), &after), "beta kept its identity");
        assert_eq!(fingerprint(&call(0), &before), fingerprint(&call(2), &after), "alpha moved");
        assert_ne!(fingerprint(&call(0), &before), fingerprint(&call(0), &after), "index 0 is another tool now");
        let mcp = |server| HostRequest::McpCall { server, tool: "t".into(), args: serde_json::Map::new() };
        assert_eq!(fingerprint(&mcp(0), &before), fingerprint(&mcp(1), &after));
        assert_ne!(fingerprint(&call(0), &before), fingerprint_v1(&call(0)), "the formats hash apart");
    }

    /// Format 1's function must not change: journals of format-1 builds are
    /// checked with it. The values come from an independent FNV-1a of the
    /// byte sequence format 1 hashes (computed outside Rust).
    #[test]
    fn format_1_fingerprints_are_what_format_1_builds_computed() {
        let call = HostRequest::Call { tool: 0, input: json!({"a": 1}) };
        assert_eq!(fingerprint_v1(&call), 0x34c4_28ca_ab86_0336);
        assert_eq!(fingerprint_v1(&HostRequest::Yield { reason: None }), 0x3022_88fb_cf07_bb59);
    }

    #[test]
    fn fingerprints_tell_methods_and_arguments_apart() {
        let ids = Table(vec!["openclaw:a"], vec![]);
        let a = fingerprint(&HostRequest::Store { key: "ab".into(), json: Some("1".into()) }, &ids);
        let b = fingerprint(&HostRequest::Store { key: "a".into(), json: Some("b1".into()) }, &ids);
        let c = fingerprint(&HostRequest::Load { key: "ab".into() }, &ids);
        assert_ne!(a, b);
        assert_ne!(a, c);
        let call = |v| fingerprint(&HostRequest::Call { tool: 0, input: v }, &ids);
        assert_ne!(call(json!({"n": 1})), call(json!({"n": 2})));
        assert_ne!(call(json!(["1"])), call(json!([1])));
    }
}
