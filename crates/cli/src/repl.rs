//! `codemode repl`: each entry is a cell in one session.
//!
//! An entry may span lines: it continues while a bracket is open (see
//! [`scan`]) or when a line ends in `\`, with a `...> ` prompt. `:wait`
//! resumes the last parked cell, `:abort` aborts it, `:history` lists this
//! session's entries, `:quit` (or end of input) leaves.
//!
//! On a terminal, lines are read with a line editor (rustyline): cursor
//! movement, and the arrow keys recall earlier entries, whole, from a
//! history file kept across sessions. From a pipe, lines are read as they
//! come, with the same entry rule and no prompt or escape sequence.

mod history;
mod scan;

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::{Context, Result};
use codemode_runtime::{CellResult, CodeMode, ErrorCode, Exec, Phase, Reply};
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use tokio::io::{AsyncBufReadExt, BufReader, Lines, Stdin};

pub(crate) use history::{DEFAULT_SIZE as DEFAULT_HISTORY_SIZE, HistoryChoice};

use crate::output::{print_result, with_spinner};
use history::HistoryFile;
use scan::Entry;

/// The prompt for a new entry.
const PROMPT: &str = "codemode> ";
/// The prompt for a further line of an entry.
const CONTINUATION_PROMPT: &str = "...> ";

/// Said after a cell fails with a `ReferenceError`: the usual cause in a
/// REPL is a name from an earlier entry, since every cell gets a fresh
/// context (GA-1.2).
const REFERENCE_ERROR_HINT: &str = "hint: variables do not carry over between entries (each entry runs in a fresh context); \
     keep a value with `await store(\"key\", value)` and read it in a later entry with `await load(\"key\")`";

/// `codemode repl`'s arguments.
#[derive(clap::Args)]
pub(crate) struct ReplArgs {
    /// Keep the entry history in FILE (default on a terminal:
    /// $XDG_DATA_HOME/codemode/repl_history, else
    /// ~/.local/share/codemode/repl_history; from a pipe, none unless
    /// this is given).
    #[arg(long, value_name = "FILE")]
    history: Option<PathBuf>,
    /// Keep no history file.
    #[arg(long, conflicts_with = "history")]
    no_history: bool,
    /// The most entries the history file keeps; older ones are dropped.
    #[arg(long, default_value_t = DEFAULT_HISTORY_SIZE, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    history_size: u32,
}

impl ReplArgs {
    /// The options the arguments ask for.
    pub(crate) fn options(self) -> ReplOptions {
        ReplOptions { history: history_choice(self.history, self.no_history), history_size: self.history_size as usize }
    }
}

/// How `codemode repl` was asked to run.
#[derive(Debug)]
pub(crate) struct ReplOptions {
    /// Where the history file is.
    pub history: HistoryChoice,
    /// How many entries the history file keeps.
    pub history_size: usize,
}

/// Where lines come from: a line editor on a terminal, a plain reader on a
/// pipe.
enum Input {
    Terminal(rustyline::Editor<(), FileHistory>),
    Pipe { lines: Lines<BufReader<Stdin>>, history: FileHistory },
}

/// One read from [`Input`].
enum Read {
    Line(String),
    /// Ctrl-C: drop the entry being typed.
    Interrupted,
    End,
}

impl Input {
    fn open(interactive: bool, size: usize) -> Result<Self> {
        let config = history::config(size).context("configuring the REPL history")?;
        if interactive {
            let editor = rustyline::Editor::with_config(config).context("starting the line editor")?;
            Ok(Self::Terminal(editor))
        } else {
            let lines = BufReader::new(tokio::io::stdin()).lines();
            Ok(Self::Pipe { lines, history: FileHistory::with_config(&config) })
        }
    }

    fn history(&mut self) -> &mut FileHistory {
        match self {
            Self::Terminal(editor) => editor.history_mut(),
            Self::Pipe { history, .. } => history,
        }
    }

    async fn read(&mut self, prompt: &str) -> Result<Read> {
        match self {
            Self::Terminal(editor) => {
                // The editor blocks on the terminal; let other tasks (MCP
                // servers, parked cells' timers) run meanwhile.
                match tokio::task::block_in_place(|| editor.readline(prompt)) {
                    Ok(line) => Ok(Read::Line(line)),
                    Err(ReadlineError::Interrupted) => Ok(Read::Interrupted),
                    Err(ReadlineError::Eof) => Ok(Read::End),
                    Err(e) => Err(e).context("reading a line from the terminal"),
                }
            }
            Self::Pipe { lines, .. } => {
                Ok(lines.next_line().await.context("reading a line")?.map_or(Read::End, Read::Line))
            }
        }
    }
}

/// Runs the REPL on stdin until `:quit` or end of input.
pub(crate) async fn run(rt: &CodeMode, options: ReplOptions) -> Result<()> {
    let interactive = std::io::stdin().is_terminal();
    let mut input = Input::open(interactive, options.history_size)?;
    let file = HistoryFile::resolve(options.history, interactive);
    file.load(input.history());
    let mut repl = Repl { reply: rt.session("repl").reply("repl"), file, entries: Vec::new(), parked: None };
    let mut entry = Entry::default();
    loop {
        let prompt = if entry.is_empty() { PROMPT } else { CONTINUATION_PROMPT };
        let line = match input.read(prompt).await? {
            Read::Line(line) => line,
            Read::Interrupted => {
                if entry.is_empty() {
                    println!("(:quit or Ctrl-D leaves)");
                }
                entry.clear();
                continue;
            }
            Read::End => {
                // An entry still open at the end runs anyway, so its syntax
                // error is reported rather than dropped without a word.
                if !entry.is_empty() {
                    repl.run_entry(&mut input, entry.take()).await;
                }
                break;
            }
        };
        if entry.is_empty() {
            match line.trim() {
                "" => continue,
                ":quit" | ":q" => break,
                ":history" => {
                    for (i, h) in repl.entries.iter().enumerate() {
                        println!("{:>3}  {}", i + 1, h.replace('\n', "\n     "));
                    }
                    continue;
                }
                ":wait" => {
                    repl.resume(true).await;
                    continue;
                }
                ":abort" => {
                    repl.resume(false).await;
                    continue;
                }
                _ => {}
            }
        }
        if let Some(code) = entry.push(&line) {
            repl.run_entry(&mut input, code).await;
        }
    }
    Ok(())
}

/// The session's state between entries.
struct Repl {
    reply: Reply,
    file: HistoryFile,
    /// This session's entries, for `:history`.
    entries: Vec<String>,
    /// The last result when it was `waiting`, with its run id: what
    /// `:wait` and `:abort` act on.
    parked: Option<(String, CellResult)>,
}

impl Repl {
    /// Runs one complete entry as a cell, records it and prints its result.
    async fn run_entry(&mut self, input: &mut Input, code: String) {
        let text = code.trim_end().to_owned();
        self.file.record(input.history(), &text);
        self.entries.push(text);
        let result = self.reply.exec(Exec::code(code)).await;
        self.show(result);
    }

    /// `:wait` (`wait`) or `:abort` the parked cell.
    async fn resume(&mut self, wait: bool) {
        let Some((run_id, parked)) = self.parked.take() else {
            println!("no parked cell");
            return;
        };
        let result = if wait {
            with_spinner(&parked, self.reply.wait(&run_id), false).await
        } else {
            self.reply.abort(&run_id).await
        };
        self.show(result);
    }

    /// Prints the result and keeps it when the cell parked. The runtime
    /// failing one request (it is shutting down, say) is printed as that
    /// entry's result, not the end of the session.
    fn show(&mut self, result: Result<CellResult, codemode_runtime::CodeModeError>) {
        let result = result.unwrap_or_else(|e| CellResult::input_error(ErrorCode::RuntimeUnavailable, e.to_string()));
        report(&result);
        self.parked = result.run_id().map(str::to_owned).map(|run_id| (run_id, result));
    }
}

/// Prints `result`, with the hint for a name from an earlier entry.
fn report(result: &CellResult) {
    print_result(result, false);
    if is_reference_error(result) {
        println!("{REFERENCE_ERROR_HINT}");
    }
}

/// Whether the cell failed because the guest named something undefined.
fn is_reference_error(result: &CellResult) -> bool {
    matches!(result, CellResult::Failed { phase: Phase::Guest, error, .. } if error.starts_with("ReferenceError:"))
}

/// The `--history` path given on the command line, resolved against
/// `--no-history`.
pub(crate) fn history_choice(file: Option<PathBuf>, off: bool) -> HistoryChoice {
    match (file, off) {
        (_, true) => HistoryChoice::Off,
        (Some(path), false) => HistoryChoice::File(path),
        (None, false) => HistoryChoice::Default,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_guest_reference_errors_get_the_hint() {
        let failed = |phase, error: &str| CellResult::Failed {
            code: ErrorCode::InternalError,
            error: error.to_owned(),
            phase,
            output: Default::default(),
            telemetry: Default::default(),
            untrusted: None,
        };
        assert!(is_reference_error(&failed(Phase::Guest, "ReferenceError: 'x' is not defined")));
        assert!(!is_reference_error(&failed(Phase::Guest, "TypeError: x is not a function")));
        assert!(!is_reference_error(&failed(Phase::Input, "ReferenceError: in the input")));
    }
}
