//! Built-in workspace tools: paged reads, listings, find and grep, confined
//! to their root (GA-11.4, GA-12).

use std::path::PathBuf;

use codemode_runtime::CodeMode;
use codemode_tests::*;
use serde_json::json;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("codemode-ws-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn workspace_runtime(dir: &TempDir) -> CodeMode {
    codemode_tests::builder().workspace(&dir.0).start().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5_mib_file_read_page_by_page_joins_back_byte_identical_ga_12() {
    let dir = TempDir::new("read");
    // Lines of varied length, one line far longer than a page, and .env
    // content that must not be masked.
    let mut text = String::from("SECRET_TOKEN=abc123\n");
    let mut i = 0;
    while text.len() < 5 * 1024 * 1024 {
        text.push_str(&format!("line {i} {}\n", "é🦞x".repeat(i % 40)));
        if i == 5000 {
            text.push_str(&"L".repeat(200_000));
            text.push('\n');
        }
        i += 1;
    }
    std::fs::write(dir.0.join("big.txt"), &text).unwrap();
    let code = "let out = ''; let args = {path: 'big.txt'}; let pages = 0; let joinDirect = false; \
        while (true) { const p = await read(args); out += (pages > 0 && !joinDirect ? '\\n' : '') + p.content; pages++; \
          if (p.kind !== 'truncated') break; joinDirect = p.continuation.cursor !== undefined; args = p.continuation; } \
        const bytes = new TextEncoder().encode(out); let h = 0; for (const b of bytes) h = (h * 31 + b) >>> 0; \
        return [pages > 80, bytes.length, h, out.startsWith('SECRET_TOKEN=abc123')]";
    let limits = codemode_runtime::Limits { timeout: std::time::Duration::from_secs(60), ..Default::default() };
    let rt = codemode_tests::builder().limits(limits).workspace(&dir.0).start().await.unwrap();
    let results = run_to_end(&rt, code).await;
    let v = value(results.last().unwrap());
    let expected_hash = text.bytes().fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    assert_eq!(v, &json!([true, text.len(), expected_hash, true]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_respects_an_explicit_limit_and_reports_its_continuation_ga_12_4() {
    let dir = TempDir::new("limit");
    std::fs::write(dir.0.join("a.txt"), "one\ntwo\nthree").unwrap();
    let rt = workspace_runtime(&dir).await;
    let r = exec(&rt, "const p = await read({path: 'a.txt', limit: 2}); const q = await read(p.continuation); return [p.kind, p.content, p.continuation, q.kind, q.content]").await;
    assert_eq!(
        value(&r),
        &json!(["truncated", "one\ntwo", {"path": "a.txt", "offset": 3, "limit": 2}, "text", "three"])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_text_page_is_the_file_text_in_content_unmasked_with_notices_kept_out_of_the_data_ga_12_1() {
    let dir = TempDir::new("content");
    std::fs::write(dir.0.join(".env"), "API_KEY=sk-live-123\nMODE=prod").unwrap();
    let rt = workspace_runtime(&dir).await;
    let r = exec(&rt, "const p = await read({path: '.env'}); return [p.kind, p.content, Object.keys(p).sort()]").await;
    let v = value(&r);
    assert_eq!(v[0], "text");
    assert_eq!(v[1], "API_KEY=sk-live-123\nMODE=prod", "file text is returned as is, not secret-masked");
    let keys: Vec<&str> = v[2].as_array().unwrap().iter().filter_map(|k| k.as_str()).collect();
    assert!(!keys.iter().any(|k| k.contains("notice") || *k == "display"), "no paging notices in the data: {keys:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_truncated_page_says_so_in_kind_and_its_continuation_reads_the_next_page_ga_12_2() {
    let dir = TempDir::new("kind");
    let text: String = (1..=5000).map(|i| format!("line {i}\n")).collect();
    std::fs::write(dir.0.join("big.txt"), &text).unwrap();
    let rt = workspace_runtime(&dir).await;
    let r = exec(
        &rt,
        "let p = await read({path: 'big.txt'}); let all = ''; let pages = 0; \
         while (true) { pages++; all += p.content; if (p.kind !== 'truncated') break; \
         all += p.continuation.cursor === undefined ? '\\n' : ''; p = await read(p.continuation); } \
         return [pages, all.length]",
    )
    .await;
    let v = value(&r);
    assert!(v[0].as_u64().unwrap() >= 2, "the default page is smaller than 5,000 lines: {v}");
    assert_eq!(v[1].as_u64().unwrap() as usize, text.len(), "pages joined back are the file");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paths_that_escape_the_root_are_refused() {
    let dir = TempDir::new("escape");
    std::fs::write(dir.0.join("ok.txt"), "fine").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("/etc", dir.0.join("etc")).unwrap();
    let rt = workspace_runtime(&dir).await;
    let r = exec(
        &rt,
        "const tries = ['/etc/passwd', '../x', 'sub/../../x', 'etc/passwd']; const out = []; \
         for (const path of tries) { try { await read({path}); out.push('read!') } catch (e) { out.push(e.code) } } \
         try { await ls({path: '..'}) } catch (e) { out.push(e.code) } return out",
    )
    .await;
    assert_eq!(
        value(&r),
        &json!(["invalid_input", "invalid_input", "invalid_input", "invalid_input", "invalid_input"])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ls_pages_with_next_after_and_says_when_empty_ga_11_4() {
    let dir = TempDir::new("ls");
    for n in ["b.txt", "a.txt", "c.txt"] {
        std::fs::write(dir.0.join(n), n).unwrap();
    }
    std::fs::create_dir(dir.0.join("sub")).unwrap();
    std::fs::create_dir(dir.0.join("empty")).unwrap();
    let rt = workspace_runtime(&dir).await;
    let r = exec(
        &rt,
        "const p1 = await ls({limit: 2}); const p2 = await ls({after: p1.nextAfter, limit: 10}); \
        const e = await ls({path: 'empty'}); return [p1.content, p1.nextAfter, p2.content, p2.nextAfter, e.content]",
    )
    .await;
    assert_eq!(value(&r), &json!(["a.txt\nb.txt\n", "b.txt", "c.txt\nempty/\nsub/\n", null, "(empty directory)"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn find_and_grep_keep_limits_and_truncation_metadata_ga_11_4() {
    let dir = TempDir::new("find");
    std::fs::create_dir_all(dir.0.join("src/deep")).unwrap();
    std::fs::create_dir_all(dir.0.join("node_modules")).unwrap();
    for (p, t) in [
        ("src/a.rs", "fn main() {}\n// TODO one"),
        ("src/deep/b.rs", "// TODO two\n// todo three"),
        ("notes.md", "TODO md"),
        ("node_modules/x.rs", "TODO hidden"),
    ] {
        std::fs::write(dir.0.join(p), t).unwrap();
    }
    let rt = workspace_runtime(&dir).await;
    let r = exec(
        &rt,
        "const f = await find({pattern: '*.rs'}); const g = await grep({pattern: 'TODO', glob: '*.rs', limit: 1}); \
        const all = await grep({pattern: 'todo', ignoreCase: true}); const none = await grep({pattern: 'zebra'}); \
        const nf = await find({pattern: '*.py'}); \
        return [f.matches, f.truncated, g.matches, g.truncated, g.limit, all.matches.length, none.content, nf.content]",
    )
    .await;
    assert_eq!(
        value(&r),
        &json!([["src/a.rs", "src/deep/b.rs"], false, [{"path": "src/a.rs", "line": 2, "text": "// TODO one"}], true, 1, 4,
            "No matches for /zebra/.", "No files matched *.py."])
    );
}

fn mkfifo(path: &std::path::Path) {
    let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo failed");
}

/// Runs `call` (a guest expression that awaits a tool) and returns the
/// error's `[name, code, message]`, or `"resolved"`.
const CATCH: &str = "async function caught(f) { try { await f(); return 'resolved' } \
    catch (e) { return [e.name, e.code, e.message] } }";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn find_with_a_200000_star_pattern_is_refused_not_a_crash_ga_11_4() {
    let dir = TempDir::new("find-stars");
    std::fs::write(dir.0.join("a.rs"), "x").unwrap();
    let rt = workspace_runtime(&dir).await;
    // Before: the recursive matcher overflowed the stack and aborted the
    // whole process.
    let code = format!(
        "{CATCH} const e = await caught(() => find({{pattern: '*'.repeat(200000)}})); \
         const ok = await find({{pattern: '*.rs'}}); return [e, ok.matches]"
    );
    let r = exec(&rt, &code).await;
    let v = value(&r);
    assert_eq!(v[0][0], json!("TypeError"));
    assert_eq!(v[0][1], json!("input_contract"));
    let message = v[0][2].as_str().unwrap();
    assert!(message.contains("at most 1024 characters"), "{message}");
    assert_eq!(v[1], json!(["a.rs"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grep_with_a_200000_star_glob_is_refused_not_a_crash_ga_11_4() {
    let dir = TempDir::new("grep-stars");
    std::fs::write(dir.0.join("a.rs"), "needle").unwrap();
    let rt = workspace_runtime(&dir).await;
    let code = format!(
        "{CATCH} return [await caught(() => grep({{pattern: 'needle', glob: '*'.repeat(200000)}})), \
         await caught(() => grep({{pattern: 'needle', glob: '*'.repeat(10000) + 'x'}}))]"
    );
    let r = exec(&rt, &code).await;
    for e in value(&r).as_array().unwrap() {
        assert_eq!((&e[0], &e[1]), (&json!("TypeError"), &json!("input_contract")));
        assert!(e[2].as_str().unwrap().contains("at most 1024 characters"), "{e}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_glob_of_exactly_1024_characters_runs_and_1025_is_refused_ga_11_4() {
    let dir = TempDir::new("glob-limit");
    std::fs::write(dir.0.join(format!("{}x", "ab".repeat(100))), "needle").unwrap();
    std::fs::write(dir.0.join("other.txt"), "needle").unwrap();
    let rt = workspace_runtime(&dir).await;
    // `*` × 1023 then `x`: exponential for the old backtracking matcher.
    let code = format!(
        "{CATCH} const at = '*'.repeat(1023) + 'x'; const f = await find({{pattern: at}}); \
         const g = await grep({{pattern: 'needle', glob: at}}); \
         return [f.matches.length, g.matches.length, await caught(() => find({{pattern: at + 'x'}}))]"
    );
    let r = exec(&rt, &code).await;
    let v = value(&r);
    assert_eq!((&v[0], &v[1], &v[2][1]), (&json!(1), &json!(1), &json!("input_contract")));
    assert!(v[2][2].as_str().unwrap().contains("at most 1024 characters, got 1025"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reading_a_fifo_fails_promptly_and_leaves_the_tools_usable_ga_12() {
    let dir = TempDir::new("fifo");
    mkfifo(&dir.0.join("pipe"));
    std::fs::write(dir.0.join("ok.txt"), "fine").unwrap();
    // Before: each read blocked a thread forever and the cell timed out.
    let limits = codemode_runtime::Limits { timeout: std::time::Duration::from_secs(60), ..Default::default() };
    let rt = codemode_tests::builder().limits(limits).workspace(&dir.0).start().await.unwrap();
    let code = format!(
        "{CATCH} const errors = await Promise.all(Array.from({{length: 20}}, () => caught(() => read({{path: 'pipe'}})))); \
         const ok = await read({{path: 'ok.txt'}}); return [errors[0], new Set(errors.map(JSON.stringify)).size, ok.content]"
    );
    let r = exec(&rt, &code).await;
    assert_eq!(
        value(&r),
        &json!([
            ["Error", "invalid_input", "pipe is a FIFO, not a regular file; read opens only regular files"],
            1,
            "fine"
        ])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grep_and_find_report_the_files_they_skipped_instead_of_no_matches_ga_11_4() {
    let dir = TempDir::new("skipped");
    let mut big = "needle\n".repeat(10);
    big.push_str(&"x".repeat(9 * 1024 * 1024));
    std::fs::write(dir.0.join("big.log"), big).unwrap();
    std::fs::write(dir.0.join("blob.bin"), b"needle \xff\xfe").unwrap();
    mkfifo(&dir.0.join("pipe.log"));
    std::fs::write(dir.0.join("plain.txt"), "nothing here").unwrap();
    let rt = workspace_runtime(&dir).await;
    let r = exec(
        &rt,
        "const g = await grep({pattern: 'needle'}); const f = await find({pattern: '*.log'}); \
         return [g.content, g.matches, g.skipped, f.content, f.matches, f.skipped.count, f.skipped.notRegular]",
    )
    .await;
    let v = value(&r);
    // Before: "No matches for /needle/." and nothing else.
    assert_eq!(
        v[0],
        json!(
            "No matches for /needle/.\n[skipped 3 files: big.log (larger than 8 MiB), blob.bin (not UTF-8 text), \
             pipe.log (a FIFO)]"
        )
    );
    assert_eq!(v[1], json!([]));
    assert_eq!(
        v[2],
        json!({"count": 3, "tooLarge": 1, "notText": 1, "notRegular": 1, "unreadable": 0, "pathsTruncated": false,
            "paths": [{"path": "big.log", "reason": "larger than 8 MiB"}, {"path": "blob.bin", "reason": "not UTF-8 text"},
                {"path": "pipe.log", "reason": "a FIFO"}]})
    );
    assert_eq!(v[3], json!("big.log\n[skipped 1 file: pipe.log (a FIFO)]"));
    assert_eq!((&v[4], &v[5], &v[6]), (&json!(["big.log"]), &json!(1), &json!(1)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cursor_continuation_deep_in_a_12_mib_line_returns_that_slice_ga_12_3() {
    let dir = TempDir::new("long-line");
    // Each page of this one line streams past the cursor rather than
    // loading the whole file (memory is measured in the catalog's tests).
    let line: String = (0..12 * 1024 * 1024 / 8).map(|i| format!("{i:07}|")).collect();
    std::fs::write(dir.0.join("line.txt"), format!("{line}\nend")).unwrap();
    let rt = workspace_runtime(&dir).await;
    let cursor = 10 * 1024 * 1024;
    let code = format!(
        "const p = await read({{path: 'line.txt', cursor: {cursor}}}); \
         return [p.kind, p.content.length, p.content.slice(0, 16), p.continuation, p.totalLines]"
    );
    let r = exec(&rt, &code).await;
    assert_eq!(
        value(&r),
        &json!(["truncated", 65536, &line[cursor..cursor + 16], {"path": "line.txt", "offset": 1, "cursor": cursor + 65536}, 2])
    );
}
