//! What a stdio MCP server may see of the host (its environment) and how
//! much a call may send it (GA-9.4), against the fixture server in
//! `tests/src/bin/mcp_fixture.rs` run as a real child process.

use std::process::Command;
use std::time::Duration;

use codemode_runtime::McpServerConfig;
use codemode_tests::*;
use serde_json::json;

/// A host secret the server must not see; set only in the child test
/// process this file re-runs itself as (setting it here would need
/// `unsafe`).
const SECRET: &str = "CODEMODE_TEST_SECRET";

/// The secret when this process holds it; otherwise runs test `name`
/// again in a child process whose environment holds it, requires that it
/// passed there, and returns `None`.
fn secret_or_rerun(name: &str) -> Option<String> {
    if let Ok(secret) = std::env::var(SECRET) {
        return Some(secret);
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name])
        .env(SECRET, "hunter2-do-not-leak")
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && text.contains("1 passed"), "{text}");
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stdio_mcp_server_sees_path_and_its_configured_env_but_not_the_hosts_secrets_ga_9_4() {
    let Some(secret) =
        secret_or_rerun("a_stdio_mcp_server_sees_path_and_its_configured_env_but_not_the_hosts_secrets_ga_9_4")
    else {
        return;
    };
    let dump = std::env::temp_dir().join(format!("codemode-mcp-env-{}", std::process::id()));
    let _ = std::fs::remove_file(&dump);
    // The shell records the environment the server is started with, then
    // becomes the fixture server.
    let server = McpServerConfig::stdio(
        "accounting",
        "/bin/sh",
        vec![
            "-c".into(),
            "env > \"$0\"; exec \"$1\"".into(),
            dump.display().to_string(),
            env!("CARGO_BIN_EXE_mcp_fixture").into(),
        ],
    )
    .env("CODEMODE_TEST_CONFIGURED", "given")
    .call_timeout(Duration::from_secs(5));
    let rt = codemode_tests::builder().mcp_server(server).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await, "the wrapped fixture connects");
    let env = std::fs::read_to_string(&dump).unwrap();
    assert!(!env.contains(SECRET) && !env.contains(&secret), "the host secret leaked: {env}");
    assert!(env.lines().any(|l| l.starts_with("PATH=")), "PATH is passed: {env}");
    assert!(env.lines().any(|l| l == "CODEMODE_TEST_CONFIGURED=given"), "configured env is passed: {env}");
    // The server works with what it was given.
    let r = exec(&rt, "return (await MCP.accounting.echo({a: 1})).structuredContent").await;
    assert_eq!(value(&r), &json!({"a": 1}));
    let _ = std::fs::remove_file(&dump);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_call_over_the_stdio_request_limit_fails_at_once_naming_its_size_and_the_limit_ga_9_4() {
    // A long call timeout: a refused request must not wait for it.
    let server = McpServerConfig::stdio("accounting", env!("CARGO_BIN_EXE_mcp_fixture"), Vec::new())
        .call_timeout(Duration::from_secs(120));
    let rt = codemode_tests::builder().mcp_server(server).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(10)).await);
    let results = run_to_end(
        &rt,
        "const s = 'x'.repeat(17 * 1024 * 1024); \
         try { await MCP.accounting.echo({s}); return 'sent' } catch (e) { return e.message }",
    )
    .await;
    let message = value(results.last().unwrap()).as_str().unwrap().to_owned();
    assert!(message.contains("accounting") && message.contains("`echo`"), "{message}");
    let size: usize = message
        .split("request is ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no size in {message}"));
    assert!(size > 17 * 1024 * 1024, "the size counts the whole request: {message}");
    assert!(message.contains("16777216-byte (16 MiB) limit"), "{message}");
    assert!(!message.contains("did not answer"), "refused before sending, not timed out: {message}");
    // The connection is untouched: a normal call still works.
    let r = exec(&rt, "return (await MCP.accounting.echo({b: 2})).structuredContent").await;
    assert_eq!(value(&r), &json!({"b": 2}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cell_cannot_read_host_secrets_through_a_third_party_servers_get_env_ga_9_4() {
    let Some(secret) = secret_or_rerun("a_cell_cannot_read_host_secrets_through_a_third_party_servers_get_env_ga_9_4")
    else {
        return;
    };
    // `@modelcontextprotocol/server-everything`, installed by scripts/test.sh.
    let script =
        concat!(env!("CARGO_MANIFEST_DIR"), "/.npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(std::path::Path::new(script).exists(), "run ./scripts/test.sh: it installs server-everything from npm");
    let server = McpServerConfig::stdio("everything", "node", vec![script.into(), "stdio".into()])
        .env("CODEMODE_TEST_CONFIGURED", "given")
        .call_timeout(Duration::from_secs(10));
    let rt = codemode_tests::builder().mcp_server(server).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(20)).await, "server-everything connects");
    let r = exec(&rt, "return JSON.parse((await MCP.everything.getEnv({})).content[0].text)").await;
    let env = value(&r).as_object().unwrap();
    assert!(!env.contains_key(SECRET), "the host secret leaked: {env:?}");
    assert!(!env.values().any(|v| v.as_str() == Some(secret.as_str())), "the host secret leaked: {env:?}");
    assert!(env.contains_key("PATH"), "{env:?}");
    assert_eq!(env.get("CODEMODE_TEST_CONFIGURED"), Some(&json!("given")));
}
