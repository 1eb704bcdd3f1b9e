//! Golden files for what a model reads of MCP servers. The servers of
//! `tests/golden/declarations/servers.json` — each a fixed tool list as its
//! `tools/list` answered, or a server that is down — go through the same
//! conversion and naming as live ones; their declaration files
//! (`mcp/index.d.ts`, `mcp/<server>.d.ts`), their `$api()` answers and the
//! errors of unknown selectors must equal the files beside it, byte for
//! byte. `UPDATE_GOLDEN=1 cargo test -p codemode-mcp golden` rewrites the
//! expected files; review the diff before committing it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::dts::{api_response, index_declaration, server_declaration};
use crate::hub::tree_of;
use crate::server::{ServerView, tool_info};
use crate::tree::McpTree;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/declarations")
}

/// The tree of the servers `servers.json` describes.
fn golden_tree() -> McpTree {
    let text = std::fs::read_to_string(golden_dir().join("servers.json")).expect("servers.json exists");
    let spec: Value = serde_json::from_str(&text).expect("servers.json is JSON");
    let servers = spec["servers"].as_array().expect("a servers array");
    let views = servers
        .iter()
        .enumerate()
        .map(|(index, s)| {
            let tools = s["tools"]
                .as_array()
                .expect("a tools array")
                .iter()
                .map(|t| tool_info(serde_json::from_value(t.clone()).expect("an MCP tool")))
                .collect();
            let view = ServerView {
                tools,
                up: s["up"] == true,
                last_error: s["error"].as_str().map(str::to_owned),
                resources: s["resources"] == true,
                prompts: s["prompts"] == true,
                ..ServerView::default()
            };
            (index, s["name"].as_str().expect("a server name"), view)
        })
        .collect();
    tree_of(views)
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).expect("JSON serializes") + "\n"
}

/// Every expected file: its name and content.
fn rendered(tree: &McpTree) -> Vec<(String, String)> {
    let mut files = vec![
        ("index.d.ts".to_owned(), index_declaration(tree)),
        ("api.json".to_owned(), pretty(&api_response(tree, None, None, false).expect("the root answers"))),
    ];
    let mut errors = String::new();
    for server in &tree.servers {
        let id = &server.identifier;
        files.push((format!("{id}.d.ts"), server_declaration(server)));
        let api = api_response(tree, Some(server), None, false).expect("a server answers");
        files.push((format!("{id}.api.json"), pretty(&api)));
        // One tool by its raw name, with its schema: the one with the most
        // parameters.
        let richest =
            server.methods.iter().max_by_key(|m| m.input_schema["properties"].as_object().map_or(0, |p| p.len()));
        if let Some(tool) = richest {
            let one = api_response(tree, Some(server), Some(&tool.tool_name), true).expect("a tool answers");
            files.push((format!("{id}.{}.api.json", tool.method), pretty(&one)));
        }
        let typo = format!("{}x", richest.map_or("anything", |m| m.method.as_str()));
        let unknown = api_response(tree, Some(server), Some(&typo), false).expect_err("no such tool");
        errors.push_str(&format!("MCP.{id}.$api({typo:?}): {unknown}\n"));
    }
    files.push(("errors.txt".to_owned(), errors));
    files
}

#[test]
fn declarations_and_api_answers_match_their_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let dir = golden_dir();
    let mut mismatches = Vec::new();
    for (name, actual) in rendered(&golden_tree()) {
        let path = dir.join(&name);
        if update {
            std::fs::write(&path, &actual).expect("the golden file is writable");
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != actual {
            mismatches.push(format!("{name}:\n--- expected\n{expected}\n+++ actual\n{actual}"));
        }
    }
    assert!(mismatches.is_empty(), "golden mismatches (UPDATE_GOLDEN=1 rewrites them):\n{}", mismatches.join("\n"));
}
