//! Request fingerprints: a stable 64-bit hash of what a request asked for,
//! so a replay can tell the same request from another.
//!
//! Format 2 fingerprints name things by identity — a native tool by its
//! catalog id (`native:<name>`), an MCP server by its configured name —
//! so a deploy that adds, removes or reorders tools does not change the
//! fingerprint of a request to a tool that is still there. Format 1
//! hashed registry and server *positions*; each request's `fingerprint`
//! still computes it byte for byte (through [`Refs::Position`]), so
//! journals written by format-1 builds replay where the tool list did not
//! change. What each request feeds in is declared with the request
//! (`cell/requests/`).

use crate::cell::requests::HostRequest;
use crate::durable::journal::fnv::{Fnv, Identities, Refs};

/// The format-2 fingerprint of a request: its method, what it refers to by
/// identity, and its arguments.
pub(crate) fn fingerprint(request: &HostRequest, ids: &dyn Identities) -> u64 {
    let mut h = Fnv::new();
    h.bytes(b"v2");
    request.fingerprint(&mut h, &Refs::Identity(ids));
    h.0
}

/// The format-1 fingerprint: tools and MCP servers by position. Kept
/// byte for byte as format-1 builds computed it.
pub(crate) fn fingerprint_v1(request: &HostRequest) -> u64 {
    let mut h = Fnv::new();
    request.fingerprint(&mut h, &Refs::Position);
    h.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::requests::{Call, Load, McpCall, Store, Yield};
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
        let call = |tool| HostRequest::Call(Call { tool, input: json!({"n": 1}) });
        assert_eq!(fingerprint(&call(1), &before), fingerprint(&call(1), &after), "beta kept its identity");
        assert_eq!(fingerprint(&call(0), &before), fingerprint(&call(2), &after), "alpha moved");
        assert_ne!(fingerprint(&call(0), &before), fingerprint(&call(0), &after), "index 0 is another tool now");
        let mcp = |server| {
            HostRequest::McpCall(McpCall { server, tool: "t".into(), args: serde_json::Map::new(), resume: None })
        };
        assert_eq!(fingerprint(&mcp(0), &before), fingerprint(&mcp(1), &after));
        assert_ne!(fingerprint(&call(0), &before), fingerprint_v1(&call(0)), "the formats hash apart");
    }

    /// Format 1's function must not change: journals of format-1 builds are
    /// checked with it. The values come from an independent FNV-1a of the
    /// byte sequence format 1 hashes (computed outside Rust).
    #[test]
    fn format_1_fingerprints_are_what_format_1_builds_computed() {
        let call = HostRequest::Call(Call { tool: 0, input: json!({"a": 1}) });
        assert_eq!(fingerprint_v1(&call), 0x34c4_28ca_ab86_0336);
        assert_eq!(fingerprint_v1(&HostRequest::Yield(Yield { reason: None })), 0x3022_88fb_cf07_bb59);
    }

    #[test]
    fn fingerprints_tell_methods_and_arguments_apart() {
        let ids = Table(vec!["openclaw:a"], vec![]);
        let a = fingerprint(&HostRequest::Store(Store { key: "ab".into(), json: Some("1".into()) }), &ids);
        let b = fingerprint(&HostRequest::Store(Store { key: "a".into(), json: Some("b1".into()) }), &ids);
        let c = fingerprint(&HostRequest::Load(Load { key: "ab".into() }), &ids);
        assert_ne!(a, b);
        assert_ne!(a, c);
        let call = |v| fingerprint(&HostRequest::Call(Call { tool: 0, input: v }), &ids);
        assert_ne!(call(json!({"n": 1})), call(json!({"n": 2})));
        assert_ne!(call(json!(["1"])), call(json!([1])));
    }
}
