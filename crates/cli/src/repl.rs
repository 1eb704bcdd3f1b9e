//! `codemode repl`: each entry is a cell in one session.
//!
//! A cell may span lines: a line ending in `\` continues, and a line with
//! unbalanced brackets keeps the entry open until they balance. `:wait`
//! resumes the last parked cell, `:abort` aborts it, `:history` lists the
//! entries so far, `:quit` (or end of input) leaves.

use std::io::{IsTerminal, Write};

use anyhow::Result;
use codemode_runtime::{CodeMode, Exec};
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::output::{print_result, with_spinner};

/// Whether `code` has more opening than closing brackets (outside strings).
fn is_open(code: &str) -> bool {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in code.chars() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    depth > 0 || quote == Some('`')
}

pub(crate) async fn run(rt: &CodeMode) -> Result<()> {
    let interactive = std::io::stdin().is_terminal();
    let reply = rt.session("repl").reply("repl");
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut history: Vec<String> = Vec::new();
    let mut last_run: Option<String> = None;
    let mut entry = String::new();
    loop {
        if interactive {
            print!("{}", if entry.is_empty() { "codemode> " } else { "...> " });
            let _ = std::io::stdout().flush();
        }
        let Some(line) = lines.next_line().await? else { break };
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
                ":wait" | ":abort" => {
                    let Some(run_id) = last_run.clone() else {
                        println!("no parked cell");
                        continue;
                    };
                    let result = if line.trim() == ":wait" {
                        let waiting =
                            codemode_runtime::CellResult::input_error(codemode_runtime::ErrorCode::InvalidInput, "");
                        with_spinner(&waiting, reply.wait(&run_id), false).await?
                    } else {
                        reply.abort(&run_id).await?
                    };
                    last_run = result.run_id().map(str::to_owned);
                    print_result(&result, false);
                    continue;
                }
                _ => {}
            }
        }
        let (text, continued) = match line.strip_suffix('\\') {
            Some(head) => (head, true),
            None => (line.as_str(), false),
        };
        entry.push_str(text);
        entry.push('\n');
        if continued || is_open(&entry) {
            continue;
        }
        let code = std::mem::take(&mut entry);
        history.push(code.trim_end().to_owned());
        let result = reply.exec(Exec::code(code)).await?;
        last_run = result.run_id().map(str::to_owned);
        print_result(&result, false);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unbalanced_brackets_keep_the_entry_open() {
        assert!(is_open("for (let i = 0; i < 2; i++) {"));
        assert!(!is_open("return [1, 2]"));
        assert!(!is_open("text('{')"));
        assert!(is_open("const s = `a"));
    }
}
