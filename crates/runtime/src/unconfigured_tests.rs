//! What a cell sees of MCP, nodes and the workspace tools when none is
//! configured. The same test runs with every feature set, so a build
//! without `mcp`, `nodes` or `workspace-tools` must show cells exactly what
//! the full build shows with nothing configured (the guest API's shape
//! never depends on features; only what is configured does). Also what a
//! TypeScript cell meets with and without the `typescript` feature.

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

/// GA-1.1: with the `typescript` feature a TypeScript cell runs; without
/// it, it fails as a JavaScript syntax error that says why. A JavaScript
/// cell runs the same in both builds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typescript_cell_runs_only_in_a_build_with_the_feature_and_otherwise_says_so() {
    let rt = CodeMode::builder().start().await.expect("runtime starts");
    let reply = rt.session("s").reply("r");
    let typed = reply.exec(Exec::code("const n: number = 1;\nreturn n")).await.expect("runtime is up");
    if cfg!(feature = "typescript") {
        assert!(matches!(&typed, CellResult::Completed { value, .. } if value == &json!(1)), "{typed:?}");
    } else {
        let CellResult::Failed { code, error, .. } = &typed else { panic!("expected failed: {typed:?}") };
        assert_eq!(*code, crate::ErrorCode::InvalidInput);
        assert!(error.contains("SyntaxError at user.js:1:"), "{error}");
        assert!(error.contains("built without its `typescript` feature"), "{error}");
    }
    let plain = reply.exec(Exec::code("const n = 1;\nreturn n")).await.expect("runtime is up");
    assert!(matches!(&plain, CellResult::Completed { value, .. } if value == &json!(1)), "{plain:?}");
    rt.shutdown().await;
}
