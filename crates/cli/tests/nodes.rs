//! Paired nodes (GA-10) with real processes on loopback: a gateway
//! (`codemode session` with `[nodes] listen`) and node hosts
//! (`codemode node`) connected over WebSocket.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TOKEN: &str = "test-token-0123456789";
/// Generous: only a broken build waits this long.
const PATIENCE: Duration = Duration::from_secs(30);

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("codemode-nodes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Collects a child's stderr lines on a thread.
fn lines(stderr: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// Waits for a line containing `needle`; returns it.
fn expect_line(rx: &Receiver<String>, needle: &str, seen: &mut Vec<String>) -> String {
    let deadline = Instant::now() + PATIENCE;
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok(line) => {
                seen.push(line.clone());
                if line.contains(needle) {
                    return line;
                }
            }
            Err(_) => break,
        }
    }
    panic!("no line with {needle:?}; saw {seen:#?}");
}

struct Gateway {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    stderr: Receiver<String>,
    seen: Vec<String>,
    url: String,
}

impl Gateway {
    /// Starts a gateway on `port` with `store` and extra `[nodes]` lines.
    fn start(home: &Path, port: u16, nodes: &str) -> Self {
        let config = home.join("codemode.toml");
        std::fs::write(
            &config,
            format!(
                "[store]\npath = \"{}\"\n[nodes]\nlisten = \"127.0.0.1:{port}\"\ntokens = [\"{TOKEN}\"]\n{nodes}\n",
                home.join("store").display()
            ),
        )
        .unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
            .arg("--config")
            .arg(&config)
            .arg("session")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let stderr = lines(child.stderr.take().unwrap());
        let mut gateway =
            Self { child, stdin, stdout, stderr, seen: Vec::new(), url: format!("ws://127.0.0.1:{port}") };
        expect_line(&gateway.stderr, "node gateway listening on", &mut gateway.seen);
        gateway
    }

    /// The latest pairing code the gateway printed.
    fn code(&mut self) -> String {
        let printed = self.seen.iter().rev().find(|l| l.contains("node pairing code")).cloned();
        let line = printed.unwrap_or_else(|| expect_line(&self.stderr, "node pairing code", &mut self.seen));
        line.split_whitespace().nth(4).unwrap().to_owned()
    }

    fn send(&mut self, code: &str) {
        writeln!(self.stdin, "{}", json!({"op": "exec", "code": code})).unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    }

    /// Runs a cell and returns its value; panics unless it completed.
    fn exec(&mut self, code: &str) -> Value {
        self.send(code);
        let result = self.receive();
        assert_eq!(result["status"], "completed", "{result}");
        result["value"].clone()
    }

    /// Polls `nodes.list()` until `id` is listed with `connected`.
    fn until_connected(&mut self, id: &str, connected: bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let list = self.exec("return await nodes.list()");
            if list.as_array().unwrap().iter().any(|n| n["id"] == id && n["connected"] == connected) {
                return list;
            }
            assert!(Instant::now() < deadline, "node {id} never became connected={connected}: {list}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Node {
    child: Child,
    stderr: Receiver<String>,
    seen: Vec<String>,
}

impl Node {
    fn start(url: &str, args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
            .args(["node", "--gateway", url])
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = lines(child.stderr.take().unwrap());
        Self { child, stderr, seen: Vec::new() }
    }

    fn expect(&mut self, needle: &str) -> String {
        expect_line(&self.stderr, needle, &mut self.seen)
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

#[test]
fn a_node_pairs_with_the_printed_code_and_unpaired_nodes_are_refused_and_invisible_ga_10_1() {
    let home = dir("pair");
    let root = home.join("root");
    std::fs::create_dir_all(root.join("docs")).unwrap();
    let mut gw = Gateway::start(&home, free_port(), "");
    let code = gw.code();
    let mut laptop =
        Node::start(&gw.url, &["--id", "lap-1", "--name", "Laptop", "--code", &code, "--root", root.to_str().unwrap()]);
    laptop.expect("paired with");
    let list = gw.until_connected("lap-1", true);
    assert_eq!(
        list,
        json!([{"id": "lap-1", "name": "Laptop", "platform": std::env::consts::OS, "connected": true,
                "commands": ["device.status", "fs.listDir"]}])
    );
    let status = gw.exec("return await (await nodes.get('lap-1')).invoke('device.status')");
    assert_eq!(status["platform"], std::env::consts::OS, "{status}");
    assert!(status["uptimeSeconds"].is_number(), "{status}");

    // The code was one-time; no credentials at all is refused as well.
    let mut reused = Node::start(&gw.url, &["--id", "intruder", "--name", "Other", "--code", &code]);
    reused.expect("the pairing code is not valid");
    assert!(!reused.child.wait().unwrap().success(), "a refused node host exits with an error");
    let mut bare = Node::start(&gw.url, &["--id", "bare", "--name", "Bare"]);
    bare.expect("is not paired: start it with --code");
    let list = gw.exec("return (await nodes.list()).map((n) => n.id)");
    assert_eq!(list, json!(["lap-1"]), "refused nodes are invisible to cells");
    let err = gw.exec("try { await nodes.get('intruder'); } catch (e) { return e.message; }");
    assert_eq!(err, "node \"intruder\" is not paired (paired node ids: lap-1)");
}

#[test]
fn get_resolves_an_id_before_a_name_and_handles_offer_list_dir_only_when_advertised_ga_10_2_ga_10_4() {
    let home = dir("resolve");
    let root = home.join("root");
    std::fs::create_dir_all(root.join("photos/2026")).unwrap();
    std::fs::create_dir_all(root.join("music")).unwrap();
    std::fs::write(root.join("notes.txt"), "not listed").unwrap();
    let mut gw = Gateway::start(&home, free_port(), "");
    let mut desk =
        Node::start(&gw.url, &["--id", "desk", "--name", "Laptop", "--token", TOKEN, "--root", root.to_str().unwrap()]);
    desk.expect("paired with");
    // This node's display name is the other node's id.
    let mut phone = Node::start(&gw.url, &["--id", "n2", "--name", "desk", "--token", TOKEN]);
    phone.expect("paired with");
    gw.until_connected("n2", true);
    let value = gw.exec(
        r#"
        const byId = await nodes.get("desk");
        const byName = await nodes.get("Laptop");
        const phone = await nodes.get("n2");
        const errors = [];
        for (const bad of [undefined, "", "  ", 7]) {
          try { await nodes.get(bad); } catch (e) { errors.push(e.name + ": " + e.message); }
        }
        try { await nodes.get("nope"); } catch (e) { errors.push(e.message); }
        try { await byId.invoke("system.run", {command: "id"}); } catch (e) { errors.push(e.message); }
        try { await byId.invoke(""); } catch (e) { errors.push(e.name + ": " + e.message); }
        try { await phone.invoke("fs.listDir", {path: "."}); } catch (e) { errors.push(e.message); }
        return {
          byId: byId.id, byName: byName.id, keys: Object.keys(byId), phoneKeys: Object.keys(phone),
          frozen: Object.isFrozen(byId), proto: Object.getPrototypeOf(byId), exec: "exec" in byId,
          root: await byId.listDir("."), photos: await byId.listDir("photos"), errors,
        };
    "#,
    );
    assert_eq!(value["byId"], "desk", "an exact id wins over a display name");
    assert_eq!(value["byName"], "desk");
    assert_eq!(value["keys"], json!(["id", "name", "invoke", "listDir"]));
    assert_eq!(value["phoneKeys"], json!(["id", "name", "invoke"]), "no listDir without fs.listDir");
    assert_eq!(value["frozen"], true);
    assert_eq!(value["proto"], Value::Null);
    assert_eq!(value["exec"], false, "a handle never has exec");
    assert_eq!(
        value["root"],
        json!({"path": ".", "entries": [{"name": "music", "path": "music"}, {"name": "photos", "path": "photos"}], "truncated": false}),
        "files are omitted"
    );
    assert_eq!(value["photos"]["entries"], json!([{"name": "2026", "path": "photos/2026"}]));
    let errors: Vec<&str> = value["errors"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
    let blank = "TypeError: nodes.get id or name must be a non-empty string.";
    assert_eq!(&errors[..4], [blank; 4]);
    assert_eq!(errors[4], "unknown node \"nope\" (paired node ids: desk, n2)");
    assert!(errors[5].contains("\"system.run\" is reserved for the shell exec tool"), "{}", errors[5]);
    assert_eq!(errors[6], "TypeError: nodes.invoke command must be a non-empty string.");
    assert_eq!(errors[7], "node \"n2\" does not offer \"fs.listDir\" (it offers: device.status)");
}

#[test]
fn denied_commands_never_leave_the_gateway_and_slow_ones_time_out_ga_10_3() {
    let home = dir("policy");
    let marker = home.join("touched");
    let mut gw = Gateway::start(
        &home,
        free_port(),
        "invoke_timeout_ms = 1000\nallow_commands = [\"device.status\", \"slow.*\"]\n",
    );
    let touch = format!("probe.touch=touch {}", marker.display());
    let mut node = Node::start(
        &gw.url,
        &["--id", "lab", "--name", "Lab", "--token", TOKEN, "--command", &touch, "--command", "slow.wait=sleep 30"],
    );
    node.expect("paired with");
    let list = gw.until_connected("lab", true);
    assert_eq!(list[0]["commands"], json!(["device.status", "slow.wait"]), "denied commands are not listed");
    let value = gw.exec(
        r#"
        const lab = await nodes.get("lab");
        const out = [];
        try { await lab.invoke("probe.touch", {}); } catch (e) { out.push(e.code + ": " + e.message); }
        try { await lab.invoke("slow.wait"); } catch (e) { out.push(e.message); }
        out.push((await lab.invoke("device.status")).platform);
        return out;
    "#,
    );
    assert_eq!(
        value[0],
        "node_error: command \"probe.touch\" is not allowed on node \"lab\" by the gateway's command policy"
    );
    assert_eq!(value[1], "node \"lab\" did not answer \"slow.wait\" within 1000 ms; the command was cancelled");
    assert_eq!(value[2], std::env::consts::OS, "the node still answers after a timeout");
    assert!(!marker.exists(), "a denied command never reached the node");
}

#[test]
fn a_node_killed_mid_invoke_fails_the_call_clearly_and_reconnects_with_its_credentials_ga_10_3() {
    let home = dir("killed");
    let started = home.join("started");
    let script = home.join("slow.sh");
    std::fs::write(&script, "touch \"$1\"\nsleep 30\n").unwrap();
    let credentials = home.join("node.json");
    let mut gw = Gateway::start(&home, free_port(), "");
    let slow = format!("slow.wait=sh {} {}", script.display(), started.display());
    let args = ["--id", "cam", "--name", "Camera", "--credentials", credentials.to_str().unwrap(), "--command", &slow];
    let mut node = Node::start(&gw.url, &[&args[..], &["--token", TOKEN]].concat());
    node.expect("paired with");
    gw.until_connected("cam", true);
    gw.send(
        r#"const cam = await nodes.get("cam");
        try { await cam.invoke("slow.wait", {}); return "finished"; } catch (e) { return e.message; }"#,
    );
    let deadline = Instant::now() + PATIENCE;
    while !started.exists() {
        assert!(Instant::now() < deadline, "the command never started on the node");
        std::thread::sleep(Duration::from_millis(20));
    }
    node.kill();
    let result = gw.receive();
    assert_eq!(
        result["value"], "node \"cam\" disconnected while running \"slow.wait\"; the command's outcome is unknown",
        "{result}"
    );
    let list = gw.until_connected("cam", false);
    assert_eq!(list[0]["commands"], json!(["device.status", "slow.wait"]), "a disconnected node stays listed");
    let err =
        gw.exec("try { await (await nodes.get('cam')).invoke('device.status'); } catch (e) { return e.message; }");
    assert!(err.as_str().unwrap().starts_with("node \"cam\" is not connected (last seen 20"), "{err}");
    // Restarted without a token: the saved secret reconnects it.
    let mut again = Node::start(&gw.url, &args);
    again.expect("connected to");
    gw.until_connected("cam", true);
    let status = gw.exec("return (await (await nodes.get('Camera')).invoke('device.status')).platform");
    assert_eq!(status, std::env::consts::OS);
}

#[test]
fn pairings_survive_a_gateway_restart_and_the_node_reconnects_by_itself_ga_10_1() {
    let home = dir("restart");
    let port = free_port();
    let mut gw = Gateway::start(&home, port, "");
    let code = gw.code();
    let mut node = Node::start(&gw.url, &["--id", "pi", "--name", "Pi", "--code", &code]);
    node.expect("paired with");
    gw.until_connected("pi", true);
    // No clean shutdown: the pairing was on disk before the welcome.
    drop(gw);
    node.expect("reconnecting in");
    let mut gw = Gateway::start(&home, port, "");
    node.expect("connected to");
    let list = gw.until_connected("pi", true);
    assert_eq!(list[0]["name"], "Pi");
    let value = gw.exec("return (await (await nodes.get('pi')).invoke('device.status')).platform");
    assert_eq!(value, std::env::consts::OS);
}

#[test]
fn an_operator_lists_and_revokes_pairings_in_a_stopped_gateways_store_and_the_node_is_refused_ga_10_1() {
    let home = dir("revoke");
    let port = free_port();
    let credentials = home.join("node.json");
    let pairings = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_codemode"))
            .arg("--config")
            .arg(home.join("codemode.toml"))
            .arg("pairings")
            .args(args)
            .output()
            .unwrap()
    };
    let mut gw = Gateway::start(&home, port, "");
    let args = ["--id", "pi", "--name", "Pi", "--credentials", credentials.to_str().unwrap()];
    let mut node = Node::start(&gw.url, &[&args[..], &["--token", TOKEN]].concat());
    node.expect("paired with");
    gw.until_connected("pi", true);
    let busy = pairings(&["list"]);
    assert!(!busy.status.success());
    assert!(String::from_utf8_lossy(&busy.stderr).contains("is in use by another codemode process"));
    drop(gw);
    node.kill();

    let listed = pairings(&["list"]);
    assert!(listed.status.success(), "{}", String::from_utf8_lossy(&listed.stderr));
    let text = String::from_utf8_lossy(&listed.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "a header and one pairing:\n{text}");
    assert!(lines[0].starts_with("ID") && lines[0].contains("LAST SEEN"), "{text}");
    assert!(lines[1].starts_with("pi ") && lines[1].contains("Pi") && lines[1].contains("device.status"), "{text}");
    let revoked = pairings(&["revoke", "pi"]);
    assert!(revoked.status.success(), "{}", String::from_utf8_lossy(&revoked.stderr));
    assert!(String::from_utf8_lossy(&revoked.stdout).contains("node pi: pairing revoked"));
    assert_eq!(String::from_utf8_lossy(&pairings(&["list"]).stdout).trim(), "no paired nodes");

    let gw = Gateway::start(&home, port, "");
    let mut again = Node::start(&gw.url, &args);
    again.expect("node \"pi\" is not paired: start it with --code");
    assert!(!again.child.wait().unwrap().success());
}

/// A hand-written WebSocket client (these tests have no WebSocket crate):
/// connects to the gateway on `port` from loopback address `from`, sends
/// `hello` as one masked text frame and returns the gateway's first text
/// frame.
fn raw_hello(port: u16, from: [u8; 4], hello: &Value) -> Value {
    use std::io::Read;
    let rt = tokio::runtime::Builder::new_current_thread().enable_io().build().unwrap();
    let mut tcp = rt.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind((from, 0).into()).unwrap();
        let tcp = socket.connect(([127, 0, 0, 1], port).into()).await.unwrap();
        let tcp = tcp.into_std().unwrap();
        tcp.set_nonblocking(false).unwrap();
        tcp
    });
    tcp.set_read_timeout(Some(PATIENCE)).unwrap();
    write!(
        tcp,
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    .unwrap();
    let mut response = Vec::new();
    let mut byte = [0u8; 1];
    while !response.ends_with(b"\r\n\r\n") {
        tcp.read_exact(&mut byte).unwrap();
        response.push(byte[0]);
    }
    assert!(response.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&response));
    let payload = hello.to_string().into_bytes();
    let len = u16::try_from(payload.len()).unwrap();
    let mask = [7u8, 1, 2, 3];
    let mut frame = vec![0x81, 0x80 | 126];
    frame.extend_from_slice(&len.to_be_bytes());
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    tcp.write_all(&frame).unwrap();
    let mut head = [0u8; 2];
    tcp.read_exact(&mut head).unwrap();
    assert_eq!(head[0], 0x81, "a final text frame");
    let len = match head[1] & 0x7f {
        126 => {
            let mut ext = [0u8; 2];
            tcp.read_exact(&mut ext).unwrap();
            usize::from(u16::from_be_bytes(ext))
        }
        127 => panic!("the gateway's first frame is small"),
        n => usize::from(n),
    };
    let mut body = vec![0u8; len];
    tcp.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

fn code_hello(id: &str, code: &str) -> Value {
    json!({"type": "hello", "version": 1, "id": id, "name": id, "platform": "linux", "commands": [], "code": code})
}

#[test]
fn wrong_codes_are_throttled_per_address_and_ten_replace_the_printed_code_ga_10_1() {
    let home = dir("throttle");
    let port = free_port();
    let mut gw = Gateway::start(&home, port, "");
    let old = gw.code();
    // Node hosts connect from 127.0.0.1: five wrong codes from there ...
    for i in 0..5 {
        let mut guess =
            Node::start(&gw.url, &["--id", &format!("guess-{i}"), "--name", "Guess", "--code", "AAAA-AAAA"]);
        guess.expect("the pairing code is not valid");
    }
    // ... and the next attempt from there is held back, even with the right code.
    let mut right = Node::start(&gw.url, &["--id", "right", "--name", "Right", "--code", &old]);
    right.expect("too many attempts to pair from this address; retry in");
    assert!(!right.child.wait().unwrap().success());
    // Five more wrong codes from other addresses: ten in all replace the
    // code, and the gateway prints the new one as it printed the first.
    for n in 0..5u8 {
        let answer = raw_hello(port, [127, 0, 0, 2 + n], &code_hello("raw", "AAAA-AAAA"));
        assert!(answer["reason"].as_str().unwrap().starts_with("the pairing code is not valid"), "{answer}");
    }
    let line = expect_line(&gw.stderr, "codemode: node pairing code", &mut gw.seen);
    let new = line.split_whitespace().nth(4).unwrap().to_owned();
    assert_ne!(new, old);
    let answer = raw_hello(port, [127, 0, 0, 20], &code_hello("late", &old));
    assert!(answer["reason"].as_str().unwrap().starts_with("the pairing code is not valid"), "{answer}");
    let answer = raw_hello(port, [127, 0, 0, 21], &code_hello("late", &new));
    assert_eq!(answer["type"], "welcome", "{answer}");
    assert!(answer["secret"].is_string(), "{answer}");
    // The pairing is recorded just after the welcome is sent: poll briefly
    // rather than race it.
    let mut list = json!([]);
    for _ in 0..100 {
        list = gw.exec("return (await nodes.list()).map((n) => n.id)");
        if list == json!(["late"]) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(list, json!(["late"]));
}
