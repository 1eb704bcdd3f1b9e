//! The registry actor and its [`NodeRegistry`] handle.
//!
//! The actor owns its copy of the pairings, the connection actors (linked
//! to it, so a closed socket reaches it as a supervision event) and the
//! current pairing code. The [`PairingStore`] is the authority on who is
//! paired; `registry_store.rs` keeps the copy in step with it. Cells read
//! a snapshot it publishes after every change —
//! `nodes.list()` and `nodes.get()` are answered without a mailbox hop, and
//! `invoke` goes straight to the node's connection actor.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Instant;

use codemode_catalog::policy::{Decision, NestedCall, Policy};
use codemode_protocol::ids::NoRandomness;
use ractor::{Actor, ActorCell, ActorProcessingErr, ActorRef, RpcReplyPort, SupervisionEvent};
use serde_json::Value;

use crate::config::NodesConfig;
use crate::connection::{ConnArgs, ConnMsg, Connection};
use crate::gateway::Admit;
use crate::hello::{Hello, Refusal, check_hello};
use crate::node::{NodeInfo, PendingNode};
use crate::pairing::{self, CODE_LIFETIME, Pairing, PairingChange, PairingStore};
use crate::protocol::{GatewayFrame, MAX_ID_CHARS, MAX_NAME_CHARS, MAX_PLATFORM_CHARS, RESERVED_EXEC_COMMAND};
use crate::resolve::{ResolveError, ResolvedNode, resolve};
use crate::socket::{Socket, refuse};
use crate::throttle::{GatewayLimits, LogLimiter, Throttle};
use crate::{InvokeError, NodeError};

#[derive(Default)]
struct View {
    paired: Vec<NodeInfo>,
    unpaired: Vec<String>,
    connections: HashMap<String, ActorRef<ConnMsg>>,
    advertised: HashMap<String, Vec<String>>,
}

pub(crate) enum RegistryMsg {
    Connect {
        hello: Hello,
        socket: Box<Socket>,
        peer: IpAddr,
    },
    IssueCode(RpcReplyPort<Result<String, NodeError>>),
    Revoke(String, RpcReplyPort<Result<bool, NodeError>>),
    Pending(RpcReplyPort<Vec<PendingNode>>),
    /// Another gateway changed the shared pairings; answered once applied.
    Changed(PairingChange, RpcReplyPort<()>),
    /// Panics (the supervision tests' crash).
    #[cfg(feature = "test-hooks")]
    Crash,
}

/// The current registry actor, shared by the handle and the gateway:
/// replaced when the registry's supervisor restarts it, so both reach the
/// new actor.
#[derive(Clone)]
pub(crate) struct RegistrySlot {
    actor: Arc<RwLock<ActorRef<RegistryMsg>>>,
    /// Set by [`NodeRegistry::stop`]: the gateway stops accepting.
    stopped: Arc<AtomicBool>,
}

impl RegistrySlot {
    /// The current actor.
    pub(crate) fn get(&self) -> ActorRef<RegistryMsg> {
        self.actor.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Whether the registry is gone for good: stopped through its handle,
    /// or ended with no supervisor to restart it.
    pub(crate) fn stopped(&self) -> bool {
        let actor = self.get();
        self.stopped.load(Ordering::Relaxed)
            || (actor.get_status() >= ractor::ActorStatus::Stopping && actor.try_get_supervisor().is_none())
    }
}

struct Code {
    normalised: String,
    expires: Instant,
}

/// A connected node: its connection actor and the secret (its digest) it
/// was admitted with, so a pairing replaced elsewhere ends it.
struct Conn {
    actor: ActorRef<ConnMsg>,
    secret_sha256: String,
}

struct RegistryState {
    config: Arc<NodesConfig>,
    store: Arc<dyn PairingStore>,
    /// The store's pairings as this registry last read or wrote them.
    pairings: BTreeMap<String, Pairing>,
    connections: HashMap<String, Conn>,
    pending: BTreeMap<String, PendingNode>,
    code: Option<Code>,
    /// Wrong codes presented since the current code was issued.
    failed_codes: u32,
    throttle: Throttle,
    refusals_log: LogLimiter,
    limits: GatewayLimits,
    view: Arc<RwLock<Arc<View>>>,
    /// Hands the store's change announcements in; stopped with the state.
    _changes: Option<store_sync::Forwarder>,
}

struct RegistryActor;

/// Refused nodes remembered for operators (`pending`); past this the
/// entry with the smallest id is forgotten.
pub const MAX_PENDING: usize = 256;

/// The longest reason remembered with a refused node, in characters.
pub const MAX_PENDING_REASON_CHARS: usize = 512;

/// `text` cut to `max_chars` (ending in `…` when cut) with control
/// characters replaced: what strangers present is kept only this way.
fn bounded(text: &str, max_chars: usize) -> String {
    let cut = text.chars().nth(max_chars).is_some();
    let keep = if cut { max_chars.saturating_sub(1) } else { max_chars };
    let mut out: String =
        text.chars().take(keep).map(|c| if c.is_control() { char::REPLACEMENT_CHARACTER } else { c }).collect();
    if cut && max_chars > 0 {
        out.push('…');
    }
    out
}

impl RegistryState {
    fn publish(&self) {
        let mut view = View::default();
        for p in self.pairings.values() {
            let connected = self.connections.contains_key(&p.id);
            let commands: Vec<String> = p
                .commands
                .iter()
                .filter(|c| c.as_str() != RESERVED_EXEC_COMMAND && self.config.commands.allows(&p.id, c))
                .cloned()
                .collect();
            let name = if p.name.trim().is_empty() { p.id.clone() } else { p.name.trim().to_owned() };
            view.paired.push(NodeInfo {
                id: p.id.clone(),
                name,
                platform: p.platform.clone(),
                connected,
                commands,
                last_seen_ms: Some(p.last_seen_ms),
            });
            view.advertised.insert(p.id.clone(), p.commands.clone());
        }
        view.unpaired = self.pending.keys().filter(|id| !self.pairings.contains_key(*id)).cloned().collect();
        view.connections = self.connections.iter().map(|(id, c)| (id.clone(), c.actor.clone())).collect();
        let mut slot = self.view.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        *slot = Arc::new(view);
    }

    /// Replaces the pairing code and returns the new one. Without
    /// randomness no code is valid until one can be issued.
    fn issue_code(&mut self) -> Result<String, NoRandomness> {
        self.code = None;
        let code = pairing::new_code()?;
        let expires = self.throttle.now() + CODE_LIFETIME;
        self.code = Some(Code { normalised: pairing::normalise_code(&code), expires });
        self.failed_codes = 0;
        Ok(code)
    }

    /// Replaces the pairing code and shows the new one to the operator.
    fn new_code(&mut self) {
        match self.issue_code() {
            Ok(code) => {
                if let Some(on_code) = &self.config.on_code {
                    on_code(&code);
                }
            }
            Err(e) => tracing::error!("no pairing code was issued ({e}); nodes pair with a token until one is"),
        }
    }

    /// Decides a well-formed hello from `peer`, given the node's pairing
    /// (`stored`, see `stored_pairing`): `Ok(Some(secret))` pairs now,
    /// `Ok(None)` is a paired node reconnecting, `Err` refuses.
    fn admit(&mut self, hello: &Hello, stored: Option<&Pairing>, peer: IpAddr) -> Result<Option<String>, Refusal> {
        let creds = &hello.credentials;
        if let (Some(p), Some(secret)) = (stored, &creds.secret)
            && pairing::same(&p.secret_sha256, &pairing::sha256_hex(secret))
        {
            return Ok(None);
        }
        // Checked before the code or token, so a locked-out address learns
        // nothing, not even from the right code. Secrets are not throttled:
        // 256 random bits cannot be guessed, and a paired node behind the
        // same address as a guesser must still reconnect.
        if (creds.token.is_some() || creds.code.is_some())
            && let Some(wait) = self.throttle.locked(peer)
        {
            return Err(Refusal::TooManyAttempts { wait_secs: wait.as_secs() + u64::from(wait.subsec_nanos() > 0) });
        }
        if let Some(token) = &creds.token {
            if self.config.tokens.iter().any(|t| pairing::same_hashed(t, token)) {
                self.throttle.succeeded(peer);
                return Ok(Some(pairing::new_secret()?));
            }
            self.throttle.failed(peer);
            return Err(Refusal::BadToken);
        }
        if let Some(code) = &creds.code {
            let valid = match &self.code {
                Some(c) if c.expires <= self.throttle.now() => {
                    self.new_code();
                    return Err(Refusal::CodeExpired);
                }
                Some(c) => pairing::same_hashed(&c.normalised, &pairing::normalise_code(code)),
                None => false,
            };
            if valid {
                // One use: the next node needs the next code.
                self.new_code();
                self.throttle.succeeded(peer);
                return Ok(Some(pairing::new_secret()?));
            }
            self.throttle.failed(peer);
            self.failed_codes = self.failed_codes.saturating_add(1);
            if self.failed_codes >= self.limits.rotate_code_after.get() {
                // Guessers from many addresses share this count: each code
                // faces at most this many wrong guesses.
                tracing::warn!("{} wrong pairing codes: the code was replaced; use the new one", self.failed_codes);
                self.new_code();
            }
            return Err(Refusal::BadCode);
        }
        if stored.is_some() {
            return Err(Refusal::OtherCredentials { node: hello.id.clone() });
        }
        Err(Refusal::NotPaired { node: hello.id.clone() })
    }

    /// Remembers a refused node for operators: a bounded number of
    /// entries, each cut to the hello bounds.
    fn remember(&mut self, id: &str, name: &str, platform: &str, reason: &str) {
        let node = PendingNode {
            id: bounded(id, MAX_ID_CHARS),
            name: bounded(name, MAX_NAME_CHARS),
            platform: bounded(platform, MAX_PLATFORM_CHARS),
            reason: bounded(reason, MAX_PENDING_REASON_CHARS),
        };
        if self.pending.len() >= MAX_PENDING && !self.pending.contains_key(&node.id) {
            self.pending.pop_first();
        }
        self.pending.insert(node.id.clone(), node);
    }

    /// Logs a refusal, at most one line per interval: strangers choose how
    /// often this runs.
    fn log_refusal(&mut self, id: &str, peer: IpAddr, reason: &str) {
        let Some(held_back) = self.refusals_log.allow(self.throttle.now()) else { return };
        let node = bounded(id, MAX_ID_CHARS);
        let reason = bounded(reason, MAX_PENDING_REASON_CHARS);
        if held_back == 0 {
            tracing::warn!(%node, %peer, "node refused: {reason}");
        } else {
            tracing::warn!(%node, %peer, "node refused: {reason} ({held_back} more refusals not logged)");
        }
    }

    /// Refuses a node: logged (rate-limited), remembered for operators,
    /// told to the node.
    fn refuse(&mut self, hello: &Hello, peer: IpAddr, socket: Socket, reason: String) {
        self.refuse_logged(hello, peer, socket, reason.clone(), &reason);
    }

    /// [`refuse`](Self::refuse), logging `logged` instead of the reason
    /// the node is told.
    fn refuse_logged(&mut self, hello: &Hello, peer: IpAddr, socket: Socket, reason: String, logged: &str) {
        self.log_refusal(&hello.id, peer, logged);
        self.remember(&hello.id, &hello.name, &hello.platform, &reason);
        self.publish();
        tokio::spawn(refuse(socket, reason));
    }

    async fn connect(&mut self, myself: &ActorRef<RegistryMsg>, hello: Hello, socket: Socket, peer: IpAddr) {
        if let Err(e) = check_hello(&hello) {
            return self.refuse(&hello, peer, socket, e.to_string());
        }
        let stored = match self.stored_pairing(&hello).await {
            Ok(stored) => stored,
            Err(e) => {
                // The node is told only that; the store's error is for the log.
                let reason = "the gateway could not check the node's pairing; retry later".to_owned();
                let logged = format!("{reason} ({})", NodeError::from(e));
                return self.refuse_logged(&hello, peer, socket, reason, &logged);
            }
        };
        let secret = match self.admit(&hello, stored.as_ref(), peer) {
            Ok(secret) => secret,
            Err(refusal) => return self.refuse(&hello, peer, socket, refusal.to_string()),
        };
        let now = pairing::now_ms();
        let record = Pairing {
            id: hello.id.clone(),
            name: hello.name.clone(),
            platform: hello.platform.clone(),
            commands: hello.commands.clone(),
            secret_sha256: match (&secret, &stored) {
                (Some(s), _) => pairing::sha256_hex(s),
                (None, Some(p)) => p.secret_sha256.clone(),
                (None, None) => return,
            },
            paired_at_ms: match (&secret, &stored) {
                (None, Some(p)) => p.paired_at_ms,
                _ => now,
            },
            last_seen_ms: now,
        };
        // A new pairing replaces whatever was stored; a reconnect writes
        // only if the pairing it was admitted on is still the stored one
        // (another gateway may have revoked or replaced it meanwhile).
        let written = if secret.is_some() {
            self.store.save(&record).await.map(|()| true)
        } else {
            self.store.update(&record).await
        };
        match written {
            Ok(true) => {}
            Ok(false) => {
                self.refresh(&hello.id).await;
                let reason = format!(
                    "node \"{}\" is no longer paired with these credentials (the pairing was revoked or replaced while it connected); pair it again with a new code",
                    hello.id
                );
                return self.refuse(&hello, peer, socket, reason);
            }
            Err(e) => {
                tracing::error!(node = %hello.id, "{}", NodeError::from(e));
                tokio::spawn(refuse(socket, "the gateway could not record the pairing; retry later".into()));
                return;
            }
        }
        if secret.is_some() {
            tracing::info!(node = %hello.id, name = %hello.name, "node paired");
        }
        self.pending.remove(&hello.id);
        let secret_sha256 = record.secret_sha256.clone();
        self.pairings.insert(hello.id.clone(), record);
        // A reconnect replaces a connection the node has abandoned.
        if let Some(old) = self.connections.remove(&hello.id) {
            old.actor.stop(Some("replaced by a new connection".into()));
        }
        // Listed (not yet connected) before the welcome goes out, so a node
        // that saw its welcome is already in `nodes.list()`.
        self.publish();
        let args = ConnArgs { node: hello.id.clone(), socket, welcome: GatewayFrame::Welcome { secret } };
        // Spawning waits only for the welcome frame to be written to a fresh
        // socket (it fits the kernel buffer), so the mailbox does not stall.
        match Actor::spawn_linked(None, Connection, args, myself.get_cell()).await {
            Ok((actor, _)) => {
                self.connections.insert(hello.id, Conn { actor, secret_sha256 });
            }
            Err(e) => tracing::warn!(node = %hello.id, "node connection failed to start: {e}"),
        }
        self.publish();
    }

    /// A connection actor ended: its node is disconnected from now on.
    async fn disconnected(&mut self, actor: &ActorCell) {
        let Some(id) =
            self.connections.iter().find(|(_, c)| c.actor.get_id() == actor.get_id()).map(|(id, _)| id.clone())
        else {
            return;
        };
        let Some(conn) = self.connections.remove(&id) else { return };
        // Only the pairing this connection was admitted on learns its
        // last-seen time.
        if let Some(p) = self.pairings.get_mut(&id)
            && p.secret_sha256 == conn.secret_sha256
        {
            p.last_seen_ms = pairing::now_ms();
            let record = p.clone();
            match self.store.update(&record).await {
                Ok(true) => {}
                // Revoked or replaced through another gateway.
                Ok(false) => self.refresh(&id).await,
                Err(e) => tracing::warn!(node = %id, "{}", NodeError::from(e)),
            }
        }
        self.publish();
    }
}

impl Actor for RegistryActor {
    type Msg = RegistryMsg;
    type State = RegistryState;
    type Arguments = (Arc<NodesConfig>, Arc<dyn PairingStore>, Arc<RwLock<Arc<View>>>, GatewayLimits);

    async fn pre_start(
        &self,
        myself: ActorRef<RegistryMsg>,
        (config, store, view, limits): Self::Arguments,
    ) -> Result<RegistryState, ActorProcessingErr> {
        // Subscribed before the load, so no change between the two is missed.
        let changes = store.changes();
        let pairings = store.load().await?.into_iter().map(|p| (p.id.clone(), p)).collect();
        let mut state = RegistryState {
            config,
            store,
            pairings,
            connections: HashMap::new(),
            pending: BTreeMap::new(),
            code: None,
            failed_codes: 0,
            throttle: Throttle::new(limits.clone()),
            refusals_log: LogLimiter::new(limits.log_interval),
            limits,
            view,
            _changes: changes.map(|changes| store_sync::Forwarder::start(changes, myself)),
        };
        if state.config.on_code.is_some() {
            state.new_code();
        }
        state.publish();
        Ok(state)
    }

    async fn handle(
        &self,
        myself: ActorRef<RegistryMsg>,
        msg: RegistryMsg,
        state: &mut RegistryState,
    ) -> Result<(), ActorProcessingErr> {
        match msg {
            RegistryMsg::Connect { hello, socket, peer } => state.connect(&myself, hello, *socket, peer).await,
            RegistryMsg::IssueCode(reply) => {
                let _ = reply.send(state.issue_code().map_err(NodeError::from));
            }
            RegistryMsg::Revoke(id, reply) => {
                // The store first: when it fails nothing changed (the node
                // would still be admitted here and elsewhere), so say so.
                let result = match state.store.remove(&id).await {
                    Ok(removed) => {
                        let known = state.pairings.contains_key(&id) || removed;
                        state.reconcile(&id, None);
                        if known {
                            state.remember(&id, "", "", "revoked");
                        }
                        Ok(known)
                    }
                    Err(e) => Err(NodeError::from(e)),
                };
                state.publish();
                let _ = reply.send(result);
            }
            RegistryMsg::Pending(reply) => {
                let _ = reply.send(state.pending.values().cloned().collect());
            }
            RegistryMsg::Changed(change, reply) => {
                state.changed(change).await;
                let _ = reply.send(());
            }
            #[cfg(feature = "test-hooks")]
            RegistryMsg::Crash => panic!("node registry: crash requested by a test hook"),
        }
        Ok(())
    }

    async fn handle_supervisor_evt(
        &self,
        _myself: ActorRef<RegistryMsg>,
        event: SupervisionEvent,
        state: &mut RegistryState,
    ) -> Result<(), ActorProcessingErr> {
        // A connection's end concerns its node alone; never stop the registry.
        match event {
            SupervisionEvent::ActorTerminated(cell, _, _) | SupervisionEvent::ActorFailed(cell, _) => {
                state.disconnected(&cell).await;
            }
            _ => {}
        }
        Ok(())
    }
}

/// The typed handle to the node registry.
#[derive(Clone)]
pub struct NodeRegistry {
    actor: RegistrySlot,
    /// Where a restarted actor reloads the pairings from.
    store: Arc<dyn PairingStore>,
    view: Arc<RwLock<Arc<View>>>,
    config: Arc<NodesConfig>,
    /// The host policy every invoke is put to.
    policy: Arc<dyn Policy>,
    limits: GatewayLimits,
    calls: Arc<AtomicU64>,
}

impl std::fmt::Debug for NodeRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeRegistry").field("config", &self.config).finish_non_exhaustive()
    }
}

/// Stops waiting for an invoke: tells the node to cancel unless it answered.
struct CancelOnDrop<'a> {
    conn: &'a ActorRef<ConnMsg>,
    call_id: u64,
    armed: bool,
}

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        if self.armed {
            let _ = self.conn.send_message(ConnMsg::Cancel(self.call_id));
        }
    }
}

impl NodeRegistry {
    /// Starts the registry with the pairings in `store`, linked to
    /// `supervisor` when given. Every [`invoke`](Self::invoke) is put to
    /// `policy` first: a handle offers no way around it.
    ///
    /// # Errors
    /// [`NodeError::Store`] when the pairings cannot be read, or
    /// [`NodeError::Unavailable`] when the actor cannot start.
    pub async fn start(
        config: NodesConfig,
        store: Arc<dyn PairingStore>,
        policy: Arc<dyn Policy>,
        supervisor: Option<ActorCell>,
    ) -> Result<Self, NodeError> {
        Self::start_with_limits(config, store, policy, supervisor, GatewayLimits::default()).await
    }

    /// [`NodeRegistry::start`] with the gateway's defences against
    /// unauthenticated peers set by `limits`.
    ///
    /// # Errors
    /// As [`NodeRegistry::start`].
    pub async fn start_with_limits(
        config: NodesConfig,
        store: Arc<dyn PairingStore>,
        policy: Arc<dyn Policy>,
        supervisor: Option<ActorCell>,
        limits: GatewayLimits,
    ) -> Result<Self, NodeError> {
        store.load().await?;
        let config = Arc::new(config);
        let view = Arc::new(RwLock::new(Arc::new(View::default())));
        let args = (Arc::clone(&config), store.clone(), Arc::clone(&view), limits.clone());
        let spawned = match supervisor {
            Some(s) => Actor::spawn_linked(None, RegistryActor, args, s).await,
            None => Actor::spawn(None, RegistryActor, args).await,
        };
        let (actor, _) = spawned.map_err(|e| NodeError::Unavailable(e.to_string()))?;
        let actor = RegistrySlot { actor: Arc::new(RwLock::new(actor)), stopped: Arc::new(AtomicBool::new(false)) };
        Ok(Self { actor, store, view, config, policy, limits, calls: Arc::new(AtomicU64::new(1)) })
    }

    /// The current registry actor, for a supervisor to link.
    #[must_use]
    pub fn actor_cell(&self) -> ActorCell {
        self.actor.get().get_cell()
    }

    /// Starts a new registry actor after the last one crashed, linked to
    /// `supervisor`: it reloads the pairings from the store and publishes a
    /// fresh view. The crashed actor's connections ended with it (their
    /// nodes reconnect); the pending list and the pairing code start over.
    ///
    /// # Errors
    /// As [`NodeRegistry::start`].
    pub async fn restart(&self, supervisor: ActorCell) -> Result<ActorCell, NodeError> {
        let args = (Arc::clone(&self.config), self.store.clone(), Arc::clone(&self.view), self.limits.clone());
        let (actor, _) = Actor::spawn_linked(None, RegistryActor, args, supervisor)
            .await
            .map_err(|e| NodeError::Unavailable(e.to_string()))?;
        let cell = actor.get_cell();
        *self.actor.actor.write().unwrap_or_else(std::sync::PoisonError::into_inner) = actor;
        Ok(cell)
    }

    /// Makes the registry actor panic, so its supervisor restarts it
    /// (supervision tests only); returns whether the request was sent.
    #[doc(hidden)]
    #[cfg(feature = "test-hooks")]
    pub fn crash_for_test(&self) -> bool {
        self.actor.get().send_message(RegistryMsg::Crash).is_ok()
    }

    /// Listens for node hosts on `addr` (`host:port`; port 0 picks one) and
    /// returns the address bound.
    ///
    /// # Errors
    /// [`NodeError::Bind`].
    pub async fn listen(&self, addr: &str) -> Result<std::net::SocketAddr, NodeError> {
        crate::gateway::listen(addr, self.actor.clone(), self.limits.clone()).await
    }

    fn view(&self) -> Arc<View> {
        Arc::clone(&self.view.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// The paired nodes, by id (GA-10.1).
    #[must_use]
    pub fn list(&self) -> Vec<NodeInfo> {
        self.view().paired.clone()
    }

    /// Resolves an id or display name among the paired nodes (GA-10.2).
    ///
    /// # Errors
    /// [`ResolveError`], whose text is the guest-facing message.
    pub fn resolve(&self, id_or_name: &str) -> Result<ResolvedNode, ResolveError> {
        let view = self.view();
        resolve(&view.paired, &view.unpaired, id_or_name)
    }

    /// Whether paired node `id` declared `command` when it connected: the
    /// host-known command names (metrics label only these).
    #[must_use]
    pub fn offers(&self, id: &str, command: &str) -> bool {
        self.view().advertised.get(id).is_some_and(|commands| commands.iter().any(|c| c == command))
    }

    /// Runs `command` on node `id` with `params` for a cell of `session`
    /// (none when headless) and returns its result (GA-10.3). The host
    /// policy sees the call first (`source: "nodes"`, `server`: the node
    /// id; an *ask* is a denial here: a direct invoke has no one to ask,
    /// while a cell's invokes are asked in its run); then the gateway's checks and
    /// command policy apply and the call is bounded by the invoke timeout.
    ///
    /// Cancel safety: dropping the future while the policy decides runs
    /// nothing; dropping it later cancels the command on the node, whose
    /// outcome is then unknown.
    ///
    /// # Errors
    /// [`InvokeError`], naming what went wrong.
    pub async fn invoke(
        &self,
        session: Option<String>,
        id: &str,
        command: &str,
        params: Value,
    ) -> Result<Value, InvokeError> {
        // A policy that never looks at calls costs no copy of the params.
        if self.policy.inspects_calls() {
            let call = NestedCall {
                source: codemode_catalog::policy::CallSource::Nodes,
                server: Some(id.to_owned()),
                tool: command.to_owned(),
                arguments: params.clone(),
                session,
            };
            match self.policy.check(call).await {
                Decision::Allow => {}
                Decision::Deny(reason) => {
                    return Err(InvokeError::PolicyDenied { node: id.to_owned(), command: command.to_owned(), reason });
                }
                // Approvals live in a cell's run; a direct invoke has no
                // one to ask.
                Decision::Ask(reason) => {
                    let reason = format!("it needs approval ({reason}), and a direct invoke has no one to ask");
                    return Err(InvokeError::PolicyDenied { node: id.to_owned(), command: command.to_owned(), reason });
                }
            }
        }
        self.invoke_allowed(id, command, params).await
    }

    /// An invoke the host policy already allowed (a cell puts its calls to
    /// the policy itself, where an approval can be asked and journaled):
    /// the gateway's checks, then the round trip to the node.
    ///
    /// # Errors
    /// [`InvokeError`], naming what went wrong.
    pub async fn invoke_allowed(&self, id: &str, command: &str, params: Value) -> Result<Value, InvokeError> {
        let view = self.view();
        let Some(node) = view.paired.iter().find(|n| n.id == id) else {
            return Err(InvokeError::NotPaired(id.to_owned()));
        };
        if command == RESERVED_EXEC_COMMAND {
            return Err(InvokeError::Reserved);
        }
        let advertised = view.advertised.get(id).map(Vec::as_slice).unwrap_or_default();
        if !advertised.iter().any(|c| c == command) {
            return Err(InvokeError::NotOffered {
                node: id.to_owned(),
                command: command.to_owned(),
                offered: if node.commands.is_empty() { "nothing".to_owned() } else { node.commands.join(", ") },
            });
        }
        if !self.config.commands.allows(id, command) {
            return Err(InvokeError::Denied { node: id.to_owned(), command: command.to_owned() });
        }
        let Some(conn) = view.connections.get(id) else {
            return Err(InvokeError::NotConnected { node: id.to_owned(), last_seen: last_seen(node.last_seen_ms) });
        };
        let call_id = self.calls.fetch_add(1, Ordering::Relaxed);
        let mut guard = CancelOnDrop { conn, call_id, armed: true };
        let timeout = self.config.invoke_timeout;
        let result = conn
            .call(|reply| ConnMsg::Invoke { call_id, command: command.to_owned(), params, reply }, Some(timeout))
            .await;
        let (node, command) = (id.to_owned(), command.to_owned());
        match result {
            Ok(ractor::rpc::CallResult::Success(answer)) => {
                guard.armed = false;
                answer.map_err(|e| InvokeError::Failed { node, command, message: e.into_message() })
            }
            Ok(ractor::rpc::CallResult::Timeout) => {
                Err(InvokeError::Timeout { node, command, ms: timeout.as_millis() })
            }
            Ok(ractor::rpc::CallResult::SenderError) | Err(_) => {
                guard.armed = false;
                Err(InvokeError::Disconnected { node, command })
            }
        }
    }

    /// Issues a fresh one-time pairing code (valid for [`CODE_LIFETIME`]);
    /// it replaces the previous one.
    ///
    /// # Errors
    /// [`NodeError::Unavailable`]; [`NodeError::NoRandomness`] (no code
    /// is valid then).
    pub async fn pairing_code(&self) -> Result<String, NodeError> {
        ractor::call!(self.actor.get(), RegistryMsg::IssueCode).map_err(|e| NodeError::Unavailable(e.to_string()))?
    }

    /// Forgets a pairing in the store and disconnects the node; it is
    /// refused until it pairs again — by every gateway on a shared store
    /// (the one it is connected to disconnects it when it hears of the
    /// change). Returns whether the node was paired.
    ///
    /// # Errors
    /// [`NodeError::Store`] when the store failed: then nothing changed
    /// (the node stays paired and connected); retry.
    /// [`NodeError::Unavailable`].
    pub async fn revoke(&self, id: &str) -> Result<bool, NodeError> {
        ractor::call!(self.actor.get(), RegistryMsg::Revoke, id.to_owned())
            .map_err(|e| NodeError::Unavailable(e.to_string()))?
    }

    /// Nodes that asked to pair and were refused, with the reason.
    ///
    /// # Errors
    /// [`NodeError::Unavailable`].
    pub async fn pending(&self) -> Result<Vec<PendingNode>, NodeError> {
        ractor::call!(self.actor.get(), RegistryMsg::Pending).map_err(|e| NodeError::Unavailable(e.to_string()))
    }

    /// Stops the registry and every connection.
    pub fn stop(&self) {
        self.actor.stopped.store(true, Ordering::Relaxed);
        self.actor.get().stop(None);
    }
}

/// `last_seen_ms` as UTC text, to the second (`2026-11-18T11:06:40Z`).
fn last_seen(ms: Option<u64>) -> String {
    let Some(ms) = ms else { return "never".to_owned() };
    let seconds = i64::try_from(ms / 1000).unwrap_or(i64::MAX);
    jiff::Timestamp::from_second(seconds).map_or_else(|_| format!("{ms} ms after the epoch"), |t| t.to_string())
}

/// The gateway hands peers to the current registry actor (a restarted one
/// included).
impl Admit for RegistrySlot {
    fn admit(&self, hello: Hello, socket: Socket, peer: IpAddr) -> bool {
        self.get().send_message(RegistryMsg::Connect { hello, socket: Box::new(socket), peer }).is_ok()
    }

    fn stopped(&self) -> bool {
        RegistrySlot::stopped(self)
    }
}

#[path = "registry_store.rs"]
mod store_sync;

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
