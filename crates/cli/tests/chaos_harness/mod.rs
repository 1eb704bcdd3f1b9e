//! Durable runs under continuous faults, with real processes: three
//! `codemode serve --http` on one PostgreSQL behind a round-robin TCP
//! front, many MCP clients running a mixed workload, a random server
//! `kill -9`ed and restarted every few seconds (some restarts are deploys
//! with a changed tool list), PostgreSQL itself restarted once and crashed
//! once (`-m immediate`), runs resumed on another server whose window
//! outlives the lease, and clients that never close their MCP sessions.
//!
//! Afterwards the guarantees are checked from the tools' own logs and the
//! database, not from what the servers say about themselves:
//!
//! - no run lost: every exec a client saw as `waiting` reaches an end;
//! - no call of a tool that is not replay-safe ran twice (each call carries
//!   a unique tag the tool appends to its log);
//! - every `outcome_unknown` a cell saw was a call of a run that lived
//!   through a crash, and its tag ran at most once;
//! - every completed run's store increment was committed exactly once
//!   (each client's counter equals the completions it saw);
//! - no replay diverged (client results and the runs table);
//! - no run record is left that can neither resume nor end (the runs
//!   table: nothing live with an empty journal and a dead owner, nothing
//!   ended `unrecoverable`);
//! - sessions the clients never closed are closed by the servers (each
//!   server's open-sessions gauge, once the idle TTL passed).
//!
//! Used by `tests/chaos.rs` (a short run in CI) and `benches/chaos.rs`
//! (a long run that prints its figures).

#![allow(dead_code, reason = "the test and the bench use different parts")]

use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How a chaos run is shaped.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// How long faults are injected.
    pub(crate) duration: Duration,
    /// Concurrent clients.
    pub(crate) clients: usize,
    /// A random server is killed every this long, plus up to as long again.
    pub(crate) kill_every: Duration,
    /// Restart PostgreSQL once, halfway, and crash it (`-m immediate`)
    /// once, at three quarters.
    pub(crate) restart_postgres: bool,
    /// The `codemode` binary.
    pub(crate) binary: PathBuf,
    /// The database URL and the cluster's directory (`scripts/postgres.sh`).
    pub(crate) url: String,
    pub(crate) pg_dir: PathBuf,
    /// Where servers, logs and tools live.
    pub(crate) dir: PathBuf,
}

/// What a chaos run saw.
#[derive(Debug, Default)]
pub(crate) struct Report {
    pub(crate) runs_started: u64,
    pub(crate) runs_waiting_seen: u64,
    pub(crate) completed: u64,
    pub(crate) aborted: u64,
    pub(crate) execs_lost_in_transit: u64,
    pub(crate) kills: u64,
    pub(crate) deploys: u64,
    pub(crate) postgres_restarts: u64,
    pub(crate) postgres_crashes: u64,
    /// Runs whose window on a resumed run outlived the lease.
    pub(crate) long_windows: u64,
    /// MCP sessions the clients left open (no `DELETE`).
    pub(crate) sessions_left_open: u64,
    pub(crate) resumes: u64,
    pub(crate) divergences: u64,
    pub(crate) outcome_unknown: u64,
    pub(crate) reissued: u64,
    pub(crate) unsafe_calls: u64,
    /// Unsafe calls refused unstarted because the journal could not record
    /// them first (the database restarting).
    pub(crate) journal_unavailable: u64,
    pub(crate) exec_ms: Vec<f64>,
    pub(crate) wait_ms: Vec<f64>,
    /// Broken guarantees, each said in a sentence. Must be empty.
    pub(crate) violations: Vec<String>,
}

impl Report {
    /// The report as text.
    pub(crate) fn render(&self) -> String {
        let q = |v: &[f64]| {
            let mut v = v.to_vec();
            v.sort_by(f64::total_cmp);
            let at = |p: f64| v.get(((v.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(0.0);
            format!("p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms (n={})", at(0.5), at(0.9), at(0.99), v.len())
        };
        format!(
            "runs started {}, seen waiting {}, completed {}, aborted {}, execs lost in transit {}\n\
             kills {} (deploys {}), postgres restarts {}, postgres crashes {}, resumes {}, divergences {}, \
             outcome_unknown {}, re-issued {}, unsafe tool calls {}, refused for an unwritable journal {}\n\
             completed runs with a window longer than the lease {}, MCP sessions left open by clients {}\n\
             exec latency {}\nwait latency {}\nviolations: {}",
            self.runs_started,
            self.runs_waiting_seen,
            self.completed,
            self.aborted,
            self.execs_lost_in_transit,
            self.kills,
            self.deploys,
            self.postgres_restarts,
            self.postgres_crashes,
            self.resumes,
            self.divergences,
            self.outcome_unknown,
            self.reissued,
            self.unsafe_calls,
            self.journal_unavailable,
            self.long_windows,
            self.sessions_left_open,
            q(&self.exec_ms),
            q(&self.wait_ms),
            if self.violations.is_empty() { "none".to_owned() } else { self.violations.join("; ") }
        )
    }
}

/// A small deterministic generator (xorshift64*): the workload's choices.
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

// ---- the servers ------------------------------------------------------------

/// The configuration every server runs with; `deployed` adds a tool
/// before the others (a deploy that changes the tool list).
fn config(plan: &Plan, deployed: bool) -> String {
    let log = plan.dir.join("unsafe.log");
    let log = log.display();
    let extra = if deployed {
        "[[tools]]\nname = \"aaa_deployed\"\ndescription = \"Added by a deploy.\"\ncommand = [\"sh\", \"-c\", \"cat >/dev/null; printf '{}'\"]\n\n"
    } else {
        ""
    };
    // The unsafe tools log each call's input (its unique tag) with one
    // append; `unsafe_slow` then sleeps, so crashes catch it in flight.
    format!(
        r#"[store]
backend = "postgres"
url = "{url}"
pool_size = 6

[runs]
lease_ms = 2000
evict_after_ms = 1000

[limits]
timeout_ms = 3000

[serve]
session_idle_ttl_ms = 2000

{extra}[[tools]]
name = "unsafe_count"
description = "Logs its tag; not replay-safe."
command = ["sh", "-c", "read -r input || true; printf '%s\n' \"$input\" >> {log}; printf '{{\"ok\":true}}'"]

[[tools]]
name = "unsafe_slow"
description = "Logs its tag, then sleeps; not replay-safe."
command = ["sh", "-c", "read -r input || true; printf '%s\n' \"$input\" >> {log}; sleep 0.4; printf '{{\"ok\":true}}'"]

[[tools]]
name = "safe_slow"
description = "Sleeps; replay-safe."
command = ["sh", "-c", "cat >/dev/null; sleep 0.4; printf '{{\"ok\":true}}'"]
replay_safe = true

[[tools]]
name = "safe_long"
description = "Sleeps longer than the lease; replay-safe."
command = ["sh", "-c", "cat >/dev/null; sleep 2.5; printf '{{\"ok\":true}}'"]
replay_safe = true
"#,
        url = plan.url
    )
}

/// One server slot: its fixed ports, and the process when it runs.
struct Slot {
    http: u16,
    metrics: u16,
    child: Option<Child>,
    up: Arc<AtomicBool>,
}

fn spawn(plan: &Plan, index: usize, slot: &mut Slot, deployed: bool) {
    let dir = plan.dir.join(format!("server-{index}"));
    std::fs::create_dir_all(&dir).unwrap();
    let config_path = dir.join(if deployed { "deployed.toml" } else { "codemode.toml" });
    std::fs::write(&config_path, config(plan, deployed)).unwrap();
    let stderr = std::fs::OpenOptions::new().create(true).append(true).open(dir.join("stderr.log")).unwrap();
    let child = Command::new(&plan.binary)
        .arg("--config")
        .arg(&config_path)
        .args(["serve", "--http", &format!("127.0.0.1:{}", slot.http)])
        .args(["--metrics", &format!("127.0.0.1:{}", slot.metrics)])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    slot.child = Some(child);
    // Up once it accepts connections (its store and runs are open by then).
    let deadline = Instant::now() + Duration::from_secs(60);
    while TcpStream::connect(("127.0.0.1", slot.http)).is_err() {
        assert!(Instant::now() < deadline, "server {index} did not start; see {}", dir.display());
        std::thread::sleep(Duration::from_millis(20));
    }
    slot.up.store(true, Ordering::SeqCst);
}

fn kill_9(slot: &mut Slot) {
    slot.up.store(false, Ordering::SeqCst);
    if let Some(mut child) = slot.child.take() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// `codemode_runs_resumed_total` etc. of a live server, read before it is
/// killed (its counters die with it).
fn scrape(slot: &Slot) -> HashMap<String, f64> {
    let mut out = HashMap::new();
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", slot.metrics)) else { return out };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        if let Some((name, value)) = line.rsplit_once(' ')
            && let Ok(v) = value.parse::<f64>()
        {
            out.insert(name.to_owned(), v);
        }
    }
    out
}

// ---- the round-robin front ----------------------------------------------------

/// A TCP front: each connection goes to the next server that is up, and
/// its bytes are copied both ways until either side closes.
fn front(listener: TcpListener, backends: Vec<(u16, Arc<AtomicBool>)>, stop: Arc<AtomicBool>) {
    let next = AtomicUsize::new(0);
    listener.set_nonblocking(true).unwrap();
    while !stop.load(Ordering::SeqCst) {
        let client = match listener.accept() {
            Ok((client, _)) => client,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(2));
                continue;
            }
            Err(_) => continue,
        };
        let _ = client.set_nonblocking(false);
        let start = next.fetch_add(1, Ordering::SeqCst);
        let server = (0..backends.len()).find_map(|i| {
            let (port, up) = &backends[(start + i) % backends.len()];
            if !up.load(Ordering::SeqCst) {
                return None;
            }
            TcpStream::connect_timeout(&SocketAddr::from(([127, 0, 0, 1], *port)), Duration::from_secs(1)).ok()
        });
        let Some(server) = server else { continue };
        let (mut c_read, mut s_write) = (client.try_clone().unwrap(), server.try_clone().unwrap());
        let (mut s_read, mut c_write) = (server, client);
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut c_read, &mut s_write);
            let _ = s_write.shutdown(std::net::Shutdown::Write);
        });
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut s_read, &mut c_write);
            let _ = c_write.shutdown(std::net::Shutdown::Both);
        });
    }
}

// ---- an MCP client --------------------------------------------------------------

/// One MCP conversation over one connection (so one server): initialize,
/// call `tool`, close. `Err` is a transport failure: the server died, or
/// the front had none up.
fn call(front: &str, key: &str, tool: &str, arguments: Value) -> Result<Value, String> {
    call_closing(front, key, tool, arguments, true)
}

/// [`call`], leaving the MCP session open (no `DELETE`) unless `close`.
fn call_closing(front: &str, key: &str, tool: &str, arguments: Value, close: bool) -> Result<Value, String> {
    let http = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(1)
        .build()
        .map_err(|e| e.to_string())?;
    let url = format!("http://{front}/mcp");
    let post = |session: Option<&str>, body: Value| -> Result<(Option<String>, String), String> {
        let mut request = http
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("codemode-session", key)
            .body(body.to_string());
        if let Some(s) = session {
            request = request.header("mcp-session-id", s);
        }
        let response = request.send().map_err(|e| e.to_string())?;
        if !response.status().is_success() && response.status().as_u16() != 202 {
            return Err(format!("HTTP {}", response.status()));
        }
        let id = response.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
        Ok((id, response.text().map_err(|e| e.to_string())?))
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "chaos", "version": "1"}}});
    let (session, _) = post(None, init)?;
    let session = session.ok_or("no MCP session id")?;
    post(Some(&session), json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    let (_, body) = post(
        Some(&session),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}),
    )?;
    if close {
        let _ = http.delete(&url).header("mcp-session-id", &session).header("codemode-session", key).send();
    }
    // The answer is JSON, or an event stream whose `data:` line holds it.
    let message = body
        .lines()
        .filter_map(|l| l.strip_prefix("data:").map(str::trim).or(Some(l.trim())))
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|m| m["id"] == 2)
        .ok_or_else(|| format!("no answer in {body:?}"))?;
    let text = message["result"]["content"][0]["text"].as_str().ok_or_else(|| format!("no result: {message}"))?;
    serde_json::from_str(text).map_err(|e| format!("{e}: {text}"))
}

// ---- the workload -----------------------------------------------------------------

/// What the checks need from the clients.
#[derive(Default)]
struct Ledger {
    /// Unsafe tool tags a cell said ran (`ok`) or were `outcome_unknown`.
    ok_tags: Vec<String>,
    unknown_tags: Vec<(String, Instant, Instant)>,
    /// Per client key: completions of its increment cells it saw.
    increments: BTreeMap<String, u64>,
    /// Runs seen waiting that never reached an end.
    lost: Vec<String>,
    report: Report,
}

/// When each fault happened (a kill; the start and end of the database's
/// restart).
type Kills = Arc<Mutex<Vec<Instant>>>;

/// How many kinds of cell [`cell`] writes.
const CELL_KINDS: u64 = 5;

/// The cells, by kind. Each returns what it saw of its unsafe calls.
fn cell(kind: u64, tag: &str, key: &str) -> String {
    let calls = "const out = []; async function u(t, slow) { try { await (slow ? unsafe_slow : unsafe_count)({tag: t}); \
                 out.push([t, 'ok']); } catch (e) { out.push([t, e.code || String(e)]); } }";
    match kind {
        0 => format!(
            "{calls} await u('{tag}-a', false); await yield_control('one'); await u('{tag}-b', true); return {{out}};"
        ),
        1 => format!(
            "{calls} await safe_slow({{}}); await yield_control(); await safe_slow({{}}); await u('{tag}-c', false); return {{out}};"
        ),
        2 => format!(
            "await yield_control('before the increment'); const n = (await load('{key}')) ?? 0; \
             await store('{key}', n + 1); return {{out: [], increment: n + 1}};"
        ),
        3 => format!(
            "{calls} const r = [Math.random(), Date.now()]; await yield_control(); await u('{tag}-d', true); \
             await yield_control(); await yield_control(); return {{out, r}};"
        ),
        // Resumed (most often on another server), its window then outlives
        // the lease: the lease must follow it, and the run end once.
        _ => format!(
            "{calls} await yield_control('long'); await safe_long({{}}); await u('{tag}-e', false); \
             return {{out, long: true}};"
        ),
    }
}

/// Waits on `run_id` through the front until the run ends (or the
/// deadline): its final result, or `None` when it never ended.
fn wait_to_end(
    front: &str,
    key: &str,
    run_id: &str,
    deadline: Instant,
    ledger: &Mutex<Ledger>,
    close: bool,
) -> Option<Value> {
    let mut backoff = Duration::from_millis(20);
    while Instant::now() < deadline {
        let began = Instant::now();
        if let Ok(r) = call_closing(front, key, "wait", json!({"runId": run_id}), close) {
            let mut l = ledger.lock().unwrap();
            l.report.wait_ms.push(began.elapsed().as_secs_f64() * 1000.0);
            l.report.sessions_left_open += u64::from(!close);
            drop(l);
            let status = r["status"].as_str().unwrap_or_default();
            let error = r["error"].as_str().unwrap_or_default();
            let transient = status == "failed"
                && (r["code"] == "runtime_unavailable"
                    || (r["code"] == "invalid_input" && error.contains("already in flight")));
            if status == "waiting" {
                backoff = Duration::from_millis(20);
                continue;
            }
            if !transient {
                return Some(r);
            }
        }
        std::thread::sleep(backoff);
        backoff = (backoff * 2).min(Duration::from_millis(500));
    }
    None
}

fn client(id: usize, plan: &Plan, front: &str, stop: &AtomicBool, ledger: &Mutex<Ledger>, kills: &Kills) {
    let mut rng = Rng::new(0x9e37_79b9 ^ (id as u64 + 1).wrapping_mul(0x1234_5678_9abc));
    let key = format!("chaos-client-{id}");
    let counter = format!("counter-{id}");
    // A quarter of the clients never end their MCP sessions.
    let close = !id.is_multiple_of(4);
    let mut seq = 0u64;
    while !stop.load(Ordering::SeqCst) {
        seq += 1;
        let kind = rng.below(CELL_KINDS);
        let tag = format!("c{id}-{seq}");
        let began = Instant::now();
        ledger.lock().unwrap().report.runs_started += 1;
        let parked = match call_closing(front, &key, "exec", json!({"code": cell(kind, &tag, &counter)}), close) {
            Ok(r) => {
                ledger.lock().unwrap().report.sessions_left_open += u64::from(!close);
                r
            }
            Err(_) => {
                // The run may exist, parked, unseen: it expires; nothing
                // of it is counted.
                ledger.lock().unwrap().report.execs_lost_in_transit += 1;
                continue;
            }
        };
        ledger.lock().unwrap().report.exec_ms.push(began.elapsed().as_secs_f64() * 1000.0);
        let Some(run_id) = parked["runId"].as_str().map(str::to_owned) else {
            // Refused before it ran (the database restarting): nothing ran.
            continue;
        };
        ledger.lock().unwrap().report.runs_waiting_seen += 1;
        // A few runs are aborted by an operator, from another process.
        if rng.below(10) == 0 {
            let out = Command::new(&plan.binary)
                .arg("--config")
                .arg(plan.dir.join("server-0/codemode.toml"))
                .args(["runs", "abort", &run_id])
                .output();
            if out.is_ok_and(|o| o.status.success()) {
                let end = wait_to_end(front, &key, &run_id, Instant::now() + Duration::from_secs(60), ledger, close);
                let mut l = ledger.lock().unwrap();
                match end {
                    Some(r) if r["code"] == "aborted" || r["error"].as_str().is_some_and(|e| e.contains("aborted")) => {
                        l.report.aborted += 1;
                    }
                    // It completed before the abort reached it.
                    Some(r) if r["status"] == "completed" => l.report.completed += 1,
                    Some(r) => l.report.violations.push(format!("aborted run {run_id} ended as {r}")),
                    None => l.lost.push(run_id),
                }
                continue;
            }
        }
        let end = wait_to_end(front, &key, &run_id, Instant::now() + Duration::from_secs(120), ledger, close);
        let finished = Instant::now();
        let mut l = ledger.lock().unwrap();
        let Some(r) = end else {
            l.lost.push(run_id);
            continue;
        };
        let already_completed = r["error"].as_str().is_some_and(|e| e.contains("it already completed"));
        if r["status"] == "completed" || already_completed {
            l.report.completed += 1;
            if kind == 2 {
                *l.increments.entry(key.clone()).or_default() += 1;
            }
            l.report.long_windows += u64::from(r["value"]["long"] == true);
            for entry in r["value"]["out"].as_array().into_iter().flatten() {
                let (t, outcome) = (entry[0].as_str().unwrap_or_default(), entry[1].as_str().unwrap_or_default());
                match outcome {
                    "ok" => l.ok_tags.push(t.to_owned()),
                    "outcome_unknown" => {
                        l.report.outcome_unknown += 1;
                        l.unknown_tags.push((t.to_owned(), began, finished));
                    }
                    // Refused unstarted while the database was away: safe.
                    "journal_unavailable" => l.report.journal_unavailable += 1,
                    other => l.report.violations.push(format!("run {run_id}: call {t} failed with {other}")),
                }
            }
        } else if r["code"] == "replay_diverged" || r["error"].as_str().is_some_and(|e| e.contains("diverged")) {
            l.report.divergences += 1;
            l.report.violations.push(format!("run {run_id} diverged: {r}"));
        } else {
            l.report.violations.push(format!("run {run_id} ended as {r}"));
        }
        drop(l);
        let _ = kills;
    }
}

/// Makes `fault` (`scripts/postgres.sh restart` or `crash`) on the
/// database. A fault like a kill for every run it overlaps: leases run out
/// while the database is away, and another server may take a run over
/// with a call in flight.
fn database_fault(plan: &Plan, kills: &Kills, fault: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/postgres.sh");
    kills.lock().unwrap().push(Instant::now());
    let status = Command::new("bash").arg(script).arg(fault).arg(&plan.pg_dir).status().unwrap();
    assert!(status.success(), "PostgreSQL did not come back from a {fault}");
    kills.lock().unwrap().push(Instant::now());
}

/// Runs `plan`; the report says what happened and what broke.
pub(crate) fn run(plan: &Plan) -> Report {
    let _ = std::fs::remove_dir_all(&plan.dir);
    std::fs::create_dir_all(&plan.dir).unwrap();
    std::fs::write(plan.dir.join("unsafe.log"), "").unwrap();
    let mut slots: Vec<Slot> = (0..3)
        .map(|_| Slot { http: free_port(), metrics: free_port(), child: None, up: Arc::new(AtomicBool::new(false)) })
        .collect();
    for (i, slot) in slots.iter_mut().enumerate() {
        spawn(plan, i, slot, false);
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let front_addr = listener.local_addr().unwrap().to_string();
    let stop_front = Arc::new(AtomicBool::new(false));
    let backends: Vec<(u16, Arc<AtomicBool>)> = slots.iter().map(|s| (s.http, Arc::clone(&s.up))).collect();
    let front_thread = {
        let stop = Arc::clone(&stop_front);
        std::thread::spawn(move || front(listener, backends, stop))
    };
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let kills: Kills = Arc::default();
    let stop_clients = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..plan.clients)
        .map(|id| {
            let (plan, front, stop, ledger, kills) =
                (plan.clone(), front_addr.clone(), Arc::clone(&stop_clients), Arc::clone(&ledger), Arc::clone(&kills));
            std::thread::spawn(move || client(id, &plan, &front, &stop, &ledger, &kills))
        })
        .collect();

    // Faults.
    let mut rng = Rng::new(0x5eed);
    let began = Instant::now();
    let mut restarted_postgres = !plan.restart_postgres;
    let mut crashed_postgres = !plan.restart_postgres;
    let resumes = AtomicU64::new(0);
    let reissued = AtomicU64::new(0);
    let count = |metrics: &HashMap<String, f64>| {
        resumes.fetch_add(*metrics.get("codemode_runs_resumed_total").unwrap_or(&0.0) as u64, Ordering::SeqCst);
        let reissue = metrics.get("codemode_run_inflight_calls_after_crash_total{outcome=\"reissued\"}");
        reissued.fetch_add(*reissue.unwrap_or(&0.0) as u64, Ordering::SeqCst);
    };
    let (mut kills_done, mut deploys) = (0u64, 0u64);
    while began.elapsed() < plan.duration {
        let pause = plan.kill_every + Duration::from_millis(rng.below(plan.kill_every.as_millis() as u64));
        std::thread::sleep(pause.min(plan.duration.saturating_sub(began.elapsed())));
        if began.elapsed() >= plan.duration {
            break;
        }
        if !restarted_postgres && began.elapsed() >= plan.duration / 2 {
            database_fault(plan, &kills, "restart");
            restarted_postgres = true;
            continue;
        }
        if !crashed_postgres && began.elapsed() >= plan.duration * 3 / 4 {
            // A crash, not a restart: no checkpoint, recovery from the WAL.
            // Every park answered `waiting` before it must be there after.
            database_fault(plan, &kills, "crash");
            crashed_postgres = true;
            continue;
        }
        let victim = rng.below(3) as usize;
        count(&scrape(&slots[victim]));
        kill_9(&mut slots[victim]);
        kills.lock().unwrap().push(Instant::now());
        kills_done += 1;
        std::thread::sleep(Duration::from_millis(100 + rng.below(400)));
        let deploy = rng.below(3) == 0;
        deploys += u64::from(deploy);
        spawn(plan, victim, &mut slots[victim], deploy);
    }
    stop_clients.store(true, Ordering::SeqCst);
    for c in clients {
        let _ = c.join();
    }
    for slot in &slots {
        count(&scrape(slot));
    }

    // Checks, from the tools' log and the database.
    let mut l = ledger.lock().unwrap();
    let log = std::fs::read_to_string(plan.dir.join("unsafe.log")).unwrap();
    let mut ran: HashMap<String, usize> = HashMap::new();
    for line in log.lines().filter(|l| !l.is_empty()) {
        let tag = serde_json::from_str::<Value>(line).ok().and_then(|v| v["tag"].as_str().map(str::to_owned));
        match tag {
            Some(tag) => *ran.entry(tag).or_default() += 1,
            None => l.report.violations.push(format!("an unsafe tool logged {line:?}")),
        }
    }
    l.report.unsafe_calls = ran.values().map(|n| *n as u64).sum();
    for (tag, n) in &ran {
        if *n > 1 {
            l.report.violations.push(format!("the unsafe call {tag} ran {n} times"));
        }
    }
    let ok_tags = std::mem::take(&mut l.ok_tags);
    for tag in ok_tags {
        if ran.get(&tag).copied().unwrap_or(0) != 1 {
            l.report.violations.push(format!("call {tag} reported ok but ran {} times", ran.get(&tag).unwrap_or(&0)));
        }
    }
    let kill_times = kills.lock().unwrap().clone();
    let unknown = std::mem::take(&mut l.unknown_tags);
    for (tag, from, to) in unknown {
        if !kill_times.iter().any(|k| *k >= from && *k <= to) {
            l.report.violations.push(format!("call {tag} was outcome_unknown in a run no fault touched"));
        }
    }
    let increments = std::mem::take(&mut l.increments);
    for (key, seen) in increments {
        let counter = format!("counter-{}", key.trim_start_matches("chaos-client-"));
        let read = (0..20).find_map(|_| {
            let r = call(&front_addr, &key, "exec", json!({"code": format!("return await load('{counter}')")})).ok()?;
            (r["status"] == "completed").then(|| r["value"].as_u64().unwrap_or(0))
        });
        match read {
            Some(stored) if stored == seen => {}
            Some(stored) => l.report.violations.push(format!(
                "{key}'s counter is {stored} after {seen} completed increments: a commit was lost or doubled"
            )),
            None => l.report.violations.push(format!("{key}'s counter could not be read")),
        }
    }
    // Sessions the clients left open are closed by the servers once idle
    // (`session_idle_ttl_ms` 2 s, looked at every half second).
    drop(l);
    std::thread::sleep(Duration::from_millis(3500));
    let mut l = ledger.lock().unwrap();
    for (i, slot) in slots.iter().enumerate() {
        let open = scrape(slot).get("codemode_mcp_sessions{state=\"open\"}").copied();
        match open {
            Some(0.0) => {}
            Some(n) => l.report.violations.push(format!("server {i} still holds {n} idle MCP sessions")),
            None => l.report.violations.push(format!("server {i}'s open-sessions gauge could not be read")),
        }
    }
    // No record is left that can neither resume nor end: a live one with no
    // journal whose owner is gone is ended by housekeeping within a minute.
    let stranded = Command::new("psql")
        .arg(&plan.url)
        .args([
            "-tAc",
            "SELECT count(*) FROM codemode_runs WHERE status IN ('running', 'parked') \
             AND octet_length(journal) + journal_chunk_bytes = 0 \
             AND lease_until_ms < extract(epoch FROM now()) * 1000 - 90000",
        ])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().parse::<u64>().unwrap_or(u64::MAX));
    match stranded {
        Ok(0) => {}
        Ok(n) => l.report.violations.push(format!("{n} runs are live with no journal and no owner for 90 s")),
        Err(e) => l.report.violations.push(format!("the runs table could not be read: {e}")),
    }
    let lost = std::mem::take(&mut l.lost);
    for run_id in lost {
        l.report.violations.push(format!("run {run_id} was seen waiting and never ended"));
    }
    let diverged = Command::new("psql")
        .arg(&plan.url)
        .args(["-tAc", "SELECT count(*) FROM codemode_runs WHERE status = 'replay_diverged'"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().parse::<u64>().unwrap_or(u64::MAX));
    match diverged {
        Ok(0) => {}
        Ok(n) => l.report.violations.push(format!("{n} runs ended replay_diverged in the database")),
        Err(e) => l.report.violations.push(format!("the runs table could not be read: {e}")),
    }
    l.report.kills = kills_done;
    l.report.deploys = deploys;
    l.report.postgres_restarts = u64::from(plan.restart_postgres);
    l.report.postgres_crashes = u64::from(crashed_postgres && plan.restart_postgres);
    l.report.resumes = resumes.load(Ordering::SeqCst);
    l.report.reissued = reissued.load(Ordering::SeqCst);
    stop_front.store(true, Ordering::SeqCst);
    let _ = front_thread.join();
    for slot in &mut slots {
        kill_9(slot);
    }
    std::mem::take(&mut l.report)
}
