//! The REPL's history file: entries kept across sessions, bounded.
//!
//! The file is rustyline's own format (one entry per line, newlines inside
//! an entry escaped), so a multi-line entry comes back whole. A file that
//! cannot be read or written is a warning on stderr naming the file and the
//! reason, never the end of the session.

use std::path::PathBuf;

use rustyline::history::History;

/// How many entries the history keeps by default.
pub(crate) const DEFAULT_SIZE: u32 = 1000;

/// The history file's name in the user's data directory.
const FILE_NAME: &str = "repl_history";

/// Where the history goes, as the command line chose it.
#[derive(Clone, Debug)]
pub(crate) enum HistoryChoice {
    /// `--history FILE`.
    File(PathBuf),
    /// `--no-history`.
    Off,
    /// Neither: the data directory's file on a terminal, none on a pipe
    /// (a script piping entries in should not fill the user's history).
    Default,
}

/// Where history is read from and written to, and whether writing still
/// works.
#[derive(Debug)]
pub(crate) struct HistoryFile {
    path: Option<PathBuf>,
}

impl HistoryFile {
    /// Resolves `choice` for a session on a terminal (`interactive`) or a
    /// pipe. Says on stderr why there is no file when the default one
    /// cannot be placed.
    pub(crate) fn resolve(choice: HistoryChoice, interactive: bool) -> Self {
        let path = match choice {
            HistoryChoice::File(path) => Some(path),
            HistoryChoice::Off => None,
            HistoryChoice::Default if !interactive => None,
            HistoryChoice::Default => match crate::start::data_dir() {
                Some(dir) => Some(dir.join(FILE_NAME)),
                None => {
                    eprintln!(
                        "codemode: warning: no REPL history file: neither XDG_DATA_HOME nor HOME is set (choose one with --history FILE)"
                    );
                    None
                }
            },
        };
        Self { path }
    }

    /// The file, if there is one.
    #[cfg(test)]
    pub(crate) fn path(&self) -> Option<&std::path::Path> {
        self.path.as_deref()
    }

    /// Loads the file into `history`. A missing file is a first session; any
    /// other failure is a warning, and the session starts with an empty
    /// history and goes on writing the file.
    pub(crate) fn load(&self, history: &mut impl History) {
        let Some(path) = &self.path else { return };
        match history.load(path) {
            Ok(()) => {}
            Err(rustyline::error::ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => eprintln!(
                "codemode: warning: cannot read the REPL history {}: {e}; starting with an empty history",
                path.display()
            ),
        }
    }

    /// Adds `entry` to `history` and appends it to the file (which keeps at
    /// most the history's size of entries). On a write failure, warns once
    /// and stops writing for the rest of the session.
    pub(crate) fn record(&mut self, history: &mut impl History, entry: &str) {
        if let Err(e) = history.add(entry) {
            // The in-memory history only fails through its file; say so
            // rather than lose the entry without a word.
            eprintln!("codemode: warning: cannot add the entry to the REPL history: {e}");
            return;
        }
        let Some(path) = &self.path else { return };
        let written = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => std::fs::create_dir_all(dir).map_err(Into::into),
            _ => Ok(()),
        }
        .and_then(|()| history.append(path));
        if let Err(e) = written {
            eprintln!(
                "codemode: warning: cannot write the REPL history {}: {e}; this session's entries are not saved",
                path.display()
            );
            self.path = None;
        }
    }
}

/// The rustyline configuration for a history of `size` entries.
pub(crate) fn config(size: usize) -> rustyline::Result<rustyline::Config> {
    Ok(rustyline::Config::builder().max_history_size(size)?.history_ignore_dups(true)?.auto_add_history(false).build())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustyline::history::FileHistory;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("codemode-history-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn entries_are_written_to_a_new_directory_and_read_back_whole() {
        let dir = temp("roundtrip");
        let path = dir.join("sub/history");
        let mut file = HistoryFile::resolve(HistoryChoice::File(path.clone()), false);
        let mut history = FileHistory::with_config(&config(10).unwrap());
        file.record(&mut history, "function f() {\n  return 1 }");
        file.record(&mut history, "f()");
        let mut again = FileHistory::with_config(&config(10).unwrap());
        file.load(&mut again);
        let entries: Vec<&String> = again.iter().collect();
        assert_eq!(entries, ["function f() {\n  return 1 }", "f()"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unwritable_history_file_is_dropped_after_one_warning() {
        let dir = temp("unwritable");
        std::fs::create_dir_all(&dir).unwrap();
        // A directory where the file should be: no write can succeed.
        let path = dir.join("history");
        std::fs::create_dir_all(&path).unwrap();
        let mut file = HistoryFile::resolve(HistoryChoice::File(path), false);
        let mut history = FileHistory::with_config(&config(10).unwrap());
        file.record(&mut history, "1");
        assert!(file.path().is_none());
        assert_eq!(history.len(), 1, "the entry stays in memory");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn piped_sessions_keep_no_history_unless_a_file_is_named() {
        assert!(HistoryFile::resolve(HistoryChoice::Default, false).path().is_none());
        assert!(HistoryFile::resolve(HistoryChoice::Off, true).path().is_none());
    }
}
