//! TypeScript in cells: types are stripped, never compiled.
//!
//! Models write what the declarations they read teach them — annotations,
//! interfaces, generics, `as`, `!` — so a cell may be TypeScript. One rule
//! decides what a cell means: it is TypeScript when it parses as
//! TypeScript and stripping its types changes it; otherwise it is
//! JavaScript. A cell QuickJS cannot compile is stripped; so is one that
//! compiles but has the text of a generic call ([`may_be_a_generic_call`]:
//! `parse<Row>(text)` is comparisons in JavaScript), the one construct both
//! languages accept and read differently, so it means the call in every
//! cell, alone or beside other TypeScript. Other plain JavaScript never
//! meets the TypeScript parser. Stripping is `swc_ts_fast_strip`,
//! the stripper Node.js uses for `--experimental-strip-types`: it replaces
//! types with whitespace, so every line (and, for ASCII text, every
//! column) stays where the model wrote it, and errors point at the cell as
//! written. Syntax that needs code generated (`enum`, `namespace` with
//! values, parameter properties, decorators, `<T>x`) is refused with its
//! position and what to write instead: the stripper cannot transform it
//! without moving lines.
//!
//! The stripper's parser recurses once per nesting level of the input
//! (brackets, arrows, type arguments, unary chains: up to ~7.4 KiB of
//! stack per source byte in a debug build, ~1.6 KiB in a release build),
//! and a stack overflow aborts the process. A cell of up to
//! [`SMALL_CELL_BYTES`] — nearly every cell a model writes — is stripped
//! where it is, on a thread that declared the stack for it
//! ([`reserve_stack_for_small_cells`]: the JS threads, whose stacks hold
//! the worst such cell besides the deepest guest code); a larger one, up
//! to [`MAX_TYPESCRIPT_BYTES`], or one on any other thread, gets a thread
//! of its own with a 1 GiB stack, one such cell at a time, gone (stack
//! and all) when it is done.

#[cfg(feature = "typescript")]
use crate::source::WRAPPER_LINES;

/// The largest cell stripped of TypeScript types (64 KiB); a larger cell
/// must be JavaScript.
#[cfg(feature = "typescript")]
pub(crate) const MAX_TYPESCRIPT_BYTES: usize = 64 * 1024;

/// The stack of the thread a large cell is stripped on (reserved, not
/// used): the worst cell of [`MAX_TYPESCRIPT_BYTES`] needs under half of
/// it in a debug build (nested parentheses: ~7.4 KiB per byte) and a
/// tenth in a release build (~1.6 KiB per byte).
#[cfg(feature = "typescript")]
const LARGE_STACK_BYTES: usize = 1024 * 1024 * 1024;

/// Cells up to this size (wrapped) are stripped on the thread that asks,
/// if it declared the stack for it: the worst such cell touches under
/// 7 MiB of stack in a release build (less than the deepest guest code
/// may) and 30 MiB in a debug build.
#[cfg(feature = "typescript")]
pub(crate) const SMALL_CELL_BYTES: usize = 4 * 1024;

/// The stack a thread needs to strip small cells where they are: twice
/// the worst small cell in a debug build.
pub(crate) const STACK_FOR_SMALL_CELLS: usize = 64 * 1024 * 1024;

#[cfg(feature = "typescript")]
thread_local! {
    /// Whether this thread has [`STACK_FOR_SMALL_CELLS`] (less what it
    /// uses besides).
    static SMALL_CELLS_HERE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Declares that the calling thread was started with a stack of
/// [`STACK_FOR_SMALL_CELLS`] or more, so small cells are stripped on it
/// without the hand-off to a thread of their own (most of their cost).
pub(crate) fn reserve_stack_for_small_cells() {
    #[cfg(feature = "typescript")]
    SMALL_CELLS_HERE.with(|here| here.set(true));
}

/// Why a cell could not be stripped: where, and what the model should do.
#[cfg(feature = "typescript")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TsDiagnostic {
    /// 1-based line and column in the cell as written.
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// Valid TypeScript that type stripping cannot run (as opposed to a
    /// syntax error).
    pub unsupported: bool,
}

/// The wrapped cell with its types replaced by whitespace, or why not.
///
/// # Errors
/// The diagnostics of the stripper, mapped to the cell's own lines, with
/// guidance for constructs it cannot strip; a cell past
/// [`MAX_TYPESCRIPT_BYTES`] is not stripped.
#[cfg(feature = "typescript")]
pub(crate) fn strip(wrapped: &str) -> Result<String, Vec<TsDiagnostic>> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let refused = |message: String| Err(vec![TsDiagnostic { line: 1, column: 1, message, unsupported: false }]);
    if wrapped.len() > MAX_TYPESCRIPT_BYTES {
        return refused(format!(
            "the cell is not JavaScript, and at {} bytes it is past the {MAX_TYPESCRIPT_BYTES} bytes TypeScript \
             types are stripped from; write plain JavaScript",
            wrapped.len()
        ));
    }
    if wrapped.len() <= SMALL_CELL_BYTES && SMALL_CELLS_HERE.with(std::cell::Cell::get) {
        return strip_here(wrapped);
    }
    // Bounded: each waiting JS thread holds one cell.
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let source = wrapped.to_owned();
    let stripping = std::thread::Builder::new()
        .name("codemode-ts-strip".into())
        .stack_size(LARGE_STACK_BYTES)
        .spawn(move || strip_here(&source));
    match stripping.map(std::thread::JoinHandle::join) {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => refused("the TypeScript stripper failed on this cell; write plain JavaScript".to_owned()),
        Err(e) => refused(format!("the TypeScript stripper could not start ({e}); write plain JavaScript")),
    }
}

/// A stripped cell, or why it could not be stripped.
#[cfg(feature = "typescript")]
type Stripped = Result<String, Vec<TsDiagnostic>>;

/// [`strip`] on this thread.
#[cfg(feature = "typescript")]
fn strip_here(wrapped: &str) -> Stripped {
    use std::sync::{Arc, Mutex};

    use swc_common::errors::{DiagnosticBuilder, Emitter, HANDLER, Handler};
    use swc_common::sync::Lrc;
    use swc_common::{GLOBALS, SourceMap};
    use swc_ts_fast_strip::{ErrorCode as TsErrorCode, Mode, Options, operate};

    struct Collect {
        cm: Lrc<SourceMap>,
        user_lines: u32,
        out: Arc<Mutex<Vec<TsDiagnostic>>>,
        source: Arc<str>,
    }

    impl Emitter for Collect {
        fn emit(&mut self, db: &mut DiagnosticBuilder<'_>) {
            let at = db.span.primary_span().and_then(|sp| self.cm.try_lookup_char_pos(sp.lo()).ok());
            let (line, column, at_char) = at.map_or((1, 1, None), |loc| {
                let wrapped_line = u32::try_from(loc.line).unwrap_or(u32::MAX);
                let line = wrapped_line.saturating_sub(WRAPPER_LINES).clamp(1, self.user_lines.max(1));
                // Past the cell's last line is the wrapper's: the end of input.
                let past_end = wrapped_line > self.user_lines + WRAPPER_LINES;
                let column = if past_end { 1 } else { u32::try_from(loc.col.0).unwrap_or(u32::MAX) + 1 };
                let at_char = (!past_end)
                    .then(|| self.source.lines().nth(loc.line.saturating_sub(1)))
                    .flatten()
                    .and_then(|l| l.chars().nth(loc.col.0));
                (line, column, at_char)
            });
            let message = guidance(&db.message(), at_char);
            self.out.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(TsDiagnostic {
                line,
                column,
                message,
                unsupported: false,
            });
        }
    }

    let user_lines = u32::try_from(wrapped.lines().count()).unwrap_or(u32::MAX).saturating_sub(WRAPPER_LINES + 1);
    let cm: Lrc<SourceMap> = Lrc::default();
    let out = Arc::new(Mutex::new(Vec::new()));
    let emitter = Collect { cm: cm.clone(), user_lines, out: Arc::clone(&out), source: Arc::from(wrapped) };
    let handler = Handler::with_emitter(false, false, Box::new(emitter));
    let options = Options { module: Some(false), mode: Mode::StripOnly, ..Options::default() };
    let run = || {
        GLOBALS.set(&swc_common::Globals::default(), || {
            let source = erase_leading_type_imports(wrapped);
            HANDLER.set(&handler, || operate(&cm, &handler, source, options))
        })
    };
    // The stripper is third-party code fed guest input: a panic in it is
    // a refusal of this cell, never a crashed thread.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run));
    let mut diagnostics = std::mem::take(&mut *out.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    match result {
        Ok(Ok(output)) => Ok(output.code),
        Ok(Err(e)) => {
            let unsupported = matches!(e.code, TsErrorCode::UnsupportedSyntax);
            if diagnostics.is_empty() {
                diagnostics.push(TsDiagnostic { line: 1, column: 1, message: e.message, unsupported });
            }
            for d in &mut diagnostics {
                d.unsupported = unsupported;
            }
            Err(diagnostics)
        }
        Err(_) => Err(vec![TsDiagnostic {
            line: 1,
            column: 1,
            message: "the TypeScript stripper failed on this cell; write plain JavaScript".to_owned(),
            unsupported: false,
        }]),
    }
}

/// `wrapped` with the `import type … from "…";` statements its cell starts
/// with replaced by whitespace (newlines kept).
///
/// A cell is the body of a function, where the stripper (rightly) refuses
/// any `import`; a type-only import has no effect at run time, so one at
/// the top of a cell — where models put them — is erased like any other
/// type. Found with the stripper's own lexer, so strings, comments and
/// templates are read as TypeScript reads them.
#[cfg(feature = "typescript")]
fn erase_leading_type_imports(wrapped: &str) -> String {
    use swc_common::BytePos;
    use swc_ecma_parser::lexer::Lexer;
    use swc_ecma_parser::unstable::Token;
    use swc_ecma_parser::{StringInput, Syntax, TsSyntax};

    let body_start = wrapped.find('\n').map_or(wrapped.len(), |i| i + 1);
    let body = &wrapped[body_start..];
    if !body.contains("import") {
        return wrapped.to_owned();
    }
    // Spans count from 1 (0 is swc's "no position").
    let end = u32::try_from(body.len()).unwrap_or(u32::MAX).saturating_add(1);
    let input = StringInput::new(body, BytePos(1), BytePos(end));
    let mut tokens =
        Lexer::new(Syntax::Typescript(TsSyntax::default()), swc_ecma_ast::EsVersion::latest(), input, None)
            .map(|t| (t.token, t.span.lo.0.saturating_sub(1) as usize, t.span.hi.0.saturating_sub(1) as usize))
            .peekable();
    let mut erase: Vec<(usize, usize)> = Vec::new();
    // `import type <names> from "<module>" [;]`, one after another.
    'statements: while let Some(&(Token::Import, start, _)) = tokens.peek() {
        tokens.next();
        if !matches!(tokens.next(), Some((Token::Type, ..))) {
            break;
        }
        let mut previous = Token::Type;
        let end = loop {
            match tokens.next() {
                Some((Token::Str, _, end)) if previous == Token::From => break end,
                // `import type from "m"` imports a value named `type`.
                Some((Token::From, ..)) if previous == Token::Type => break 'statements,
                Some((token, ..)) if !matches!(token, Token::Import | Token::Semi) => previous = token,
                _ => break 'statements,
            }
        };
        let end = match tokens.peek() {
            Some(&(Token::Semi, _, semi_end)) => {
                tokens.next();
                semi_end
            }
            _ => end,
        };
        erase.push((body_start + start, body_start + end));
    }
    if erase.is_empty() {
        return wrapped.to_owned();
    }
    // Byte for byte, as the stripper erases: columns stay where they were.
    let mut out = String::with_capacity(wrapped.len());
    let mut at = 0;
    for (start, end) in erase {
        // Token spans are on character boundaries.
        let (Some(kept), Some(erased)) = (wrapped.get(at..start), wrapped.get(start..end)) else { continue };
        out.push_str(kept);
        for c in erased.chars() {
            match c {
                '\n' | '\r' => out.push(c),
                _ => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
            }
        }
        at = end;
    }
    out.push_str(wrapped.get(at..).unwrap_or_default());
    out
}

/// Whether stripping could change what a cell that compiles as JavaScript
/// means: a scan for the text of the one construct both languages accept
/// and read differently, a generic call (`f<T>(x)`, `` f<T>`x` ``) — a `<`
/// and, after it, a `>` (not of `=>`) followed by `(` or a template, with
/// whitespace or comments between. Strings and comments are not told from
/// code: a false hit costs one strip that changes nothing. Plain
/// JavaScript with no such text (most: a few comparisons and arrows) skips
/// the TypeScript parser; the scan is one pass over the bytes.
#[cfg(feature = "typescript")]
pub(crate) fn may_be_a_generic_call(wrapped: &str) -> bool {
    let bytes = wrapped.as_bytes();
    let Some(first_lt) = bytes.iter().position(|&b| b == b'<') else { return false };
    let mut i = first_lt + 1;
    while i < bytes.len() {
        if bytes[i] != b'>' || bytes[i - 1] == b'=' {
            i += 1;
            continue;
        }
        // What follows the `>`, past whitespace and comments (the scan
        // goes on after them: nothing in them is code).
        i += 1;
        loop {
            match bytes.get(i..).unwrap_or_default() {
                [b' ' | b'\t' | b'\n' | b'\r', ..] => i += 1,
                [b'/', b'*', ..] => {
                    i = wrapped[i + 2..].find("*/").map_or(bytes.len(), |end| i + 2 + end + 2);
                }
                [b'/', b'/', ..] => i = wrapped[i..].find('\n').map_or(bytes.len(), |end| i + end),
                [b'(' | b'`', ..] => return true,
                _ => break,
            }
        }
    }
    false
}

/// Strips `code` (a cell) and returns the stripped source's length:
/// `here`, on the calling thread, as a JS thread strips a small cell;
/// otherwise on a thread of its own, as a large cell is. Only for the
/// stripping micro-benchmark (`benches/typescript.rs`); `code` must not
/// nest deeper than the calling thread's stack holds. Not part of the API.
#[doc(hidden)]
#[cfg(feature = "typescript")]
pub fn bench_strip(code: &str, here: bool) -> usize {
    let wrapped = crate::source::wrap(code);
    let stripped = if here { strip_here(&wrapped) } else { strip(&wrapped) };
    stripped.map_or(0, |s| s.len())
}

/// Whether `code` (a cell) has the text of a generic call, as the engine
/// checks every cell before compiling it (the wrapper adds neither `<` nor
/// `>`, so the cell is scanned as it is). Only for the scan's
/// micro-benchmark (`benches/typescript.rs`). Not part of the API.
#[doc(hidden)]
#[cfg(feature = "typescript")]
pub fn bench_scan(code: &str) -> bool {
    may_be_a_generic_call(code)
}

/// The stripper's message, with what to write instead for the constructs
/// type stripping cannot run.
#[cfg(feature = "typescript")]
fn guidance(message: &str, at: Option<char>) -> String {
    let instead = if message.contains("enum") {
        Some(
            "TypeScript `enum` needs code generated, which codemode does not do; write a `const` object instead: \
              `const Color = { Red: \"Red\", Green: \"Green\" } as const;`",
        )
    } else if message.contains("namespace") || message.contains("module declaration") {
        Some("a TypeScript `namespace` with values needs code generated; use a plain object or top-level functions")
    } else if message.contains("parameter property") {
        Some(
            "constructor parameter properties (`constructor(private x: T)`) need code generated; declare the field \
              and assign it in the constructor: `x: T; constructor(x: T) { this.x = x; }`",
        )
    } else if at == Some('@') {
        Some("decorators are not supported; call the decorator function on the class or method instead")
    } else {
        None
    };
    match instead {
        Some(instead) => format!("{instead} ({message})"),
        None => message.to_owned(),
    }
}

/// Whether a cell that failed to compile looks like TypeScript: a cheap
/// scan for the syntax models write most (for the message of a build
/// without TypeScript support).
#[cfg(not(feature = "typescript"))]
pub(crate) fn looks_like_typescript(code: &str) -> bool {
    const MARKS: [&str; 12] = [
        ": string",
        ": number",
        ": boolean",
        ": any",
        ": unknown",
        "[]>",
        "interface ",
        "type ",
        " as const",
        " satisfies ",
        "!.",
        ": Promise<",
    ];
    MARKS.iter().any(|m| code.contains(m))
}

#[cfg(all(test, feature = "typescript"))]
mod tests {
    use super::*;
    use crate::source::wrap;

    fn strip_cell(code: &str) -> Result<String, Vec<TsDiagnostic>> {
        strip(&wrap(code)).inspect(|js| {
            assert_eq!(js.lines().count(), wrap(code).lines().count(), "lines moved");
        })
    }

    #[test]
    fn annotations_interfaces_generics_and_assertions_become_whitespace_in_place() {
        let code = "interface Row { id: number }\nconst rows: Row[] = [{ id: 1 }];\nreturn (rows[0] as Row).id!;";
        let js = strip_cell(code).unwrap();
        let lines: Vec<&str> = js.lines().collect();
        assert_eq!(lines[2].trim_end(), "const rows        = [{ id: 1 }];");
        assert_eq!(lines[3].trim_end(), "return (rows[0]       ).id ;");
    }

    #[test]
    fn type_only_imports_a_cell_starts_with_are_erased_in_place() {
        let code =
            "import type { Row } from \"./api\";\nimport type {\n  Id,\n} from './ids'\nconst r: Row = 1;\nreturn r;";
        let js = strip_cell(code).unwrap();
        let lines: Vec<&str> = js.lines().map(str::trim_end).collect();
        assert_eq!(&lines[1..6], ["", "", "", "", "const r      = 1;"], "{js}");
        // Not at the top, it is an `import` inside the cell's function.
        assert!(strip_cell("const a = 1;\nimport type { Row } from 'api';\nreturn a;").is_err());
        // A value import named `type` is not a type import.
        assert!(strip_cell("import type from 'api';\nreturn 1;").is_err());
    }

    #[test]
    fn plain_javascript_strips_to_itself() {
        let code = "const a = [1, 2].map((x) => x * 2);\nif (a[0] < 2 > 0) return a;\nreturn `t${a}`;";
        assert_eq!(strip_cell(code).unwrap(), wrap(code));
    }

    #[test]
    fn an_enum_is_refused_at_its_line_with_what_to_write_instead() {
        let err = strip_cell("const x = 1;\nenum Color { Red }\nreturn Color.Red;").unwrap_err();
        assert_eq!((err[0].line, err[0].column), (2, 1), "{err:?}");
        assert!(err[0].unsupported && err[0].message.contains("`const` object"), "{err:?}");
    }

    #[test]
    fn a_type_syntax_error_points_at_the_cell_as_written() {
        let err = strip_cell("const ok: number = 1;\nconst x: number = ;").unwrap_err();
        assert_eq!((err[0].line, err[0].column), (2, 19), "{err:?}");
        assert!(!err[0].unsupported);
    }

    /// A plain-JavaScript cell built from expressions models write,
    /// comparisons that read like type arguments (`a < b > (c)`) included.
    fn js_cell() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            (0u32..1000).prop_map(|n| n.to_string()),
            "[a-z]{1,6}".prop_map(|s| format!("'{s}'")),
            Just("v0".to_owned()),
            Just("v1".to_owned()),
        ];
        let expr = leaf.prop_recursive(4, 32, 3, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} + {b})")),
                (inner.clone(), inner.clone(), inner.clone()).prop_map(|(a, b, c)| format!("{a} < {b} > ({c})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("[{a}, {b}]")),
                inner.clone().prop_map(|a| format!("((x) => x)({a})")),
                inner.clone().prop_map(|a| format!("`t${{{a}}}`")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({{ k: {a}, j: {b} }})")),
                (inner.clone(), inner.clone(), inner).prop_map(|(a, b, c)| format!("({a} ? {b} : {c})")),
            ]
        });
        proptest::collection::vec(expr, 1..5).prop_map(|exprs| {
            let mut cell = "let v0 = 1, v1 = 'one';\n".to_owned();
            for (i, e) in exprs.iter().enumerate() {
                cell.push_str(&format!("const e{i} = {e};\n"));
            }
            cell.push_str("return [e0];");
            cell
        })
    }

    proptest::proptest! {
        /// Plain JavaScript without the text of a generic call pays
        /// nothing and changes nothing: the scan passes over it (it never
        /// meets the TypeScript parser), and stripping it would not change
        /// it anyway; only `a < b > (c)` reads differently as TypeScript.
        #[test]
        fn plain_javascript_cells_without_a_generic_call_are_never_stripped(cell in js_cell()) {
            let wrapped = wrap(&cell);
            let rt = rquickjs::Runtime::new().expect("runtime");
            let ctx = rquickjs::Context::full(&rt).expect("context");
            let compiles = ctx.with(|ctx| ctx.eval::<rquickjs::Value, _>(wrapped.as_str()).is_ok());
            proptest::prop_assert!(compiles, "not JavaScript: {cell}");
            if !cell.contains(" > (") {
                proptest::prop_assert!(!may_be_a_generic_call(&wrapped), "scanned as a generic call: {cell}");
                proptest::prop_assert_eq!(strip(&wrapped).ok(), Some(wrapped.clone()));
            }
        }
    }

    #[test]
    fn the_scan_finds_the_text_of_a_generic_call_and_passes_over_comparisons_and_arrows() {
        let hits = ["f<T>(x)", "f<T> (x)", "f<T>\n(x)", "f<T>/* c */ (x)", "f<T>// c\n(x)", "tag<T>`t`", "f<A<T>>(x)"];
        for code in hits {
            assert!(may_be_a_generic_call(&wrap(code)), "{code}");
        }
        let misses = [
            "return 1",
            "a < b > c",
            "a > (b)",
            "a <= b >= (c)",
            "if (a < b) g((x) => (x))",
            "a < b > -c",
            "f<T>/* (x)",
        ];
        for code in misses {
            assert!(!may_be_a_generic_call(&wrap(code)), "{code}");
        }
    }

    /// The worst nesting a cell of the bound can have, in each of its
    /// forms, at `size` bytes wrapped.
    fn deepest_cells(size: usize) -> [String; 7] {
        let room = size - wrap("").len() - "const x: number = ;".len() - 1;
        let n = |unit: &str| room / unit.len();
        [
            format!("const x: number = {}1{};", "(".repeat(n("()")), ")".repeat(n("()"))),
            format!("const x: number = {}1;", "x=>".repeat(n("x=>"))),
            format!("const x: number = {}1;", "!".repeat(n("!"))),
            format!("const x: number = {}1{};", "[".repeat(n("[]")), "]".repeat(n("[]"))),
            format!("const x: number = {}1;", "a?a:".repeat(n("a?a:"))),
            format!("const x: {}n{} = 1;", "A<".repeat(n("A<>")), ">".repeat(n("A<>"))),
            format!("const x: number = {}1{};", "`${".repeat(n("`${}`")), "}`".repeat(n("`${}`"))),
        ]
    }

    /// A thread with the stack for small cells strips the worst one where
    /// it is (an overflow would abort the test process).
    #[test]
    fn the_deepest_small_cell_strips_on_a_thread_with_the_stack_for_it() {
        let strips = std::thread::Builder::new()
            .stack_size(STACK_FOR_SMALL_CELLS)
            .spawn(|| {
                reserve_stack_for_small_cells();
                deepest_cells(SMALL_CELL_BYTES).iter().all(|cell| {
                    assert!(wrap(cell).len() <= SMALL_CELL_BYTES);
                    strip_cell(cell).is_ok()
                })
            })
            .unwrap();
        assert!(strips.join().unwrap());
    }

    /// The worst nesting a cell of the bound can have strips without
    /// overflowing a stack (it would abort the test process).
    #[test]
    fn the_deepest_cell_at_the_size_bound_strips_and_one_byte_over_is_refused() {
        for cell in deepest_cells(MAX_TYPESCRIPT_BYTES) {
            assert!(wrap(&cell).len() <= MAX_TYPESCRIPT_BYTES);
            assert!(strip_cell(&cell).is_ok(), "{}", &cell[..40]);
        }
        let wrapper = wrap("").len();
        let over = format!("const x: number = 1;{}", " ".repeat(MAX_TYPESCRIPT_BYTES - wrapper - 19));
        assert!(wrap(&over).len() == MAX_TYPESCRIPT_BYTES + 1);
        let err = strip_cell(&over).unwrap_err();
        assert!(err[0].message.contains("past the 65536 bytes"), "{err:?}");
    }
}
