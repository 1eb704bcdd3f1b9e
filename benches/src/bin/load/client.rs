//! The MCP client: rmcp's streamable-HTTP client, calls and waits.

use super::*;

pub(crate) type Client = RunningService<RoleClient, ()>;

pub(crate) async fn connect(url: &str, max_concurrent: usize) -> Result<Client> {
    let config = StreamableHttpClientTransportConfig::with_uri(url).max_concurrent_requests(max_concurrent);
    let transport = StreamableHttpClientTransport::from_config(config);
    let client = tokio::time::timeout(CALL_TIMEOUT, ().serve(transport)).await.context("connect timed out")??;
    Ok(client)
}

/// Calls `tool` and parses `content[0].text` as the cell's JSON result.
pub(crate) async fn call(peer: &Peer<RoleClient>, tool: &'static str, args: Value) -> Result<Value> {
    let Value::Object(args) = args else { bail!("arguments must be an object") };
    let request = CallToolRequestParams::new(tool).with_arguments(args);
    let result = tokio::time::timeout(CALL_TIMEOUT, peer.call_tool(request))
        .await
        .with_context(|| format!("{tool} took over {CALL_TIMEOUT:?}"))??;
    let text = result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
    serde_json::from_str(&text).map_err(|_| anyhow!("{tool}: not a cell result: {}", clip(&text)))
}

pub(crate) fn clip(s: &str) -> String {
    s.chars().take(300).collect()
}

pub(crate) fn status(v: &Value) -> &str {
    v["status"].as_str().unwrap_or("?")
}

/// Calls `wait` while the cell is `waiting`; returns its final result.
pub(crate) async fn wait_out(peer: &Peer<RoleClient>, mut result: Value) -> Result<Value> {
    for _ in 0..MAX_WAITS {
        if status(&result) != "waiting" {
            return Ok(result);
        }
        let run_id = result["runId"].as_str().ok_or_else(|| anyhow!("waiting without runId: {result}"))?.to_owned();
        result = call(peer, "wait", json!({ "runId": run_id })).await?;
    }
    bail!("still waiting after {MAX_WAITS} waits: {}", clip(&result.to_string()))
}

/// Connects `clients` MCP clients, each allowing `max_concurrent` requests
/// at once, then runs one warm-up cell on each, which binds its session.
pub(crate) async fn connect_warm(
    url: &str,
    clients: usize,
    max_concurrent: usize,
) -> Result<(Vec<Peer<RoleClient>>, Vec<Client>)> {
    let mut peers = Vec::new();
    let mut handles = Vec::new();
    for _ in 0..clients {
        let c = connect(url, max_concurrent).await?;
        peers.push(c.peer().clone());
        handles.push(c);
    }
    for p in &peers {
        let r = call(p, "exec", json!({"code": "return 0"})).await?;
        if status(&r) != "completed" {
            bail!("warm-up: {r}");
        }
    }
    Ok((peers, handles))
}

/// Disconnects every client, giving each 10 s.
pub(crate) async fn disconnect_all(handles: Vec<Client>) {
    for c in handles {
        let _ = tokio::time::timeout(Duration::from_secs(10), c.cancel()).await;
    }
}
