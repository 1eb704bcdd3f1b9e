//! The workspace root: the one directory the workspace tools are
//! confined to, and the resolution of paths inside it.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use codemode_catalog::ToolError;

use super::args::invalid;

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

#[cfg(test)]
mod tests {
    use super::*;

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
