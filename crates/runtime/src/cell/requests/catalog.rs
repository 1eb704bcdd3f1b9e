//! `catalog.search`, a handle's `describe()` and the `API` virtual files
//! (GA-2, GA-8).

use codemode_catalog::files;

use super::catalog_api;
use super::decode_cx::DecodeCx;
use super::done::Done;
use super::op::{HandleInside, Handled, HostCx, HostOp, Inside, InsideCx, Rerun};
use crate::cell::pending::PendingKind;
use crate::durable::journal::fnv::{Fnv, Refs};
use crate::engine::args::Args;

/// A catalog handle's `describe()`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Describe {
    pub tool: usize,
}

impl HostOp for Describe {
    type Reach = Inside;
    const NAME: &'static str = "describe";
    const WHAT: &'static str = "describe()";

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self { tool: a.index(0, "the tool index")? })
    }

    fn fingerprint(&self, h: &mut Fnv, refs: &Refs<'_>) {
        h.bytes(b"describe");
        refs.tool(h, self.tool);
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        // Any index decodes; a missing tool is refused when handled.
        Ok(())
    }
}

impl HandleInside for Describe {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        cx.host.telemetry_mut().describe_count += 1;
        let settlement = catalog_api::describe(cx.host.tools(), id, self.tool);
        Ok(cx.settle_inline(settlement))
    }
}

/// `catalog.search(query, {limit})`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Search {
    pub query: String,
    pub limit: Option<f64>,
}

impl HostOp for Search {
    type Reach = Inside;
    const NAME: &'static str = "search";
    const WHAT: &'static str = "catalog.search";

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        let limit = match a.get(1) {
            Some(v) if v.is_null() => None,
            Some(_) => Some(a.number(1).ok_or_else(|| a.malformed("the limit", "a number"))?),
            None => None,
        };
        Ok(Self { query: a.string(0, "the query")?, limit })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"search");
        h.field(self.query.as_bytes());
        h.n(self.limit.map_or(u64::MAX, f64::to_bits));
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        // Any query and any number as its limit decode.
        Ok(())
    }
}

impl HandleInside for Search {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        cx.host.telemetry_mut().search_count += 1;
        let catalog = cx.services.catalog.clone();
        let Self { query, limit } = self;
        let task = async move { Done::Search(catalog.search(query, limit).await) };
        Ok(cx.spawn(id, PendingKind::Search, task))
    }
}

/// `API.list(prefix)`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct ApiList {
    pub prefix: String,
}

impl HostOp for ApiList {
    type Reach = Inside;
    const NAME: &'static str = "apiList";
    const WHAT: &'static str = "API.list";

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self { prefix: a.string(0, "the prefix")? })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"apiList");
        h.field(self.prefix.as_bytes());
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        Ok(())
    }
}

impl HandleInside for ApiList {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        let files = all_api_files(cx);
        let prefix = &self.prefix;
        // Listing MCP declarations shows server-provided text.
        cx.effects.network |=
            !cx.services.mcp.is_empty() && ("mcp/".starts_with(prefix.as_str()) || prefix.starts_with("mcp/"));
        let settlement = catalog_api::list(cx.host.tools(), &files, id, prefix);
        Ok(cx.settle_inline(settlement))
    }
}

/// `API.read(path)`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct ApiRead {
    pub path: String,
}

impl HostOp for ApiRead {
    type Reach = Inside;
    const NAME: &'static str = "apiRead";
    const WHAT: &'static str = "API.read";

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self { path: a.string(0, "the path")? })
    }

    fn fingerprint(&self, h: &mut Fnv, _: &Refs<'_>) {
        h.bytes(b"apiRead");
        h.field(self.path.as_bytes());
    }

    fn rerun(&self, _: &HostCx<'_>) -> Rerun {
        Rerun::Repeatable
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        Ok(())
    }
}

impl HandleInside for ApiRead {
    fn handle(self, id: u64, cx: &mut InsideCx<'_, '_>) -> Handled {
        let files = all_api_files(cx);
        cx.effects.network |= self.path.starts_with("mcp/");
        let settlement = catalog_api::read(cx.host.tools(), &files, id, &self.path);
        Ok(cx.settle_inline(settlement))
    }
}

/// The virtual files now: the host's, plus one declaration per MCP server
/// and `mcp/index.d.ts` (GA-2.3, GA-9.6).
fn all_api_files(cx: &HostCx<'_>) -> Vec<files::ApiFile> {
    let mut all = cx.services.api_files.as_ref().clone();
    let mcp = &cx.services.mcp;
    if mcp.is_empty() {
        return all;
    }
    let tree = mcp.tree();
    let mut add = |path: String, description: String, content: String| {
        all.push(files::ApiFile { path, description, bytes: content.len(), content });
    };
    add(
        "mcp/index.d.ts".into(),
        "Root MCP namespace declaration and server list.".into(),
        crate::mcp::index_declaration(&tree),
    );
    for s in &tree.servers {
        add(
            format!("mcp/{}.d.ts", s.identifier),
            format!("MCP server declaration for {}.", s.server_name),
            crate::mcp::server_declaration(s),
        );
    }
    all
}
