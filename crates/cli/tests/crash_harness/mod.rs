//! Crash-point testing: every durability point of a corpus of durable
//! cells, not a sample of them.
//!
//! Each program runs once without faults through `codemode session` (a real
//! process on a real store), which records every durability point it
//! reaches (`CODEMODE_CRASH_TRACE`: each journal write, each tool call
//! starting and settling, each approval asked and decided, each commit and
//! end). Then, for every point k, the program runs again from scratch with
//! the process aborted at k (`CODEMODE_CRASH_AT`, as a `kill -9` there),
//! and a fresh process resumes it as a client would: waiting on the run it
//! knew of, deciding approvals the same way, or — when the crash came
//! before the client learnt of the run — executing it again. Afterwards
//! the guarantees are checked from the tools' own logs and the store, not
//! from what codemode says of itself:
//!
//! - the final value is the uncrashed run's, except that a call that is not
//!   replay-safe and was in flight at the cut may be `outcome_unknown`;
//! - each effect ran exactly once when its call answered, at most once when
//!   it answered `outcome_unknown`, never when it was denied (each call
//!   carries the attempt and its site; the tool appends them to its log);
//! - each asked call was put to the client once (one approval id);
//! - a completed run committed its store write exactly once;
//! - the run the client knew reached an end, and the store says so.
//!
//! Used by `tests/crash_points.rs` (a bounded corpus in CI, on sled and on
//! PostgreSQL) and `benches/crash_points.rs` (the whole corpus plus random
//! programs from a grammar of the same operations).

#![allow(dead_code, reason = "the test and the bench use different parts")]

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Where runs are kept.
#[derive(Clone, Debug)]
pub(crate) enum Backend {
    /// A fresh sled store per try.
    Sled,
    /// One PostgreSQL database; each try uses a session of its own.
    Postgres { url: String },
}

impl Backend {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Sled => "sled",
            Self::Postgres { .. } => "postgres",
        }
    }
}

/// One program of the corpus: a cell, written against `ATTEMPT` (a string
/// the driver defines, unique per exec) so that every call it makes is
/// told apart in the tools' logs, and how its approvals are decided
/// (`ask_charge` is asked about; a call whose tag contains `deny` is
/// denied, any other approved).
#[derive(Clone, Debug)]
pub(crate) struct Program {
    pub(crate) name: String,
    pub(crate) code: String,
    /// The client waits this long before each `wait`: long enough for the
    /// parked run to be evicted from memory to its journal.
    pub(crate) pause: Option<Duration>,
}

impl Program {
    pub(crate) fn new(name: &str, code: &str) -> Self {
        Self { name: name.to_owned(), code: code.to_owned(), pause: None }
    }

    /// The same, with the client pausing past the eviction delay before
    /// each `wait`.
    pub(crate) fn evicted(mut self) -> Self {
        self.pause = Some(EVICT_AFTER + Duration::from_millis(300));
        self
    }
}

/// `[runs] evict_after_ms` of every try: parked runs leave memory after it.
const EVICT_AFTER: Duration = Duration::from_millis(1000);

/// The corpus: unsafe and replay-safe calls around parks, `Promise.all`
/// around a park, approvals approved and denied, timers pending at a park,
/// clock and random reads, store writes, chains of yields, TypeScript.
pub(crate) fn corpus() -> Vec<Program> {
    vec![
        Program::new(
            "unsafe_calls_around_a_park",
            "const r = []; r.push(await call(charge, 'a')); await yield_control('p'); r.push(await call(charge, 'b')); \
             return r",
        ),
        Program::new(
            "replay_safe_and_unsafe",
            "const r = [await call(lookup, 'a')]; await yield_control('p'); r.push(await call(charge, 'b'), \
             await call(lookup, 'c')); return r",
        ),
        Program::new(
            "promise_all_around_a_park",
            "await yield_control('p'); const both = await Promise.all([call(charge, 'a'), call(charge, 'b')]); \
             await yield_control('q'); return both",
        ),
        Program::new(
            "approval_approved",
            "await yield_control('p'); const r = await call(ask_charge, 'a'); await yield_control('q'); return [r]",
        ),
        Program::new(
            "approval_denied",
            "await yield_control('p'); const r = await call(ask_charge, 'deny-a'); const s = await call(charge, 'b'); \
             return [r, s]",
        ),
        Program::new(
            "timers_pending_at_a_park",
            "const t = new Promise(r => setTimeout(() => r('timer'), 30)); await yield_control('p'); \
             const c = await call(charge, 'a'); return [await t, c]",
        ),
        Program::new(
            "clock_and_random",
            "const t = Date.now(), p = performance.now(), x = Math.random(); await yield_control('p'); \
             const c = await call(charge, 'a'); const same = [Date.now() >= t, performance.now() >= p, \
             typeof x === 'number', Math.random() !== x]; return [c, same]",
        ),
        Program::new(
            "store_write_commits_once",
            "const n = ((await load('count')) ?? 0) + 1; await store('count', n); await yield_control('p'); \
             const c = await call(charge, 'a'); return [c, n > 0]",
        ),
        Program::new(
            "chain_of_yields",
            "const r = []; for (let i = 0; i < 4; i++) { await yield_control('y' + i); r.push(await call(charge, \
             'c' + i)); } return r",
        ),
        Program::new(
            "evicted_between_windows",
            "const r = [await call(charge, 'a')]; await yield_control('p'); r.push(await call(charge, 'b')); \
             await yield_control('q'); return r",
        )
        .evicted(),
        Program::new(
            "typescript",
            "interface Out { site: string } const sites: string[] = ['a', 'b']; const r: string[] = []; \
             await yield_control('p'); for (const s of sites) r.push(await call(charge, s) as string); return r",
        ),
    ]
}

/// The prelude every program runs after: `call(tool, site)` makes the
/// call with its tag and answers `site:ok`, or `site:` and the error's
/// code.
fn wrapped(program: &Program, attempt: &str) -> String {
    format!(
        "const ATTEMPT = {attempt:?}; async function call(tool, site) {{ try {{ await tool({{tag: ATTEMPT + '/' + \
         site}}); return site + ':ok' }} catch (e) {{ return site + ':' + (e.code || 'error') }} }}\n{}",
        program.code
    )
}

/// What one try of a program did.
#[derive(Debug, Default)]
pub(crate) struct ProgramReport {
    pub(crate) program: String,
    pub(crate) backend: &'static str,
    /// Durability points the uncrashed run reached.
    pub(crate) points: usize,
    /// Distinct points by name, as the uncrashed run reached them.
    pub(crate) point_names: BTreeSet<String>,
    /// Crashes made (one per point).
    pub(crate) crashes: usize,
    /// Of them, tries resumed from the run the client knew, and tries the
    /// client had to exec again (the crash came before it learnt the run).
    pub(crate) resumed: usize,
    pub(crate) re_executed: usize,
    pub(crate) outcome_unknown: usize,
    pub(crate) violations: Vec<String>,
}

/// The rig: the binary, a directory of tools and configurations.
pub(crate) struct Rig {
    pub(crate) binary: PathBuf,
    pub(crate) dir: PathBuf,
    pub(crate) backend: Backend,
    /// At each point, this shell command (a database crash-restart or a
    /// connection cut) is run by the process, which goes on, instead of
    /// the process being killed there.
    pub(crate) fault: Option<String>,
    /// Where cells' engines run (`[limits] isolation`: `thread` or
    /// `process`).
    pub(crate) isolation: &'static str,
}

impl Rig {
    pub(crate) fn new(binary: PathBuf, dir: PathBuf, backend: Backend) -> Self {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self { binary, dir, backend, fault: None, isolation: "thread" }
    }

    /// Cells' engines run `isolation` (`thread` or `process`).
    pub(crate) fn isolated(mut self, isolation: &'static str) -> Self {
        self.isolation = isolation;
        self
    }

    /// At each point, the process runs `fault` (a shell command) and goes
    /// on, instead of being killed there.
    pub(crate) fn faulting(mut self, fault: String) -> Self {
        self.fault = Some(fault);
        self
    }

    /// The configuration of try `name`: its tools log to `log`.
    fn config(&self, name: &str, log: &Path) -> PathBuf {
        // `sh` is quick to start; the tool appends its name and input to the
        // log (one `write(2)` of one short line, atomic among concurrent
        // calls) before it answers, so the log is the ground truth of what
        // ran.
        let script = self.dir.join("effect.sh");
        if !script.exists() {
            // A call whose input never arrived (codemode died while writing
            // it) fails, as a real tool would, and records nothing.
            std::fs::write(
                &script,
                "input=$(cat)\n[ -n \"$input\" ] || exit 1\necho \"$1 $input\" >> \"$2\"\necho '{\"ok\":true}'\n",
            )
            .unwrap();
        }
        let tool = |name: &str, safe: bool| {
            format!(
                "[[tools]]\nname = \"{name}\"\ndescription = \"Records its call.\"\n\
                 command = [\"sh\", \"{}\", \"{name}\", \"{}\"]\n\
                 input_schema = {{ type = \"object\", properties = {{ tag = {{ type = \"string\" }} }} }}\n\
                 replay_safe = {safe}\n",
                script.display(),
                log.display()
            )
        };
        let store = match &self.backend {
            Backend::Sled => String::new(),
            Backend::Postgres { url } => format!("[store]\nbackend = \"postgres\"\nurl = \"{url}\"\n"),
        };
        let text = format!(
            "[limits]\ntimeout_ms = 5000\nisolation = \"{}\"\n\n[runs]\nlease_ms = 1000\nevict_after_ms = {}\n\n{store}\n{}\n{}\n{}\n\
             [[policy]]\ntool = \"ask_charge\"\naction = \"ask\"\nreason = \"charges need a person\"\n",
            self.isolation,
            EVICT_AFTER.as_millis(),
            tool("charge", false),
            tool("ask_charge", false),
            tool("lookup", true)
        );
        let path = self.dir.join(format!("{name}.toml"));
        std::fs::write(&path, text).unwrap();
        path
    }

    /// `codemode session` for try `name`, with `env`; its standard error
    /// (errors logged, a panic's message) is appended to `stderr`, which
    /// every process of the try shares. `CODEMODE_CRASH_RUST_LOG` sets its
    /// log filter (`error` without it), to see a failing try's story.
    fn session(&self, config: &Path, store: &Path, session: &str, env: &[(&str, String)], stderr: &Path) -> Session {
        let stderr = std::fs::OpenOptions::new().create(true).append(true).open(stderr).unwrap();
        let mut command = Command::new(&self.binary);
        command.arg("--config").arg(config);
        if matches!(self.backend, Backend::Sled) {
            command.arg("--store").arg(store);
        }
        command
            .args(["session", "--session", session])
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .env("RUST_LOG", std::env::var("CODEMODE_CRASH_RUST_LOG").unwrap_or_else(|_| "error".to_owned()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        let mut child = command.spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session { child, stdin, stdout }
    }

    /// Runs `program` once without faults, then once per durability point
    /// with a crash there, and checks every try.
    pub(crate) fn run(&self, program: &Program) -> ProgramReport {
        let mut report =
            ProgramReport { program: program.name.clone(), backend: self.backend.name(), ..ProgramReport::default() };
        let clean = self.attempt(program, "clean", None);
        let trace = std::fs::read_to_string(&clean.trace).unwrap_or_default();
        let points: Vec<&str> = trace.lines().filter_map(|l| l.split_once(' ').map(|(_, name)| name)).collect();
        report.points = points.len();
        report.point_names = points.iter().map(|p| (*p).to_owned()).collect();
        let Some(expected) = clean.value.clone() else {
            report.violations.push(format!("{}: the uncrashed run did not complete: {:?}", program.name, clean.last));
            return report;
        };
        report.violations.extend(clean.violations.iter().map(|v| format!("{} (uncrashed): {v}", program.name)));
        if points.is_empty() {
            report.violations.push(format!("{}: no durability point was reached", program.name));
        }
        for k in 1..=points.len() {
            let outcome = self.attempt(program, &format!("k{k}"), Some(k));
            report.crashes += 1;
            report.resumed += usize::from(outcome.resumed);
            report.re_executed += usize::from(outcome.re_executed);
            let at = format!("{} crashed at point {k} ({})", program.name, points[k - 1]);
            for v in outcome.violations {
                report.violations.push(format!("{at}: {v}"));
            }
            match &outcome.value {
                None => report.violations.push(format!("{at}: never completed: {:?}", outcome.last)),
                Some(value) => {
                    let unknown = check_value(value, &expected);
                    match unknown {
                        Ok(n) => report.outcome_unknown += n,
                        Err(why) => report.violations.push(format!("{at}: {why}")),
                    }
                }
            }
        }
        report
    }

    /// One try: a fresh store (or session), the program driven to its end
    /// — across a crash at point `crash_at` when given — and its checks.
    fn attempt(&self, program: &Program, name: &str, crash_at: Option<usize>) -> Attempt {
        let tag = format!("{}-{name}", program.name);
        let log = self.dir.join(format!("{tag}.log"));
        let trace = self.dir.join(format!("{tag}.trace"));
        let store = self.dir.join(format!("{tag}.store"));
        let stderr = self.dir.join(format!("{tag}.stderr"));
        let _ = std::fs::remove_file(&stderr);
        let _ = std::fs::remove_file(&log);
        let _ = std::fs::remove_file(&trace);
        let _ = std::fs::remove_dir_all(&store);
        let config = self.config(&tag, &log);
        let session = format!("s-{tag}-{}", std::process::id());
        let mut out = Attempt { trace: trace.clone(), ..Attempt::default() };
        let mut env = vec![("CODEMODE_CRASH_TRACE", trace.display().to_string())];
        if let Some(k) = crash_at {
            env.push(("CODEMODE_CRASH_AT", k.to_string()));
            if let Some(fault) = &self.fault {
                env.push(("CODEMODE_CRASH_FAULT", fault.clone()));
            }
        }
        let mut client = Client { pause: program.pause, ..Client::default() };
        let first_attempt = format!("{tag}-1");
        let mut process = self.session(&config, &store, &session, &env, &stderr);
        let mut ended = client.drive(&mut process, &wrapped(program, &first_attempt), None);
        if ended.as_ref().is_some_and(|result| result["code"] == "engine_crashed") {
            if client.run_id.is_some() {
                // A run that had parked has a journal: its window answers
                // `waiting` and it resumes; failing it loses it.
                out.violations.push(format!("a journaled run failed with its engine: {:?}", ended));
            } else {
                // An engine worker killed before the run had a journal: the
                // cell failed, and says to run it again, as a client would.
                out.re_executed = true;
                ended = client.drive(&mut process, &wrapped(program, &format!("{tag}-2")), None);
            }
        }
        if ended.is_none() {
            // Crashed: a fresh process (no crash this time) goes on.
            process.kill();
            out.crashed = true;
            let mut next = self.session(&config, &store, &session, &[], &stderr);
            ended = match client.run_id.clone() {
                Some(run_id) => {
                    out.resumed = true;
                    client.drive(&mut next, "", Some(run_id))
                }
                None => {
                    // The client never heard of the run: it execs again.
                    out.re_executed = true;
                    client.drive(&mut next, &wrapped(program, &format!("{tag}-2")), None)
                }
            };
            if ended.is_none() {
                out.violations.push("the resuming process stopped too".into());
            }
            // The store write of a completed run is committed once.
            match check_commit(program, &mut next, &client) {
                Some(found) => out.violations.extend(found),
                None => out.violations.push("the resuming process stopped before the store was read".into()),
            }
            next.kill();
            // Every run the client knew ended, and the store says so.
            if let Some(run_id) = &client.run_id {
                out.violations.extend(self.check_ended(&config, &store, run_id));
            }
        } else {
            // The run ended before the cut (the cut came after its result):
            // the store is read by a fresh process if this one stopped.
            let found = match check_commit(program, &mut process, &client) {
                Some(found) => found,
                None => {
                    out.crashed = true;
                    let mut next = self.session(&config, &store, &session, &[], &stderr);
                    let found = check_commit(program, &mut next, &client);
                    next.kill();
                    found.unwrap_or_else(|| vec!["a fresh process stopped before the store was read".into()])
                }
            };
            out.violations.extend(found);
            process.kill();
            // Through a database fault the process lived on: the run it
            // reported ended must have ended in the store too.
            if let (Some(_), Some(run_id)) = (&self.fault, &client.run_id) {
                out.violations.extend(self.check_ended(&config, &store, run_id));
            }
        }
        out.resumed |= client.engine_lost;
        out.last = client.last.clone();
        out.value = match &ended {
            Some(result) if result["status"] == "completed" => Some(result["value"].clone()),
            _ => None,
        };
        out.violations.extend(check_effects(&log, &client, out.value.as_ref()));
        if !out.violations.is_empty() {
            // What the processes said (a panic's message, errors logged),
            // for the one who reads the failure.
            let said = std::fs::read(&stderr).unwrap_or_default();
            let tail = String::from_utf8_lossy(&said[said.len().saturating_sub(STDERR_SHOWN)..]).into_owned();
            if !tail.trim().is_empty() {
                out.violations.push(format!("the processes' standard error ended with:\n{tail}"));
            }
        }
        out
    }

    /// The run `run_id` has ended in the store.
    fn check_ended(&self, config: &Path, store: &Path, run_id: &str) -> Vec<String> {
        let mut command = Command::new(&self.binary);
        command.arg("--config").arg(config);
        if matches!(self.backend, Backend::Sled) {
            command.arg("--store").arg(store);
        }
        let out = command.args(["runs", "show", run_id, "--json"]).output().unwrap();
        if !out.status.success() {
            return vec![format!("runs show {run_id} failed: {}", String::from_utf8_lossy(&out.stderr))];
        }
        let shown: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        match shown["status"].as_str() {
            Some("running" | "parked") => vec![format!("run {run_id} did not end in the store: {shown}")],
            _ => Vec::new(),
        }
    }
}

/// How much of a failed try's standard error a violation shows.
const STDERR_SHOWN: usize = 16384;

/// What a try saw.
#[derive(Debug, Default)]
struct Attempt {
    trace: PathBuf,
    crashed: bool,
    resumed: bool,
    re_executed: bool,
    value: Option<Value>,
    last: Option<Value>,
    violations: Vec<String>,
}

/// A `codemode session` process.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    /// One request, its result; `None` when the process stopped.
    fn ask(&mut self, request: &Value) -> Option<Value> {
        writeln!(self.stdin, "{request}").ok()?;
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => serde_json::from_str(&line).ok(),
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the client knows: the run it started, the approvals it was asked,
/// the attempts it made, and the last result it saw.
#[derive(Debug, Default)]
struct Client {
    run_id: Option<String>,
    attempts: Vec<String>,
    /// Approval ids seen per call tag.
    asked: BTreeMap<String, BTreeSet<String>>,
    last: Option<Value>,
    /// Waits this long before each `wait`.
    pause: Option<Duration>,
    /// A `waiting` result said the run's engine process failed (the run
    /// then resumed from its journal in the same process).
    engine_lost: bool,
}

impl Client {
    /// Execs `code` (or goes on with `run_id`) and waits, deciding
    /// approvals, until the run ends; `None` when the process stopped.
    fn drive(&mut self, session: &mut Session, code: &str, run_id: Option<String>) -> Option<Value> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut result = match run_id {
            Some(run_id) => session.ask(&json!({"op": "wait", "runId": run_id}))?,
            None => {
                if let Some(attempt) = code.split('"').nth(1) {
                    self.attempts.push(attempt.to_owned());
                }
                self.run_id = None;
                session.ask(&json!({"op": "exec", "code": code}))?
            }
        };
        loop {
            self.last = Some(result.clone());
            if let Some(run_id) = self.run_id.clone().filter(|_| says_wait_again(&result)) {
                // Unavailable for now (its lease moved, its journal still
                // being written): it says to call wait again, as a client would.
                if Instant::now() > deadline {
                    return Some(json!({"status": "stuck", "last": result}));
                }
                std::thread::sleep(Duration::from_millis(50));
                result = session.ask(&json!({"op": "wait", "runId": run_id}))?;
                continue;
            }
            if result["status"] != "waiting" {
                return Some(result);
            }
            let run_id = result["runId"].as_str().unwrap_or_default().to_owned();
            self.run_id = Some(run_id.clone());
            let warnings = result["warnings"].as_array().into_iter().flatten();
            self.engine_lost |= warnings.filter_map(Value::as_str).any(|w| w.contains("engine process"));
            if Instant::now() > deadline {
                return Some(json!({"status": "stuck", "last": result}));
            }
            let mut request = json!({"op": "wait", "runId": run_id});
            if let Some(approvals) = result["pendingApprovals"].as_array().filter(|a| !a.is_empty()) {
                let (mut approve, mut deny) = (Vec::new(), Vec::new());
                for approval in approvals {
                    let id = approval["id"].as_str().unwrap_or_default().to_owned();
                    let arguments = approval["arguments"].as_str().unwrap_or_default();
                    let tag = serde_json::from_str::<Value>(arguments)
                        .ok()
                        .and_then(|a| a["tag"].as_str().map(str::to_owned))
                        .unwrap_or_default();
                    self.asked.entry(tag.clone()).or_default().insert(id.clone());
                    if tag.contains("deny") {
                        deny.push(json!({"id": id, "reason": "the harness denies it"}));
                    } else {
                        approve.push(json!(id));
                    }
                }
                request["approve"] = json!(approve);
                request["deny"] = json!(deny);
            }
            if let Some(pause) = self.pause {
                std::thread::sleep(pause);
            }
            result = session.ask(&request)?;
        }
    }
}

/// A result that says the run is unavailable for now and to call `wait`
/// again.
fn says_wait_again(result: &Value) -> bool {
    result["status"] == "failed"
        && result["code"] == "runtime_unavailable"
        && result["error"].as_str().is_some_and(|e| e.to_lowercase().contains("call wait again"))
}

/// `value` is `expected`, except that a call's entry may be
/// `outcome_unknown` (a call that is not replay-safe, cut in flight).
/// Returns how many were.
fn check_value(value: &Value, expected: &Value) -> Result<usize, String> {
    match (value, expected) {
        (Value::String(got), Value::String(want)) if got == want => Ok(0),
        // A call that is not replay-safe and was in flight at the cut —
        // running, or waiting for a decision not yet journaled.
        (Value::String(got), Value::String(want))
            if want.split_once(':').is_some_and(|(site, _)| got == &format!("{site}:outcome_unknown")) =>
        {
            Ok(1)
        }
        (Value::Array(got), Value::Array(want)) if got.len() == want.len() => {
            got.iter().zip(want).map(|(g, w)| check_value(g, w)).sum()
        }
        (got, want) if got == want => Ok(0),
        (got, want) => Err(format!("the value {got} is not the uncrashed run's {want}")),
    }
}

/// The effects the tools' log records, against what the client saw: an
/// effect of a tool that is not replay-safe never ran twice; each call of
/// the last attempt ran exactly once when it answered `ok`, at most once
/// when `outcome_unknown`, never when denied; each asked call was put to
/// the client once.
fn check_effects(log: &Path, client: &Client, value: Option<&Value>) -> Vec<String> {
    let mut ran: BTreeMap<(String, String), usize> = BTreeMap::new();
    for line in std::fs::read_to_string(log).unwrap_or_default().lines().filter(|l| !l.trim().is_empty()) {
        let parsed = line.split_once(' ').and_then(|(tool, input)| {
            let tag = serde_json::from_str::<Value>(input).ok()?["tag"].as_str()?.to_owned();
            Some((tool.to_owned(), tag))
        });
        match parsed {
            Some(call) => *ran.entry(call).or_default() += 1,
            None => return vec![format!("the tool log has a line that is no call: {line:?}")],
        }
    }
    let mut violations = Vec::new();
    for ((tool, tag), n) in &ran {
        // `lookup` is replay-safe: running again is what it allows.
        if *n > 1 && tool != "lookup" {
            violations.push(format!("{tool} {tag} ran {n} times"));
        }
    }
    let times = |tag: &str| ran.iter().filter(|((_, t), _)| t == tag).map(|(_, n)| *n).sum::<usize>();
    if let (Some(attempt), Some(value)) = (client.attempts.last(), value) {
        for answer in std::iter::once(value).flatten_strings() {
            let Some((site, outcome)) = answer.split_once(':') else { continue };
            let tag = format!("{attempt}/{site}");
            let n = times(&tag);
            let fine = match outcome {
                "ok" => n >= 1,
                "outcome_unknown" => n <= 1,
                "denied" => n == 0,
                _ => true,
            };
            if !fine {
                violations.push(format!("{tag} answered {outcome} but ran {n} times"));
            }
        }
    }
    for (tag, ids) in &client.asked {
        if ids.len() > 1 {
            violations.push(format!("the call {tag} was asked {} times: {ids:?}", ids.len()));
        }
    }
    violations
}

/// Flattens nested string results.
trait FlattenStrings {
    fn flatten_strings(self) -> Vec<String>;
}

impl<'a, I: Iterator<Item = &'a Value>> FlattenStrings for I {
    fn flatten_strings(self) -> Vec<String> {
        let mut out = Vec::new();
        for v in self {
            match v {
                Value::String(s) => out.push(s.clone()),
                Value::Array(a) => out.extend(a.iter().flatten_strings()),
                _ => {}
            }
        }
        out
    }
}

/// A program that writes `count` once per completed run: the store holds
/// exactly the number of completed attempts.
fn check_commit(program: &Program, session: &mut Session, client: &Client) -> Option<Vec<String>> {
    if !program.code.contains("store('count'") {
        return Some(Vec::new());
    }
    let completed = usize::from(client.last.as_ref().is_some_and(|r| r["status"] == "completed"));
    let read = json!({"op": "exec", "code": "return (await load('count')) ?? 0"});
    let mut r = session.ask(&read)?;
    // A read whose engine worker was killed with the others at the point,
    // or that met the store's cut connections, says to run it again, as
    // a client would.
    for _ in 0..5 {
        if r["code"] != "engine_crashed" && r["code"] != "runtime_unavailable" {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        r = session.ask(&read)?;
    }
    if r["status"] != "completed" {
        return Some(vec![format!("the store could not be read: {r}")]);
    }
    if r["value"] == json!(completed) {
        return Some(Vec::new());
    }
    Some(vec![format!("the store write was committed {} times for {completed} completed run(s)", r["value"])])
}

/// A random program from a grammar of the corpus's operations (unsafe and
/// replay-safe calls, asked calls approved and denied, `Promise.all`,
/// yields, timers, clock reads, store writes), `ops` of them, from `seed`.
pub(crate) fn random_program(seed: u64, ops: usize) -> Program {
    // SplitMix64: a seed gives the same program on every machine.
    let mut state = seed;
    let mut next = move |n: u64| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    };
    let mut code = String::from("const r = []; ");
    for i in 0..ops {
        let op = match next(9) {
            0 | 1 => format!("r.push(await call(charge, 's{i}')); "),
            2 => format!("r.push(await call(lookup, 's{i}')); "),
            3 => format!("r.push(await call(ask_charge, 's{i}')); "),
            4 => format!("r.push(await call(ask_charge, 'deny-s{i}')); "),
            5 => format!("r.push(...(await Promise.all([call(charge, 's{i}a'), call(charge, 's{i}b')]))); "),
            6 => format!("await yield_control('y{i}'); "),
            7 => "await new Promise(res => setTimeout(res, 5)); r.push(typeof Date.now()); ".to_owned(),
            _ => format!("await store('k{i}', {i}); r.push((await load('k{i}')).value); "),
        };
        code.push_str(&op);
    }
    code.push_str("return r");
    Program::new(&format!("random_{seed}"), &code)
}
