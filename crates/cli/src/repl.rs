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
use codemode_runtime::{CellResult, CodeMode, Exec, Phase, Reply};
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
    let reply = rt.session("repl").reply("repl");
    let mut input = Input::open(interactive, options.history_size)?;
    let mut file = HistoryFile::resolve(options.history, interactive);
    file.load(input.history());
    let mut history: Vec<String> = Vec::new();
    let mut last_run: Option<String> = None;
    let mut entry = Entry::default();
    loop {
        let prompt = if entry.is_empty() { PROMPT } else { CONTINUATION_PROMPT };
        let line = match input.read(prompt).await? {
            Read::Line(line) => line,
            Read::Interrupted => {
                entry.clear();
                continue;
            }
            Read::End => {
                // An entry still open at the end runs anyway, so its syntax
                // error is reported rather than dropped without a word.
                if !entry.is_empty() {
                    let code = entry.take();
                    run_entry(&reply, &mut input, &mut file, &mut history, &mut last_run, code).await?;
                }
                break;
            }
        };
        if entry.is_empty() {
            match line.trim() {
                "" => continue,
                ":quit" | ":q" => break,
                ":history" => {
                    for (i, h) in history.iter().enumerate() {
                        println!("{:>3}  {}", i + 1, h.replace('\n', "\n     "));
                    }
                    continue;
                }
                command @ (":wait" | ":abort") => {
                    let Some(run_id) = last_run.clone() else {
                        println!("no parked cell");
                        continue;
                    };
                    let result = if command == ":wait" {
                        let waiting = CellResult::input_error(codemode_runtime::ErrorCode::InvalidInput, String::new());
                        with_spinner(&waiting, reply.wait(&run_id), false).await?
                    } else {
                        reply.abort(&run_id).await?
                    };
                    last_run = result.run_id().map(str::to_owned);
                    report(&result);
                    continue;
                }
                _ => {}
            }
        }
        if let Some(code) = entry.push(&line) {
            run_entry(&reply, &mut input, &mut file, &mut history, &mut last_run, code).await?;
        }
    }
    Ok(())
}

/// Runs one complete entry as a cell, records it and prints its result.
async fn run_entry(
    reply: &Reply,
    input: &mut Input,
    file: &mut HistoryFile,
    history: &mut Vec<String>,
    last_run: &mut Option<String>,
    code: String,
) -> Result<()> {
    let text = code.trim_end().to_owned();
    file.record(input.history(), &text);
    history.push(text);
    let result = reply.exec(Exec::code(code)).await?;
    *last_run = result.run_id().map(str::to_owned);
    report(&result);
    Ok(())
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
            code: codemode_runtime::ErrorCode::InternalError,
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
