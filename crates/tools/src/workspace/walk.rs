//! The bounded, cancellable directory walk behind `find` and `grep`, and
//! the report of what they skipped.
//!
//! `.gitignore` files are not honoured: the `ignore` crate would read them
//! with a blocking open, so a FIFO named `.gitignore` could pin a thread.
//! Instead `.git`, `node_modules` and `target` are never descended into.
//! Symbolic links are not followed (they could lead outside the root).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::blocking::Cancel;
use super::fs::special_kind;
use super::root::Root;
use codemode_catalog::ToolError;

/// Directory entries visited at most per call.
pub(crate) const MAX_VISITS: usize = 100_000;
/// Directories never descended into.
pub(crate) const SKIPPED_DIRS: &[&str] = &[".git", "node_modules", "target"];
/// Skipped paths listed at most in a result.
const MAX_LISTED: usize = 20;

/// What the walk found at a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// A regular file.
    File,
    /// A FIFO, socket or device, named for messages.
    Special(&'static str),
}

/// Walks `dir` depth-first in name order, calling `visit` with each
/// regular or special file's path, root-relative path and kind, until it
/// returns false or the visit budget runs out. Unreadable directories are
/// recorded in `skipped`.
///
/// Returns whether the walk was cut short.
///
/// # Errors
/// The call was cancelled.
pub(crate) fn walk_files(
    root: &Root,
    dir: &Path,
    cancel: &Cancel,
    skipped: &mut Skipped,
    visit: &mut dyn FnMut(&Path, &str, Found) -> Result<bool, ToolError>,
) -> Result<bool, ToolError> {
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    let mut visits = 0;
    while let Some(d) = stack.pop() {
        cancel.check()?;
        let read = match std::fs::read_dir(&d) {
            Ok(read) => read,
            Err(e) => {
                skipped.record(&root.relative(&d), Skip::Unreadable(e.to_string()));
                continue;
            }
        };
        // Take no more entries than the budget allows, so one huge
        // directory cannot exhaust memory before the budget is checked.
        let mut entries = Vec::new();
        for e in read {
            cancel.check()?;
            if visits + entries.len() > MAX_VISITS {
                break;
            }
            match e {
                Ok(e) => entries.push(e),
                Err(e) => skipped.record(&root.relative(&d), Skip::Unreadable(e.to_string())),
            }
        }
        entries.sort_by_key(std::fs::DirEntry::file_name);
        let mut subdirs = Vec::new();
        for e in entries {
            cancel.check()?;
            visits += 1;
            if visits > MAX_VISITS {
                return Ok(true);
            }
            let path = e.path();
            let t = match e.file_type() {
                Ok(t) => t,
                Err(err) => {
                    skipped.record(&root.relative(&path), Skip::Unreadable(err.to_string()));
                    continue;
                }
            };
            let found = if t.is_dir() {
                if !SKIPPED_DIRS.contains(&e.file_name().to_string_lossy().as_ref()) {
                    subdirs.push(path);
                }
                continue;
            } else if t.is_file() {
                Found::File
            } else if t.is_symlink() {
                continue;
            } else {
                Found::Special(special_kind(&t))
            };
            if !visit(&path, &root.relative(&path), found)? {
                return Ok(true);
            }
        }
        stack.extend(subdirs.into_iter().rev());
    }
    Ok(false)
}

/// Why a file was skipped.
#[derive(Debug)]
pub(crate) enum Skip {
    /// Larger than the tool reads.
    TooLarge(u64),
    /// Not UTF-8 text (binary).
    NotText,
    /// A FIFO, socket or device.
    NotRegular(&'static str),
    /// The file system refused (the error).
    Unreadable(String),
}

/// The files a call skipped: counts by reason and the first few paths.
#[derive(Debug, Default)]
pub(crate) struct Skipped {
    too_large: usize,
    not_text: usize,
    not_regular: usize,
    unreadable: usize,
    listed: Vec<(String, String)>,
}

impl Skipped {
    /// Records `path` as skipped for `why`.
    pub(crate) fn record(&mut self, path: &str, why: Skip) {
        let reason = match why {
            Skip::TooLarge(limit) => {
                self.too_large += 1;
                format!("larger than {} MiB", limit / (1024 * 1024))
            }
            Skip::NotText => {
                self.not_text += 1;
                "not UTF-8 text".to_owned()
            }
            Skip::NotRegular(kind) => {
                self.not_regular += 1;
                kind.to_owned()
            }
            Skip::Unreadable(e) => {
                self.unreadable += 1;
                format!("unreadable: {e}")
            }
        };
        if self.listed.len() < MAX_LISTED {
            self.listed.push((path.to_owned(), reason));
        }
    }

    /// Adds `other`'s counts and paths to these.
    pub(crate) fn merge(&mut self, other: Skipped) {
        self.too_large += other.too_large;
        self.not_text += other.not_text;
        self.not_regular += other.not_regular;
        self.unreadable += other.unreadable;
        let room = MAX_LISTED.saturating_sub(self.listed.len());
        self.listed.extend(other.listed.into_iter().take(room));
    }

    /// How many were skipped.
    pub(crate) fn count(&self) -> usize {
        self.too_large + self.not_text + self.not_regular + self.unreadable
    }

    /// The `skipped` details value.
    pub(crate) fn details(&self) -> Value {
        let paths: Vec<Value> = self.listed.iter().map(|(p, r)| json!({"path": p, "reason": r})).collect();
        json!({
            "count": self.count(),
            "tooLarge": self.too_large,
            "notText": self.not_text,
            "notRegular": self.not_regular,
            "unreadable": self.unreadable,
            "paths": paths,
            "pathsTruncated": self.count() > self.listed.len(),
        })
    }

    /// A one-line notice for the text content, if anything was skipped.
    pub(crate) fn notice(&self) -> Option<String> {
        let count = self.count();
        if count == 0 {
            return None;
        }
        let listed: Vec<String> = self.listed.iter().map(|(p, r)| format!("{p} ({r})")).collect();
        let more = if count > listed.len() { format!(" and {} more", count - listed.len()) } else { String::new() };
        let noun = if count == 1 { "file" } else { "files" };
        Some(format!("[skipped {count} {noun}: {}{more}]", listed.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::tests::TestDir;

    #[test]
    fn a_cancelled_walk_stops_with_a_cancelled_error() {
        let dir = TestDir::new("walk-cancel");
        std::fs::write(dir.0.join("a.txt"), "a").unwrap();
        let root = Root::new(&dir.0).unwrap();
        let cancel = Cancel::default();
        cancel.cancel();
        let e = walk_files(&root, root.path(), &cancel, &mut Skipped::default(), &mut |_, _, _| Ok(true)).unwrap_err();
        assert_eq!(e.code, "cancelled");
    }

    #[test]
    fn the_walk_reports_fifos_and_lists_at_most_20_skipped_paths() {
        let dir = TestDir::new("walk-fifo");
        dir.mkfifo("pipe");
        std::fs::write(dir.0.join("a.txt"), "a").unwrap();
        let root = Root::new(&dir.0).unwrap();
        let mut seen = Vec::new();
        let cut = walk_files(&root, root.path(), &Cancel::default(), &mut Skipped::default(), &mut |_, rel, found| {
            seen.push((rel.to_owned(), found));
            Ok(true)
        })
        .unwrap();
        assert!(!cut);
        assert_eq!(seen, [("a.txt".to_owned(), Found::File), ("pipe".to_owned(), Found::Special("a FIFO"))]);
        let mut skipped = Skipped::default();
        for i in 0..25 {
            skipped.record(&format!("f{i}"), Skip::NotText);
        }
        let d = skipped.details();
        assert_eq!((d["count"].clone(), d["paths"].as_array().unwrap().len()), (json!(25), 20));
        assert!(skipped.notice().unwrap().ends_with("f19 (not UTF-8 text) and 5 more]"));
    }
}
