//! Two gateways on one pairing store, as two processes on one database
//! have, over real loopback WebSockets (GA-10.1). The store here announces
//! no changes (`MemoryPairings`), so what passes is the registry checking
//! every node that presents a secret against the store itself, not its
//! own copy of the pairings.

use std::sync::Arc;
use std::time::Duration;

use codemode_catalog::policy::AllowAll;
use codemode_nodes::host::{CommandHandler, HostEvent, HostOptions, run_host};
use codemode_nodes::protocol::Credentials;
use codemode_nodes::{MemoryPairings, NodeRegistry, NodesConfig, PairingStore};
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedReceiver;

const TOKEN: &str = "shared-store-token-0123456789";
/// Only a hang waits this long.
const PATIENCE: Duration = Duration::from_secs(30);

/// A gateway on loopback over `store`, and its address.
async fn gateway(store: &MemoryPairings) -> (NodeRegistry, String) {
    let config = NodesConfig { tokens: vec![TOKEN.into()], ..NodesConfig::default() };
    let registry = NodeRegistry::start(config, Arc::new(store.clone()), Arc::new(AllowAll), None).await.unwrap();
    let addr = registry.listen("127.0.0.1:0").await.unwrap();
    (registry, format!("ws://{addr}"))
}

/// A node host `n1` offering `echo`, connecting to `gateway` with
/// `credentials`; its events, and the task (ending with the refusal).
fn node(gateway: &str, credentials: Credentials) -> (UnboundedReceiver<HostEvent>, tokio::task::JoinHandle<String>) {
    let options = HostOptions {
        gateway: gateway.to_owned(),
        id: "n1".into(),
        name: "N1".into(),
        platform: "test".into(),
        commands: vec!["echo".into()],
        credentials,
    };
    let handler: CommandHandler = Arc::new(|_, params: Value| Box::pin(async move { Ok(params) }));
    let (tx, events) = tokio::sync::mpsc::unbounded_channel();
    let task = tokio::spawn(run_host(options, handler, move |e| {
        let _ = tx.send(e);
    }));
    (events, task)
}

async fn next(events: &mut UnboundedReceiver<HostEvent>) -> HostEvent {
    tokio::time::timeout(PATIENCE, events.recv()).await.expect("an event").expect("the host runs")
}

async fn until_connected(registry: &NodeRegistry) {
    tokio::time::timeout(PATIENCE, async {
        while !registry.list().iter().any(|n| n.id == "n1" && n.connected) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the node is listed as connected");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_paired_through_one_gateway_reconnects_to_another_and_a_revocation_counts_on_both_ga_10_1() {
    let store = MemoryPairings::default();
    let (first, on_first) = gateway(&store).await;
    let (second, on_second) = gateway(&store).await;
    assert!(second.list().is_empty(), "nothing was paired when it started");

    let token = Credentials { token: Some(TOKEN.into()), ..Credentials::default() };
    let (mut events, host) = node(&on_first, token);
    let HostEvent::Paired(secret) = next(&mut events).await else { panic!("paired") };
    host.abort();
    let stored = store.get("n1").await.unwrap().expect("stored");
    let digest: String =
        <sha2::Sha256 as sha2::Digest>::digest(secret.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(stored.secret_sha256, digest, "only the secret's digest is stored");

    // The second gateway never heard of it; the secret admits it there.
    let with_secret = Credentials { secret: Some(secret.clone()), ..Credentials::default() };
    let (mut events, host) = node(&on_second, with_secret.clone());
    assert_eq!(next(&mut events).await, HostEvent::Connected);
    until_connected(&second).await;
    assert_eq!(second.invoke(None, "n1", "echo", json!({"via": "second"})).await.unwrap(), json!({"via": "second"}));

    // Revoked through the second gateway: the first (whose copy still lists
    // it, since nothing announced the change) refuses the secret anyway,
    // and forgets the pairing.
    assert!(second.revoke("n1").await.unwrap());
    let refusal = tokio::time::timeout(PATIENCE, host).await.expect("the host ends").unwrap();
    assert!(refusal.contains("\"n1\" is not paired"), "{refusal}");
    assert_eq!(first.list().len(), 1, "the first gateway's stale copy");
    let (_, host) = node(&on_first, with_secret);
    let refusal = tokio::time::timeout(PATIENCE, host).await.expect("the host ends").unwrap();
    assert!(refusal.contains("\"n1\" is not paired"), "{refusal}");
    assert!(first.list().is_empty(), "the refused hello brought the copy in step");
    assert_eq!(first.pending().await.unwrap()[0].id, "n1");
    first.stop();
    second.stop();
}
