//! Shared by the CLI's process tests: a real `codemode serve` over
//! streamable HTTP with its probe listener, a plain HTTP client, and an
//! OTLP/HTTP receiver.
#![allow(dead_code, reason = "each test binary uses a different part")]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Generous bound for anything a test waits on.
pub(crate) const PATIENCE: Duration = Duration::from_secs(60);

/// A fresh temporary directory for test `name` of this process.
pub(crate) fn temp(prefix: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `codemode session` on `store`: send a request line, get its result.
pub(crate) struct Session {
    child: Child,
    pub(crate) stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Session {
    pub(crate) fn start(config: &std::path::Path, store: &std::path::Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
            .arg("--config")
            .arg(config)
            .arg("--store")
            .arg(store)
            .arg("session")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self { child, stdin, stdout }
    }

    pub(crate) fn ask(&mut self, request: &serde_json::Value) -> serde_json::Value {
        writeln!(self.stdin, "{request}").unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    }

    pub(crate) fn exec(&mut self, code: &str) -> serde_json::Value {
        self.ask(&serde_json::json!({"op": "exec", "code": code}))
    }

    pub(crate) fn wait(&mut self, run_id: &str) -> serde_json::Value {
        self.ask(&serde_json::json!({"op": "wait", "runId": run_id}))
    }

    /// `kill -9`: no clean shutdown, nothing flushed on the way out.
    pub(crate) fn kill_9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

/// A running `codemode serve --http 127.0.0.1:0 --metrics 127.0.0.1:0`,
/// its stderr lines arriving on a channel. Killed when dropped.
pub(crate) struct Server {
    pub(crate) child: Child,
    lines: mpsc::Receiver<String>,
    pub(crate) log: Vec<String>,
    /// The MCP endpoint URL.
    pub(crate) mcp: String,
    /// The probe listener's `host:port` (`/metrics`, `/health`, `/ready`).
    pub(crate) probes: String,
    /// The server's directory (config and store).
    pub(crate) dir: std::path::PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts a server in a fresh directory with `config` as its
    /// codemode.toml and `extra` arguments after `serve …`.
    pub(crate) fn start(prefix: &str, name: &str, config: &str, extra: &[&str]) -> Self {
        Self::start_with_env(prefix, name, config, extra, &[])
    }

    /// As [`start`](Self::start), with these environment variables set.
    pub(crate) fn start_with_env(prefix: &str, name: &str, config: &str, extra: &[&str], env: &[(&str, &str)]) -> Self {
        let dir = temp(prefix, name);
        std::fs::write(dir.join("codemode.toml"), config).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_codemode"));
        command.arg("--config").arg(dir.join("codemode.toml"));
        // A sled store of its own, unless the configuration names a
        // PostgreSQL backend (which `--store` cannot be combined with).
        if !config.contains("backend = \"postgres\"") {
            command.arg("--store").arg(dir.join("store"));
        }
        let mut child = command
            .args(["serve", "--http", "127.0.0.1:0", "--metrics", "127.0.0.1:0"])
            .args(extra)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        let mut server = Self { child, lines, log: Vec::new(), mcp: String::new(), probes: String::new(), dir };
        let probes = server.wait_for("serving /metrics, /health and /ready at http://");
        server.probes = probes.rsplit("http://").next().unwrap().trim().to_owned();
        let mcp = server.wait_for("serving MCP over HTTP at ");
        server.mcp = mcp.split_whitespace().find(|w| w.starts_with("http://")).unwrap().to_owned();
        server
    }

    /// The first stderr line containing `needle`, waiting up to PATIENCE.
    pub(crate) fn wait_for(&mut self, needle: &str) -> String {
        if let Some(line) = self.log.iter().find(|l| l.contains(needle)) {
            return line.clone();
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(_) => panic!("no stderr line with {needle:?}; got:\n{}", self.log.join("\n")),
            }
        }
    }

    /// Everything the server wrote to stderr until it exited.
    pub(crate) fn rest_of_log(&mut self) -> String {
        while let Ok(line) = self.lines.recv_timeout(PATIENCE) {
            self.log.push(line);
        }
        self.log.join("\n")
    }
}

/// One HTTP/1.1 request on a fresh connection: status line, head (lower
/// case), body. The server must not chunk the body (codemode's probe
/// listener sends a length).
pub(crate) fn http(addr: &str, method: &str, target: &str) -> (String, String, String) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    write!(stream, "{method} {target} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head.lines().next().unwrap_or_default().to_owned();
    (status, head.to_ascii_lowercase(), body.to_owned())
}

/// Writes the counting command tool into `dir` and returns the
/// `[[tools]]` entries using it: `count` appends a line to `dir/calls` and
/// answers `{n}`, the number of lines; `slow` counts into `dir/slow_calls`,
/// then sleeps `slow_secs` (not replay-safe); `slow_safe` is its
/// replay-safe twin. The files let a test see how often each ran.
pub(crate) fn counting_tools(dir: &std::path::Path, slow_secs: u32) -> String {
    let script = dir.join("count.py");
    std::fs::write(
        &script,
        "import sys, json, time\n\
         sys.stdin.read()\n\
         path = sys.argv[1]\n\
         with open(path, 'a') as f:\n    f.write('x\\n')\n\
         n = sum(1 for _ in open(path))\n\
         if len(sys.argv) > 2: time.sleep(float(sys.argv[2]))\n\
         print(json.dumps({'n': n}))\n",
    )
    .unwrap();
    let (count, calls, slow) = (script.display(), dir.join("calls"), dir.join("slow_calls"));
    let (calls, slow) = (calls.display(), slow.display());
    format!(
        r#"
[[tools]]
name = "count"
description = "Counts its calls."
command = ["python3", "{count}", "{calls}"]

[[tools]]
name = "slow"
description = "Counts its calls, slowly; not replay-safe."
command = ["python3", "{count}", "{slow}", "{slow_secs}"]

[[tools]]
name = "slow_safe"
description = "Counts its calls, slowly; replay-safe."
command = ["python3", "{count}", "{slow}", "{slow_secs}"]
replay_safe = true
"#
    )
}

/// The largest request body the OTLP receiver keeps; a longer one is cut
/// there (and then is not JSON).
const MAX_OTLP_BODY: usize = 16 << 20;

/// A minimal OTLP/HTTP receiver on loopback: keeps each POSTed JSON body by
/// path and answers 200 `{}`.
pub(crate) struct OtlpReceiver {
    /// The port it listens on: `otlp_endpoint = "http://127.0.0.1:<port>"`.
    pub(crate) port: u16,
    received: Arc<Mutex<Vec<(String, serde_json::Value)>>>,
}

impl OtlpReceiver {
    /// Listens on a free loopback port, on a thread of its own.
    pub(crate) fn start() -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let store = Arc::clone(&received);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                if let Some((path, body)) = read_post(&mut stream)
                    && let Ok(body) = serde_json::from_slice(&body)
                {
                    store.lock().unwrap().push((path, body));
                }
                let _ = stream.write_all(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}",
                );
            }
        });
        Self { port, received }
    }

    /// The JSON bodies POSTed to `path` (`/v1/traces`) so far, in order.
    pub(crate) fn bodies(&self, path: &str) -> Vec<serde_json::Value> {
        self.received.lock().unwrap().iter().filter(|(p, _)| p == path).map(|(_, body)| body.clone()).collect()
    }

    /// Every span exported so far, in order.
    pub(crate) fn spans(&self) -> Vec<serde_json::Value> {
        spans_of(&self.bodies("/v1/traces"))
    }
}

/// The spans of OTLP/JSON trace exports, in order.
pub(crate) fn spans_of(exports: &[serde_json::Value]) -> Vec<serde_json::Value> {
    let list = |v: &serde_json::Value, key: &str| v[key].as_array().cloned().unwrap_or_default();
    exports
        .iter()
        .flat_map(|body| list(body, "resourceSpans"))
        .flat_map(|rs| list(&rs, "scopeSpans"))
        .flat_map(|ss| list(&ss, "spans"))
        .collect()
}

/// One request's path and body: the head, then exactly `content-length`
/// bytes of body (at most [`MAX_OTLP_BODY`]). `None`: the client sent no
/// complete head.
fn read_post(stream: &mut std::net::TcpStream) -> Option<(String, Vec<u8>)> {
    let mut data = Vec::new();
    let mut buf = [0u8; 65536];
    let (start, length) = loop {
        let n = stream.read(&mut buf).unwrap_or(0);
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
        if let Some(at) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&data[..at]).to_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap_or(0)))
                .unwrap_or(0);
            break (at + 4, length.min(MAX_OTLP_BODY));
        }
    };
    while data.len() < start + length {
        let n = stream.read(&mut buf).unwrap_or(0);
        if n == 0 {
            break;
        }
        data.extend_from_slice(&buf[..n]);
    }
    let path = String::from_utf8_lossy(&data).split_whitespace().nth(1).unwrap_or("").to_owned();
    let end = (start + length).min(data.len());
    Some((path, data[start..end].to_vec()))
}
