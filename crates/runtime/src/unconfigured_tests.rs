//! What a cell sees of MCP, nodes and the workspace tools when none is
//! configured. The same test runs with every feature set, so a build
//! without `mcp`, `nodes` or `workspace-tools` must show cells exactly what
//! the full build shows with nothing configured (the guest API's shape
//! never depends on features; only what is configured does).

use serde_json::json;

use crate::{CellResult, CodeMode, Exec};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unconfigured_mcp_nodes_and_workspace_look_the_same_in_every_build() {
    let rt = CodeMode::builder().start().await.expect("runtime starts");
    let code = "const root = await MCP.$api(); \
        const files = (await API.list('mcp/')).files.map(f => f.path); \
        let read; try { await API.read('mcp/index.d.ts'); } catch (e) { read = e.name; } \
        const list = await nodes.list(); \
        let get; try { await nodes.get('n1'); } catch (e) { get = e.message; } \
        return [typeof MCP, Object.keys(MCP), root.scope, root.servers, root.header, files, read, \
                typeof nodes, typeof nodes.list, list, get, typeof globalThis.read, typeof globalThis.grep]";
    let result = rt.session("s").reply("r").exec(Exec::code(code)).await.expect("runtime is up");
    let CellResult::Completed { value, .. } = &result else { panic!("expected completed: {}", result.to_model_json()) };
    let header = "interface McpRootApiHeader { header: string; servers?: unknown[] }\n\
                  declare namespace MCP { function $api(): Promise<McpRootApiHeader>; }\n";
    assert_eq!(
        value,
        &json!([
            "object",
            ["$api"],
            "root",
            [],
            header,
            [],
            "Error",
            "object",
            "function",
            [],
            "no paired nodes",
            "undefined",
            "undefined"
        ])
    );
    let description = rt.exec_tool_description().exec.description;
    assert!(!description.contains("MCP tools use"), "no MCP line without servers");
    assert!(!description.contains("- nodes:"), "no nodes hint without a registry");
    rt.shutdown().await;
}
