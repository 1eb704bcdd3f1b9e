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
    CodeMode::builder().workspace(&dir.0).start().await.unwrap()
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
    let rt = CodeMode::builder().limits(limits).workspace(&dir.0).start().await.unwrap();
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
