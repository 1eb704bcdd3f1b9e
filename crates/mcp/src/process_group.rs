//! A stdio MCP server's processes end with the codemode process that
//! started them.
//!
//! Each stdio server is started as the leader of a process group of its
//! own, so it and whatever it starts (`npx` starting `node`, a shell
//! starting a program) can be ended together. A server leaves when its
//! session does: its standard input closes, it gets a bounded grace to
//! exit, and then its whole group is killed. Every group still alive is
//! kept in one process-wide list, so a host that is ending anyway — a
//! panic, or the end of `main` — can kill them all at once
//! ([`end_all_server_processes`]). A `kill -9` of the host runs none of
//! this: its servers see their standard input close, and those that do
//! not exit then are left to the process's supervisor
//! (docs/operations.md).

use std::sync::Mutex;
use std::time::Duration;

/// The process groups of the stdio servers alive in this process.
static LIVE_GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn live() -> std::sync::MutexGuard<'static, Vec<u32>> {
    LIVE_GROUPS.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The process group of one stdio server (its leader's pid): killed
/// when dropped.
#[derive(Debug)]
pub(crate) struct ServerGroup {
    leader: u32,
}

impl ServerGroup {
    /// The group led by `leader`, a server just started as a group leader.
    pub(crate) fn adopt(leader: u32) -> Self {
        live().push(leader);
        Self { leader }
    }

    /// Ends the group: waits up to `grace` for its leader to exit (its
    /// standard input was closed), then kills whatever of the group is
    /// left.
    pub(crate) async fn end(self, grace: Duration) {
        let deadline = tokio::time::Instant::now() + grace;
        while leader_running(self.leader) && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        drop(self);
    }
}

impl Drop for ServerGroup {
    fn drop(&mut self) {
        kill_group(self.leader);
        live().retain(|&g| g != self.leader);
    }
}

/// Kills the process group of every stdio server still alive in this
/// process, at once: for a host that is ending (a panic hook, the end of
/// `main`), where no grace can be waited for. Sessions still open see
/// their server gone.
pub fn end_all_server_processes() {
    for group in std::mem::take(&mut *live()) {
        kill_group(group);
    }
}

/// Whether the process `pid` is still running (not exited: a zombie
/// waiting to be reaped counts as exited).
fn leader_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

#[expect(unsafe_code, reason = "killpg is a libc call")]
fn kill_group(leader: u32) {
    let Ok(group) = libc::pid_t::try_from(leader) else { return };
    // SAFETY: a plain signal to a process group this process started; a
    // group already gone answers ESRCH, which changes nothing.
    unsafe {
        libc::killpg(group, libc::SIGKILL);
    }
}
