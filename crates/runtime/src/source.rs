//! Admission checks on cell source, before anything runs.
//!
//! Models sometimes send shell commands or Node-style module code. Both are
//! rejected with a message that says what to write instead, so the model
//! does not burn turns retrying (reference issue #113069).

/// The file name guest frames are reported under.
pub(crate) const USER_FILE: &str = "user.js";

/// Lines the wrapper adds before the user's first line.
pub(crate) const WRAPPER_LINES: u32 = 1;

/// Why source was refused before running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SourceRefusal {
    /// It looks like a shell command.
    Shell,
    /// It imports or requires modules.
    Module,
}

impl SourceRefusal {
    pub(crate) fn message(&self) -> &'static str {
        match self {
            Self::Shell => {
                "code-mode exec runs JavaScript, not shell commands. Write a JavaScript async function body: \
                 call an enabled async tool global (e.g. `return await read({path: \"README.md\"})`), and use \
                 catalog.search(query) when the quick index omits the tool. Do not retry the same shell command as code."
            }
            Self::Module => {
                "code mode module access is disabled: `import`, `require` and dynamic `import()` are not available. \
                 Call the enabled async tool globals directly, or find one with catalog.search(query)."
            }
        }
    }
}

/// Wraps cell source as an async function expression, so `return` and
/// top-level `await` work and a trailing expression is not the value.
pub(crate) fn wrap(code: &str) -> String {
    let mut s = String::with_capacity(code.len() + 32);
    s.push_str("(async function () {\n");
    s.push_str(code);
    s.push_str("\n})");
    s
}

/// Checks source before it is compiled.
pub(crate) fn check(code: &str) -> Result<(), SourceRefusal> {
    if uses_modules(&strip_strings_and_comments(code)) {
        return Err(SourceRefusal::Module);
    }
    if looks_like_shell(code) {
        return Err(SourceRefusal::Shell);
    }
    Ok(())
}

const SHELL_COMMANDS: &[&str] = &[
    "apt", "apt-get", "awk", "bash", "brew", "cargo", "cat", "cd", "chmod", "chown", "cp", "curl", "df", "docker",
    "du", "echo", "env", "export", "find", "git", "grep", "head", "kill", "kubectl", "less", "ls", "make", "mkdir",
    "mv", "node", "npm", "npx", "pip", "pip3", "pnpm", "ps", "pwd", "python", "python3", "rg", "rm", "sed", "sh",
    "sort", "sudo", "tail", "tar", "touch", "uname", "wc", "wget", "which", "whoami", "yarn", "zsh",
];

/// True when every non-empty line reads as a shell command line: a known
/// command word followed by shell-style arguments, with none of the
/// punctuation that JavaScript statements need.
fn looks_like_shell(code: &str) -> bool {
    let mut lines = code.lines().map(str::trim).filter(|l| !l.is_empty()).peekable();
    if lines.peek().is_none() {
        return false;
    }
    lines.all(|line| {
        if line.starts_with("#!") {
            return true;
        }
        let line = line.strip_prefix("$ ").unwrap_or(line);
        let word = line.split_whitespace().next().unwrap_or("");
        if !SHELL_COMMANDS.contains(&word) {
            return false;
        }
        let rest = &line[word.len()..];
        // A bare word (`ls`, `pwd`) or shell-shaped arguments; JavaScript
        // would need calls, assignments, blocks or statement ends.
        !rest.contains(['(', ')', '{', '}', ';', '='])
            && !rest.trim_start().starts_with(['.', '['])
            && !rest.contains("=>")
    })
}

/// Source with string, template and comment bodies blanked out, so a
/// keyword inside a string is not mistaken for code.
fn strip_strings_and_comments(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
                out.push(' ');
            }
            '"' | '\'' | '`' => {
                let quote = c;
                let mut escaped = false;
                for c in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == quote {
                        break;
                    }
                }
                out.push_str("\"\"");
            }
            _ => out.push(c),
        }
    }
    out
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Finds `word` as a whole identifier and returns what follows it.
fn word_followers<'a>(code: &'a str, word: &'a str) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
    code.match_indices(word).filter_map(move |(i, _)| {
        let before = code[..i].chars().next_back();
        let after = &code[i + word.len()..];
        let boundary_before = before.is_none_or(|c| !is_ident_char(c) && c != '.');
        let boundary_after = after.chars().next().is_none_or(|c| !is_ident_char(c));
        (boundary_before && boundary_after).then(|| (&code[..i], after.trim_start()))
    })
}

fn uses_modules(code: &str) -> bool {
    let dynamic_or_static_import = word_followers(code, "import").any(|(before, after)| {
        let at_statement_start = before.trim_end().is_empty() || before.trim_end().ends_with([';', '\n', '}', '{']);
        after.starts_with('(')
            || (at_statement_start
                && !type_only_import(after)
                && (after.starts_with(['{', '*', '"']) || after.chars().next().is_some_and(is_ident_char)))
    });
    let require = word_followers(code, "require").any(|(_, after)| after.starts_with('('));
    let export = word_followers(code, "export").any(|(before, after)| {
        (before.trim_end().is_empty() || before.trim_end().ends_with([';', '\n', '}']))
            && (after.starts_with(['{', '*'])
                || after.starts_with("default")
                || after.starts_with("const")
                || after.starts_with("function"))
    });
    dynamic_or_static_import || require || export
}

/// Whether the `import` that `after` follows is `import type { … }` or
/// `import type X`: no module is loaded, and a TypeScript cell has it
/// erased (in a build with TypeScript support).
fn type_only_import(after: &str) -> bool {
    if !cfg!(feature = "typescript") {
        return false;
    }
    let Some(rest) = after.strip_prefix("type") else { return false };
    let names = rest.trim_start();
    // `import type from "m"` imports a value named `type`.
    let word_end = names.find(|c: char| !is_ident_char(c)).unwrap_or(names.len());
    rest.starts_with(char::is_whitespace)
        && (names.starts_with(['{', '*']) || (word_end > 0 && &names[..word_end] != "from"))
}

/// Maps a `user.js:LINE:COL` location in wrapped source back to the user's
/// 1-based line.
pub(crate) fn user_line(wrapped_line: u32) -> u32 {
    wrapped_line.saturating_sub(WRAPPER_LINES).max(1)
}

/// The first `LINE:COL` of a user frame in `stack`, in the wrapped source.
pub(crate) fn first_wrapped_location(stack: &str) -> Option<(u32, u32)> {
    let needle = format!("{USER_FILE}:");
    let at = stack.find(&needle)?;
    let rest = &stack[at + needle.len()..];
    let mut parts = rest.split(|c: char| !c.is_ascii_digit());
    let line: u32 = parts.next()?.parse().ok()?;
    let col: u32 = parts.next()?.parse().ok()?;
    Some((line, col))
}

/// Where the engine's positions in a cell's compiled source are in the
/// cell as written. Lines never move (the wrapper adds one before the
/// cell, and stripped TypeScript keeps every line); columns move only on a
/// line whose erased types held non-ASCII text, which the stripper blanks
/// one space per UTF-16 unit while the engine counts bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Positions {
    /// Wrapped line number → (line as written, line as compiled), for the
    /// lines whose byte lengths differ.
    moved: Vec<(u32, String, String)>,
}

impl Positions {
    /// The positions of `compiled`, stripped from `written` (both wrapped).
    #[cfg(any(feature = "typescript", test))]
    pub(crate) fn stripped(written: &str, compiled: &str) -> Self {
        let moved = written
            .lines()
            .zip(compiled.lines())
            .enumerate()
            .filter(|(_, (w, c))| w.len() != c.len())
            .map(|(i, (w, c))| (u32::try_from(i + 1).unwrap_or(u32::MAX), w.to_owned(), c.to_owned()))
            .collect();
        Self { moved }
    }

    /// `(line, col)` in the wrapped compiled source, as the user's line and
    /// the column in the cell as written.
    pub(crate) fn user(&self, line: u32, col: u32) -> (u32, u32) {
        let col = match self.moved.iter().find(|(l, ..)| *l == line) {
            Some((_, written, compiled)) => written_column(written, compiled, col),
            None => col,
        };
        (user_line(line), col)
    }

    /// Rewrites a QuickJS stack so that it shows only user frames, at
    /// their positions in the cell as written.
    pub(crate) fn user_frames(&self, stack: &str) -> Vec<String> {
        let needle = format!("{USER_FILE}:");
        stack
            .lines()
            .filter_map(|line| {
                let at = line.find(&needle)?;
                let rest = &line[at + needle.len()..];
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let wrapped: u32 = digits.parse().ok()?;
                let mut tail = &rest[digits.len()..];
                let mut col = None;
                if let Some(after) = tail.strip_prefix(':') {
                    let c: String = after.chars().take_while(char::is_ascii_digit).collect();
                    if let Ok(n) = c.parse::<u32>() {
                        col = Some(n);
                        tail = &after[c.len()..];
                    }
                }
                let head = line[..at].trim();
                let mapped = match col {
                    Some(c) => {
                        let (l, c) = self.user(wrapped, c);
                        format!("{head}{USER_FILE}:{l}:{c}{tail}")
                    }
                    None => format!("{head}{USER_FILE}:{}{tail}", user_line(wrapped)),
                };
                Some(format!("    {}", mapped.trim()))
            })
            .collect()
    }
}

/// The byte column (1-based) in `written` of byte column `col` in
/// `compiled`, a copy of it whose erased text is one space per UTF-16 unit.
fn written_column(written: &str, compiled: &str, col: u32) -> u32 {
    let mut b = (col.max(1) as usize - 1).min(compiled.len());
    while !compiled.is_char_boundary(b) {
        b -= 1;
    }
    let units: usize = compiled[..b].encode_utf16().count();
    let mut seen = 0;
    for (i, c) in written.char_indices() {
        if seen >= units {
            return u32::try_from(i + 1).unwrap_or(u32::MAX);
        }
        seen += c.len_utf16();
    }
    u32::try_from(written.len() + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_shaped_source_is_refused() {
        for s in ["ls -la", "cat file | grep x", "pwd", "$ git status", "ls\ncd /tmp && ls -la", "#!/bin/bash\necho hi"]
        {
            assert_eq!(check(s), Err(SourceRefusal::Shell), "{s}");
        }
    }

    #[test]
    fn javascript_that_starts_with_a_command_word_is_accepted() {
        for s in ["return 1", "cat()", "const ls = 1; return ls", "find({path: 'x'})", "echo = 3", "text(\"ls -la\")"] {
            assert_eq!(check(s), Ok(()), "{s}");
        }
    }

    #[test]
    fn module_syntax_is_refused_but_words_in_strings_are_not() {
        for s in [
            "import fs from \"fs\"; return 1",
            "const fs = require(\"fs\")",
            "return await import(\"fs\")",
            "import * as x from 'y'",
            "export default 1",
        ] {
            assert_eq!(check(s), Err(SourceRefusal::Module), "{s}");
        }
        for s in [
            "text('import x from y')",
            "// require('fs')\nreturn 1",
            "const important = 1; return important",
            "return obj.import(1)",
        ] {
            assert_eq!(check(s), Ok(()), "{s}");
        }
    }

    #[test]
    fn type_only_imports_load_no_module_and_are_left_to_the_stripper() {
        let typed = ["import type { Row } from './api'; return 1", "import type Row from 'api'\nreturn 1"];
        let expected = if cfg!(feature = "typescript") { Ok(()) } else { Err(SourceRefusal::Module) };
        for s in typed {
            assert_eq!(check(s), expected, "{s}");
        }
        for s in ["import type from 'api'", "import typeface from 'fonts'", "import { type Row } from 'api'"] {
            assert_eq!(check(s), Err(SourceRefusal::Module), "{s}");
        }
    }

    #[test]
    fn stack_frames_are_mapped_to_user_lines() {
        let stack = "    at f (user.js:3:5)\n    at run (codemode:prelude:10:2)\n    at <anonymous> (user.js:4:1)\n";
        let positions = Positions::default();
        assert_eq!(positions.user_frames(stack), vec!["    at f (user.js:2:5)", "    at <anonymous> (user.js:3:1)"]);
        assert_eq!(first_wrapped_location(stack), Some((3, 5)));
    }

    #[test]
    fn columns_after_erased_non_ascii_types_are_the_written_ones() {
        // `: "é"` erased as one space per UTF-16 unit: the compiled line is
        // one byte shorter before `z`.
        let written = wrap("let a: \"é\" = 1; z.x");
        let compiled = wrap("let a      = 1; z.x");
        let positions = Positions::stripped(&written, &compiled);
        let z_compiled = u32::try_from(compiled.lines().nth(1).unwrap().find('z').unwrap() + 1).unwrap();
        let z_written = u32::try_from(written.lines().nth(1).unwrap().find('z').unwrap() + 1).unwrap();
        assert_eq!(positions.user(2, z_compiled), (1, z_written));
        assert_eq!(Positions::default().user(2, 7), (1, 7));
    }
}
