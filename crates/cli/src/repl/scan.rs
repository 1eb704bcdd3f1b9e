//! When a REPL entry is complete: a small bracket scanner for JavaScript.
//!
//! An entry continues while a `(`, `[` or `{` is open. Brackets inside
//! string literals, template literals (but not inside their `${…}`
//! holes), regular-expression literals and comments do not count.
//!
//! Why not a library: rustyline's `MatchingBracketValidator` counts every
//! bracket, quoted or not, and a real JavaScript parser (swc, oxc, boa)
//! would be a large dependency to answer one question about an entry that
//! QuickJS parses anyway. This scanner only has to tell "still open" from
//! "ready to run": whatever it gets wrong in a broken entry, the engine
//! reports as a syntax error when the entry runs.
//!
//! It is one pass over the bytes (every character it looks at is ASCII, and
//! no byte of a multi-byte UTF-8 character is ASCII), so it is linear in the
//! entry's length, allocates at most one stack slot per byte, and never
//! panics.

/// What the scanner made of an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Balance {
    /// Every bracket, template literal and block comment is closed.
    Complete,
    /// Something is still open: the entry continues on the next line.
    Open,
    /// A closing bracket with no matching opener: the entry is submitted as
    /// it is, for the engine to report the syntax error.
    Unbalanced,
}

impl Balance {
    /// Whether the entry is ready to run (complete, or broken beyond what
    /// more lines could fix).
    pub(crate) fn submits(self) -> bool {
        self != Self::Open
    }
}

/// What is open at a point of the scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Open {
    /// `(`, `[` or `{`, by its byte.
    Bracket(u8),
    /// The text of a template literal, after its opening backtick.
    Template,
    /// A `${` hole of a template literal: code until its `}`.
    Hole,
}

/// What the last significant token was, to tell a regular expression's
/// `/` from division.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// An operand ends here (a name, a number, a literal, `)`, `]`): a
    /// `/` divides.
    Operand,
    /// An operator, an opening bracket, a keyword such as `return`, or the
    /// start: a `/` starts a regular expression.
    Operator,
}

/// Keywords after which a `/` starts a regular expression rather than
/// dividing.
const REGEX_AFTER: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"instanceof",
    b"in",
    b"of",
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"case",
    b"do",
    b"else",
    b"yield",
    b"await",
];

/// Scans `code` and says whether it is complete.
pub(crate) fn balance(code: &str) -> Balance {
    let b = code.as_bytes();
    let mut stack: Vec<Open> = Vec::new();
    let mut prev = Prev::Operator;
    let mut i = 0;
    while i < b.len() {
        if stack.last() == Some(&Open::Template) {
            match b[i] {
                b'\\' => i += 1,
                b'`' => {
                    stack.pop();
                    prev = Prev::Operand;
                }
                b'$' if b.get(i + 1) == Some(&b'{') => {
                    stack.push(Open::Hole);
                    prev = Prev::Operator;
                    i += 1;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        let c = b[i];
        match c {
            b'\'' | b'"' => {
                i = skip_string(b, i);
                prev = Prev::Operand;
                continue;
            }
            b'`' => {
                stack.push(Open::Template);
                prev = Prev::Operator;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = skip_line(b, i);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => match find(b, i + 2, b"*/") {
                Some(end) => {
                    i = end + 2;
                    continue;
                }
                // A block comment still being typed.
                None => return Balance::Open,
            },
            b'/' if prev == Prev::Operator => {
                i = skip_regex(b, i);
                prev = Prev::Operand;
                continue;
            }
            b'(' | b'[' | b'{' => {
                stack.push(Open::Bracket(c));
                prev = Prev::Operator;
            }
            b')' | b']' | b'}' => {
                let closes = match stack.pop() {
                    Some(Open::Bracket(open)) => matches!((open, c), (b'(', b')') | (b'[', b']') | (b'{', b'}')),
                    Some(Open::Hole) => c == b'}',
                    Some(Open::Template) | None => false,
                };
                if !closes {
                    return Balance::Unbalanced;
                }
                // After a hole's `}` the scan is back in template text.
                // After `)`, `]` or `}` a `/` usually divides; the
                // exceptions (`if (c) /re/.test(s)`, a regex opening a
                // statement after a block) are rare, and a misread only
                // affects brackets inside that regex.
                prev = Prev::Operand;
            }
            _ if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                    i += 1;
                }
                let word = &b[start..i];
                prev = if REGEX_AFTER.contains(&word) { Prev::Operator } else { Prev::Operand };
                continue;
            }
            _ if c.is_ascii_whitespace() => {}
            // Non-ASCII bytes are parts of names (or of stray characters
            // the engine will report).
            _ if !c.is_ascii() => prev = Prev::Operand,
            _ => prev = Prev::Operator,
        }
        i += 1;
    }
    if stack.is_empty() { Balance::Complete } else { Balance::Open }
}

/// The index just past the string literal starting with the quote at
/// `start`. A newline not escaped ends it too: such a literal is a syntax
/// error, and letting it run on would swallow the rest of the entry.
fn skip_string(b: &[u8], start: usize) -> usize {
    let quote = b[start];
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The index of the newline ending the line comment at `start` (or the end).
fn skip_line(b: &[u8], start: usize) -> usize {
    find(b, start, b"\n").unwrap_or(b.len())
}

/// The index just past the regular-expression literal starting with the
/// `/` at `start`: its closing `/` outside a `[…]` class, or the end of the
/// line (an unterminated literal is the engine's syntax error).
fn skip_regex(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    let mut in_class = false;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\n' => return i,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'/' if !in_class => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The first index at or after `from` where `needle` starts.
fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| p + from)
}

/// An entry being typed, one line at a time.
#[derive(Debug, Default)]
pub(crate) struct Entry {
    code: String,
}

impl Entry {
    /// Whether no line of the entry has been given yet.
    pub(crate) fn is_empty(&self) -> bool {
        self.code.is_empty()
    }

    /// Adds `line`; returns the whole entry when it is ready to run. A line
    /// ending in `\` continues the entry whatever the brackets say (the
    /// backslash is dropped).
    pub(crate) fn push(&mut self, line: &str) -> Option<String> {
        let (text, continued) = match line.strip_suffix('\\') {
            Some(head) => (head, true),
            None => (line, false),
        };
        self.code.push_str(text);
        self.code.push('\n');
        if continued || !balance(&self.code).submits() {
            return None;
        }
        Some(std::mem::take(&mut self.code))
    }

    /// Takes the entry as typed so far, complete or not.
    pub(crate) fn take(&mut self) -> String {
        std::mem::take(&mut self.code)
    }

    /// Drops what was typed so far.
    pub(crate) fn clear(&mut self) {
        self.code.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn submits(code: &str) -> bool {
        balance(code).submits()
    }

    #[test]
    fn open_brackets_keep_the_entry_open_until_they_close() {
        assert_eq!(balance("for (let i = 0; i < 2; i++) {"), Balance::Open);
        assert_eq!(balance("function f() {\n  return [1,\n"), Balance::Open);
        assert_eq!(balance("function f() {\n  return [1,\n2] }\n"), Balance::Complete);
        assert_eq!(balance("return [1, 2]"), Balance::Complete);
        assert_eq!(balance(""), Balance::Complete);
    }

    #[test]
    fn a_closing_bracket_without_an_opener_submits_as_unbalanced() {
        assert_eq!(balance("return 1 }"), Balance::Unbalanced);
        assert_eq!(balance("f(1]"), Balance::Unbalanced);
        assert_eq!(balance("{ ( }"), Balance::Unbalanced);
    }

    #[test]
    fn brackets_inside_strings_do_not_count() {
        assert!(submits("text('{')"));
        assert!(submits(r#"text("(((", '[[')"#));
        assert!(submits(r#"text("a \" {")"#));
        assert!(submits(r"text('it\'s [')"));
    }

    #[test]
    fn an_unterminated_quote_ends_at_the_newline() {
        // The quote's `{` does not count, the call's `(` still does.
        assert_eq!(balance("text('{\n"), Balance::Open);
        assert_eq!(balance("text('x\n)"), Balance::Complete);
    }

    #[test]
    fn brackets_inside_comments_do_not_count() {
        assert!(submits("return 1 // (\n"));
        assert!(submits("/* { [ ( */ return 1"));
        assert!(submits("f(/* ) */)"));
    }

    #[test]
    fn typescript_types_hold_an_entry_open_only_by_their_brackets() {
        assert_eq!(balance("interface Row {\n  id: number;\n"), Balance::Open);
        assert_eq!(balance("interface Row {\n  id: number;\n}\n"), Balance::Complete);
        assert!(submits("const ids: Array<number> = [1]; return ids as number[]"));
        assert_eq!(balance("function first<T>(xs: T[]): T {"), Balance::Open);
        assert!(submits("const f = <T,>(x: T): T => x; return f<string>('a')!"));
    }

    #[test]
    fn an_unfinished_block_comment_keeps_the_entry_open() {
        assert_eq!(balance("/* a comment\n"), Balance::Open);
        assert_eq!(balance("/* a comment\n*/ 1\n"), Balance::Complete);
    }

    #[test]
    fn template_literals_hide_brackets_but_their_holes_do_not() {
        assert!(submits("return `{ ( [`"));
        assert_eq!(balance("return `a\nb"), Balance::Open);
        assert_eq!(balance("return `${f(`"), Balance::Open);
        assert_eq!(balance("return `${ {a: 1}.a }`"), Balance::Complete);
        assert_eq!(balance("return `${ `inner ${1}` } {`"), Balance::Complete);
        assert!(submits(r"return `\` {`"));
    }

    #[test]
    fn regular_expression_literals_hide_brackets_but_division_does_not() {
        assert!(submits("return /[(]/.test(s)"));
        assert!(submits("const r = /\\(/g"));
        assert!(submits("const r = /[/(]/"));
        assert_eq!(balance("const half = (a / 2"), Balance::Open);
        assert_eq!(balance("const x = f(a) / (b"), Balance::Open);
    }

    #[test]
    fn non_ascii_text_is_passed_over() {
        assert!(submits("text('héllo {') ; const ñ = 1"));
        assert_eq!(balance("const ñ = [\"ü\","), Balance::Open);
    }

    #[test]
    fn entries_continue_on_open_brackets_and_trailing_backslashes() {
        let mut entry = Entry::default();
        assert_eq!(entry.push("function f() {"), None);
        assert_eq!(entry.push("return 1 }"), Some("function f() {\nreturn 1 }\n".to_owned()));
        assert!(entry.is_empty());
        assert_eq!(entry.push("const a = 1 +\\"), None);
        assert_eq!(entry.push("2; return a"), Some("const a = 1 +\n2; return a\n".to_owned()));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// Any text, however broken, scans without panicking; a string
        /// literal's brackets never count; wrapping a complete entry in
        /// brackets opens it, and closing them again completes it.
        #[test]
        fn any_text_scans_without_panicking_and_brackets_nest(code in "[-a-z0-9 (){}\\[\\]'\"`/*\\\\$\n.é]{0,200}") {
            let _ = balance(&code);
            let clean: String = code.chars().filter(|c| c.is_alphanumeric() || *c == ' ' || "(){}[]".contains(*c)).collect();
            // Whatever brackets a string literal holds, it opens nothing.
            let quoted: String = code.chars().filter(|c| !"'\\\n".contains(*c)).collect();
            proptest::prop_assert_eq!(balance(&format!("text('{quoted}')")), Balance::Complete);
            if balance(&clean) == Balance::Complete {
                proptest::prop_assert_eq!(balance(&format!("f([{{{clean}")), Balance::Open);
                proptest::prop_assert_eq!(balance(&format!("f([{{{clean}}}])")), Balance::Complete);
            }
        }
    }
}
