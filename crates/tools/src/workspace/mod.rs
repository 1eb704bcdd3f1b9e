//! Built-in workspace tools: `read`, `ls`, `find` and `grep`, confined to
//! one root directory (GA-11.4, GA-12).
//!
//! Every path is relative to the root. Absolute paths, `..` components and
//! symlinks that lead outside the root are refused before anything is read.
//! File work runs on the blocking pool, never on an async worker, and is
//! bounded: only regular files are opened (a FIFO or device could block a
//! thread forever), reads stream in O(page) memory, walks have a visit
//! budget, and dropping a call's future (abort, timeout) stops its work at
//! the next check of its [`Cancel`] flag.

mod find;
mod fs;
mod glob;
mod grep;
mod ls;
mod page;
mod read;
mod walk;

#[cfg(test)]
mod alloc_probe;

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

use codemode_catalog::{Tool, ToolError, ToolOutput};

pub use find::Find;
pub use grep::Grep;
pub use ls::Ls;
pub use read::Read;

/// The directory the workspace tools are confined to.
#[derive(Clone, Debug)]
pub struct Root {
    canonical: Arc<PathBuf>,
}

impl Root {
    /// A root at `dir`, which must exist.
    ///
    /// # Errors
    /// `dir` does not exist or is not a directory.
    pub fn new(dir: impl AsRef<Path>) -> std::io::Result<Self> {
        let canonical = std::fs::canonicalize(dir)?;
        if !canonical.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                "the workspace root is not a directory",
            ));
        }
        Ok(Self { canonical: Arc::new(canonical) })
    }

    /// The root's canonical path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.canonical
    }

    /// Resolves `relative` inside the root, refusing every way out.
    ///
    /// # Errors
    /// An absolute path, a `..` component, a missing path, or a symlink that
    /// leads outside the root.
    pub fn resolve(&self, relative: &str) -> Result<PathBuf, ToolError> {
        let rel = Path::new(relative);
        if rel.is_absolute() || relative.starts_with('~') {
            return Err(invalid(format!(
                "absolute paths are not allowed ({relative}); use a path relative to the workspace root"
            )));
        }
        if rel.components().any(|c| matches!(c, Component::ParentDir | Component::Prefix(_) | Component::RootDir)) {
            return Err(invalid(format!("path {relative} escapes the workspace root; `..` is not allowed")));
        }
        let joined = self.canonical.join(rel);
        let resolved = std::fs::canonicalize(&joined)
            .map_err(|e| ToolError { message: format!("cannot open {relative}: {e}"), code: "not_found".into() })?;
        if !resolved.starts_with(self.canonical.as_path()) {
            return Err(invalid(format!("path {relative} leads outside the workspace root through a symlink")));
        }
        Ok(resolved)
    }

    /// `path` relative to the root, with `/` separators.
    #[must_use]
    pub fn relative(&self, path: &Path) -> String {
        let rel = path.strip_prefix(self.canonical.as_path()).unwrap_or(path);
        let s = rel.to_string_lossy().replace('\\', "/");
        if s.is_empty() { ".".to_owned() } else { s }
    }
}

fn invalid(message: String) -> ToolError {
    ToolError { message, code: "invalid_input".into() }
}

/// The four workspace tools over one root.
#[must_use]
pub fn tools(root: &Root) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(Read::new(root.clone())),
        Arc::new(Ls::new(root.clone())),
        Arc::new(Find::new(root.clone())),
        Arc::new(Grep::new(root.clone())),
    ]
}

/// Set when a workspace call's future is dropped (the cell was aborted or
/// timed out): its blocking work checks it in every loop and stops, so an
/// abandoned call never keeps a blocking thread busy.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// `Err` once the call was abandoned.
    pub(crate) fn check(&self) -> Result<(), ToolError> {
        if self.0.load(Ordering::Relaxed) {
            return Err(ToolError { message: "the call was cancelled".into(), code: "cancelled".into() });
        }
        Ok(())
    }

    fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Cancels on drop: lives in the async fn, so dropping its future flags the
/// blocking work (setting it after the work finished is harmless).
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Runs file work on the blocking pool; dropping the returned future sets
/// the work's [`Cancel`] flag.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce(&Cancel) -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    let cancel = Cancel::default();
    let _cancel_on_drop = CancelOnDrop(cancel.clone());
    tokio::task::spawn_blocking(move || {
        // A call abandoned while queued for a thread does nothing.
        cancel.check()?;
        work(&cancel)
    })
    .await
    .unwrap_or_else(|e| Err(ToolError::new(format!("file work failed: {e}"))))
}

fn output(details: Value, text: String) -> ToolOutput {
    ToolOutput { details, text: Some(text), is_error: false }
}

fn string_arg(input: &Value, key: &str) -> Option<String> {
    input.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// A required string argument; a missing one is an error, never `""`.
fn required_string(input: &Value, key: &str) -> Result<String, ToolError> {
    string_arg(input, key).ok_or_else(|| invalid(format!("`{key}` is required and must be a string")))
}

fn usize_arg(input: &Value, key: &str) -> Option<usize> {
    input.get(key).and_then(Value::as_u64).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A scratch directory under the system temp dir, removed on drop.
    pub(crate) struct TestDir(pub(crate) PathBuf);

    impl TestDir {
        pub(crate) fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!("codemode-cat-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Self(dir)
        }

        /// Makes a FIFO named `name` in the directory.
        pub(crate) fn mkfifo(&self, name: &str) -> PathBuf {
            let path = self.0.join(name);
            let status = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
            assert!(status.success(), "mkfifo failed");
            path
        }
    }

    impl Drop for TestDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn dropping_a_workspace_call_stops_its_blocking_work() {
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let (stopped_tx, stopped_rx) = std::sync::mpsc::channel();
        let call = tokio::spawn(blocking(move |cancel| {
            let _ = started_tx.send(());
            // Stands for a walk or read loop: runs until cancelled.
            while cancel.check().is_ok() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            let _ = stopped_tx.send(());
            Ok(())
        }));
        started_rx.await.unwrap();
        call.abort();
        // The bound only keeps a broken build from hanging the test run.
        stopped_rx.recv_timeout(std::time::Duration::from_secs(30)).expect("the blocking work kept running");
    }

    #[test]
    fn paths_outside_the_root_are_refused() {
        let dir = std::env::temp_dir().join(format!("codemode-root-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/a.txt"), "a").unwrap();
        let root = Root::new(&dir).unwrap();
        assert!(root.resolve("sub/a.txt").is_ok());
        assert!(root.resolve("/etc/passwd").unwrap_err().message.contains("absolute"));
        assert!(root.resolve("sub/../../etc").unwrap_err().message.contains("escapes"));
        #[cfg(unix)]
        {
            let _ = std::fs::remove_file(dir.join("out"));
            std::os::unix::fs::symlink("/etc", dir.join("out")).unwrap();
            assert!(root.resolve("out/passwd").unwrap_err().message.contains("symlink"));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
