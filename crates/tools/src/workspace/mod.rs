//! Built-in workspace tools: `read`, `ls`, `find` and `grep`, confined to
//! one root directory (GA-11.4, GA-12).
//!
//! Every path is relative to the root. Absolute paths, `..` components and
//! symlinks that lead outside the root are refused before anything is read.
//! File work runs on the blocking pool, never on an async worker, and is
//! bounded: only regular files are opened (a FIFO or device could block a
//! thread forever), reads stream in O(page) memory, walks have a visit
//! budget, and dropping a call's future (abort, timeout) stops its work at
//! the next check of its `Cancel` flag.
//!
//! `root` is the root and its path rules, `blocking` the cancellable file
//! work, `args` the argument readers and answer shape the tools share.

mod args;
mod blocking;
mod find;
mod fs;
mod glob;
mod grep;
mod ls;
mod page;
mod read;
mod root;
mod walk;

#[cfg(test)]
mod alloc_probe;

use std::sync::Arc;

use codemode_catalog::Tool;

pub use find::Find;
pub use grep::Grep;
pub use ls::Ls;
pub use read::Read;
pub use root::Root;

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

#[cfg(test)]
pub(crate) mod tests {
    use std::path::PathBuf;

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
}
