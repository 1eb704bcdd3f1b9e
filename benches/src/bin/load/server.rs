//! The server process: spawning `codemode serve --http`, reading
//! `/proc/<pid>`, and watching its peaks.

use super::*;

/// What `/proc/<pid>` says about the server.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ProcStats {
    pub(crate) rss_kib: u64,
    pub(crate) hwm_kib: u64,
    pub(crate) threads: u64,
    pub(crate) fds: u64,
    pub(crate) children: u64,
}

/// A `codemode serve --http` child process, killed on drop.
pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) pid: u32,
    pub(crate) url: String,
    pub(crate) metrics_addr: String,
    pub(crate) dir: PathBuf,
    pub(crate) stderr_tail: Arc<Mutex<Vec<String>>>,
}

pub(crate) fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

impl Server {
    pub(crate) fn start(o: &Options, name: &str, config: &str) -> Result<Self> {
        let bin = &o.bin;
        let dir = std::env::temp_dir().join(format!("codemode-load-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        let config_path = dir.join("codemode.toml");
        std::fs::write(&config_path, config)?;
        let (port, metrics_port) = (free_port()?, free_port()?);
        let mut child = Command::new(bin)
            .arg("--config")
            .arg(&config_path)
            .arg("--store")
            .arg(dir.join("store"))
            .args(["serve", "--http", &format!("127.0.0.1:{port}"), "--metrics", &format!("127.0.0.1:{metrics_port}")])
            .envs(o.server_env.iter().map(|(k, v)| (k, v)))
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("spawning {}", bin.display()))?;
        let pid = child.id();
        let mut stderr = BufReader::new(child.stderr.take().context("stderr")?);
        let mut ready = false;
        for _ in 0..50 {
            let mut line = String::new();
            if stderr.read_line(&mut line)? == 0 {
                break;
            }
            if line.contains("serving MCP over HTTP") {
                ready = true;
                break;
            }
        }
        if !ready {
            let _ = child.kill();
            let _ = child.wait();
            bail!("the server did not say it serves MCP over HTTP");
        }
        // Keep draining stderr (so the server never blocks on it); keep the
        // last lines for diagnosis.
        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        let tail = Arc::clone(&stderr_tail);
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                let mut t = tail.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if t.len() >= 20 {
                    t.remove(0);
                }
                t.push(line);
            }
        });
        Ok(Self {
            child,
            pid,
            url: format!("http://127.0.0.1:{port}/mcp"),
            metrics_addr: format!("127.0.0.1:{metrics_port}"),
            dir,
            stderr_tail,
        })
    }

    pub(crate) fn stats(&self) -> ProcStats {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).unwrap_or_default();
        let field = |name: &str| -> u64 {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        let fds = std::fs::read_dir(format!("/proc/{}/fd", self.pid)).map_or(0, |d| d.count() as u64);
        let mut children = 0;
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{}/task", self.pid)) {
            for task in tasks.flatten() {
                let list = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
                children += list.split_whitespace().count() as u64;
            }
        }
        ProcStats { rss_kib: field("VmRSS:"), hwm_kib: field("VmHWM:"), threads: field("Threads:"), fds, children }
    }

    /// `(live cells, parked cells)` from the server's `/metrics`.
    pub(crate) fn cells(&self) -> Result<(u64, u64)> {
        let mut socket = std::net::TcpStream::connect(&self.metrics_addr)?;
        socket.set_read_timeout(Some(Duration::from_secs(5)))?;
        socket.write_all(b"GET /metrics HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")?;
        let mut body = String::new();
        socket.read_to_string(&mut body)?;
        let gauge = |name: &str| -> Result<u64> {
            body.lines()
                .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(' ')))
                .and_then(|v| v.trim().parse().ok())
                .ok_or_else(|| anyhow!("no {name} in /metrics"))
        };
        Ok((gauge("codemode_live_cells")?, gauge("codemode_parked_cells")?))
    }

    pub(crate) fn store_kib(&self) -> u64 {
        fn walk(p: &Path) -> u64 {
            let Ok(entries) = std::fs::read_dir(p) else { return 0 };
            entries
                .flatten()
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => walk(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        }
        walk(&self.dir.join("store")) / 1024
    }

    /// Whether the process still runs (not exited, not a zombie).
    pub(crate) fn alive(&self) -> bool {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).unwrap_or_default();
        status.lines().find_map(|l| l.strip_prefix("State:")).is_some_and(|s| !s.trim_start().starts_with('Z'))
    }

    pub(crate) fn stderr_tail(&self) -> String {
        self.stderr_tail.lock().unwrap_or_else(std::sync::PoisonError::into_inner).join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Samples the server every 100 ms until stopped: peak RSS, threads, fds,
/// live and parked cells.
#[derive(Default)]
pub(crate) struct Peaks {
    pub(crate) rss_kib: AtomicU64,
    pub(crate) threads: AtomicU64,
    pub(crate) fds: AtomicU64,
    pub(crate) live: AtomicU64,
    pub(crate) parked: AtomicU64,
}

pub(crate) fn monitor(server: &Arc<Server>, stop: &Arc<AtomicBool>) -> (Arc<Peaks>, std::thread::JoinHandle<()>) {
    let peaks = Arc::new(Peaks::default());
    let (p, s, stop) = (Arc::clone(&peaks), Arc::clone(server), Arc::clone(stop));
    let handle = std::thread::spawn(move || {
        // Bounded: stops when told, or after two hours at most.
        for _ in 0..72_000 {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let st = s.stats();
            p.rss_kib.fetch_max(st.rss_kib, Ordering::Relaxed);
            p.threads.fetch_max(st.threads, Ordering::Relaxed);
            p.fds.fetch_max(st.fds, Ordering::Relaxed);
            if let Ok((live, parked)) = s.cells() {
                p.live.fetch_max(live, Ordering::Relaxed);
                p.parked.fetch_max(parked, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    (peaks, handle)
}
