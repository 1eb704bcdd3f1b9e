//! Third-party MCP servers through the runtime's MCP configuration (GA-9):
//! `@modelcontextprotocol/server-filesystem` and `server-memory` (npm) and
//! `mcp-server-time` (PyPI), all installed by scripts/test.sh.

use std::path::{Path, PathBuf};
use std::time::Duration;

use codemode_runtime::{CodeMode, McpServerConfig};
use codemode_tests::*;
use serde_json::json;

fn npm_server(package: &str) -> String {
    let script =
        format!("{}/.npm/node_modules/@modelcontextprotocol/{package}/dist/index.js", env!("CARGO_MANIFEST_DIR"));
    assert!(Path::new(&script).exists(), "run ./scripts/test.sh: it installs @modelcontextprotocol/{package} from npm");
    script
}

/// The interpreter `python3` resolves to, so the server runs with the
/// packages scripts/test.sh installed even though its environment is
/// reduced to a short safe list.
fn python() -> String {
    let out = std::process::Command::new("python3")
        .args(["-c", "import mcp_server_time, sys; print(sys.executable)"])
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "run ./scripts/test.sh: it installs mcp-server-time from PyPI");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("codemode-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // The filesystem server compares real paths (e.g. /tmp symlinks).
        Self(dir.canonicalize().unwrap())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn third_party(files: &TempDir) -> CodeMode {
    let timeout = Duration::from_secs(20);
    let filesystem = McpServerConfig::stdio(
        "filesystem",
        "node",
        vec![npm_server("server-filesystem"), files.0.display().to_string()],
    )
    .call_timeout(timeout);
    let memory = McpServerConfig::stdio("memory", "node", vec![npm_server("server-memory")])
        .env("MEMORY_FILE_PATH", files.0.join("memory.jsonl").display().to_string())
        .call_timeout(timeout);
    let time =
        McpServerConfig::stdio("time", python(), vec!["-m".into(), "mcp_server_time".into()]).call_timeout(timeout);
    let rt =
        codemode_tests::builder().mcp_server(filesystem).mcp_server(memory).mcp_server(time).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(30)).await, "all three servers connect");
    rt
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filesystem_memory_and_time_servers_answer_through_their_namespaces_by_either_name_ga_9_1_ga_9_4() {
    let files = TempDir::new("mcp-third-party");
    let rt = third_party(&files).await;
    let dir = files.0.display().to_string();
    let r = exec(
        &rt,
        &format!(
            "const dir = {dir:?}; const fs = MCP.filesystem; \
             await fs.writeFile({{path: dir + '/note.txt', content: 'hello from a cell'}}); \
             const read = await fs.read_text_file({{path: dir + '/note.txt'}}); \
             const listing = await fs['list_directory']({{path: dir}}); \
             await MCP.memory.createEntities({{entities: [{{name: 'Ada', entityType: 'person', observations: ['wrote notes']}}]}}); \
             const graph = await MCP.memory.readGraph(); \
             const now = await MCP.time.get_current_time({{timezone: 'Etc/UTC'}}); \
             const same = MCP.time.getCurrentTime === MCP.time.get_current_time; \
             return [read.content[0].text, listing.content[0].text.includes('note.txt'), \
                     graph.structuredContent.entities.map(e => e.name), now.structuredContent.timezone, same, \
                     Object.keys(MCP.time).sort()]"
        ),
    )
    .await;
    assert_eq!(
        value(&r),
        &json!([
            "hello from a cell",
            true,
            ["Ada"],
            "Etc/UTC",
            true,
            ["$api", "$serverName", "convertTime", "getCurrentTime", "prompts", "resources"]
        ]),
        "{}",
        r.to_model_json()
    );
    // The model is told the namespaces exist, how many tools each has and
    // how to discover them, though there are no native tools.
    let prompt = rt.exec_tool_description().exec.description;
    for needle in
        ["`MCP.filesystem` (", "`MCP.memory` (9 tools)", "`MCP.time` (2 tools)", "`await MCP.<server>.$api()`"]
    {
        assert!(prompt.contains(needle), "missing {needle:?} in {prompt}");
    }
    assert!(!prompt.contains("getCurrentTime"), "tool names stay out of the prompt");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_misspelt_tool_names_the_closest_one_and_an_unrelated_name_stays_undefined_ga_9() {
    let files = TempDir::new("mcp-misspelt");
    let rt = third_party(&files).await;
    let r = exec(
        &rt,
        "let typo; try { await MCP.time.getCurentTime({timezone: 'Etc/UTC'}) } catch (e) { typo = [e.name, e.message] } \
         let api; try { await MCP.time.$api('getCurentTime') } catch (e) { api = e.message } \
         return [typo, api, typeof MCP.time.somethingElse, 'getCurentTime' in MCP.time]",
    )
    .await;
    let hint = "no tool `getCurentTime` on server `time`; did you mean `getCurrentTime`? Call MCP.time.$api() to list its tools.";
    assert_eq!(value(&r), &json!([["TypeError", hint], hint, "undefined", false]), "{}", r.to_model_json());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declarations_and_no_argument_calls_agree_and_structured_output_is_typed_ga_9_6() {
    let files = TempDir::new("mcp-declarations");
    let rt = third_party(&files).await;
    // For every tool: the header says `input?` exactly when a call with no
    // argument is accepted (such calls do run: readGraph and
    // listAllowedDirectories only read).
    let r = exec(
        &rt,
        "const out = []; for (const server of ['filesystem', 'memory', 'time']) { \
           const ns = MCP[server]; const { header } = await ns.$api(); \
           for (const method of Object.keys(ns).filter(k => typeof ns[k] === 'function' && !k.startsWith('$'))) { \
             const declared = header.includes('function ' + method + '(input?:'); \
             let accepted = true; try { await ns[method]() } catch (e) { accepted = !e.message.startsWith('Missing required') } \
             if (declared !== accepted) out.push([server, method, declared, accepted]); } } \
         return out",
    )
    .await;
    assert_eq!(value(&r), &json!([]), "tools whose declaration and runtime disagree");
    let r = exec(&rt, "return (await API.read('mcp/time.d.ts')).content").await;
    let header = value(&r).as_str().unwrap().to_owned();
    assert!(
        header.contains(
            "function getCurrentTime(input: { timezone: string }): Promise<McpToolResult & { structuredContent?: {"
        ),
        "{header}"
    );
    // The time server's `$ref`s to `$defs` are followed.
    assert!(header.contains("source: { datetime: string;"), "{header}");
    let tsc = concat!(env!("CARGO_MANIFEST_DIR"), "/.npm/node_modules/typescript/bin/tsc");
    assert!(Path::new(tsc).exists(), "run ./scripts/test.sh: it installs typescript");
    let r = exec(
        &rt,
        "return [(await API.read('mcp/index.d.ts')).content, (await API.read('mcp/time.d.ts')).content, \
         (await API.read('mcp/memory.d.ts')).content, (await API.read('mcp/filesystem.d.ts')).content]",
    )
    .await;
    let texts = value(&r).as_array().unwrap().clone();
    for (name, text) in ["index", "time", "memory", "filesystem"].iter().zip(&texts) {
        std::fs::write(files.0.join(format!("{name}.d.ts")), text.as_str().unwrap()).unwrap();
    }
    std::fs::write(
        files.0.join("calls.ts"),
        r#"/// <reference path="./index.d.ts" />
async function main(): Promise<void> {
  const now = await MCP.time.getCurrentTime({ timezone: "Etc/UTC" });
  const tz: string | undefined = now.structuredContent?.timezone;
  const dst: boolean | undefined = now.structuredContent?.is_dst;
  const moved = await MCP.time.convertTime({ source_timezone: "Etc/UTC", time: "12:00", target_timezone: "Europe/Paris" });
  const target: string | undefined = moved.structuredContent?.target.datetime;
  const graph = await MCP.memory.readGraph();
  const names: string[] | undefined = graph.structuredContent?.entities.map((e) => e.name);
  await MCP.filesystem.listAllowedDirectories();
  // @ts-expect-error: timezone is required
  await MCP.time.getCurrentTime();
  // @ts-expect-error: the structured result has no such field
  const wrong: string | undefined = now.structuredContent?.nonexistent;
  console.log(tz, dst, target, names, wrong);
}
main();
"#,
    )
    .unwrap();
    let out = std::process::Command::new("node")
        .arg(tsc)
        .args(["--noEmit", "--strict", "--target", "es2020", "--lib", "es2020,dom"])
        .arg(files.0.join("calls.ts"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tsc: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// server-everything speaks the 2025-11-25 form of tasks: a plain call to
/// its task-only tool is refused in-band, so codemode calls it again as a
/// task (`task: {ttl}`), polls `tasks/get` and fetches `tasks/result`; the
/// guest sees the tool's result as from a direct call, and the declaration
/// says from then on that the tool runs as a task.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_needs_a_2025_11_25_task_runs_as_one_ga_9_4() {
    let script = npm_server("server-everything");
    let everything = McpServerConfig::stdio("everything", "node", vec![script, "stdio".into()])
        .call_timeout(Duration::from_secs(10));
    let rt = codemode_tests::builder().mcp_server(everything).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(20)).await);
    let r = exec(
        &rt,
        "const r = await MCP.everything.simulateResearchQuery({topic: 'tides'}); \
         const api = await MCP.everything.$api('simulateResearchQuery'); \
         return [r.isError ?? false, r.content[0].text, api.tools[0].task, '_meta' in r]",
    )
    .await;
    let v = value(&r);
    assert_eq!(v[0], serde_json::json!(false), "{v}");
    let report = v[1].as_str().unwrap();
    assert!(report.starts_with("# Research Report: tides"), "{report}");
    assert!(report.contains("Stage 4: Generating report"), "{report}");
    assert_eq!(v[2], serde_json::json!(true), "the tool is now declared as a task");
    assert_eq!(v[3], serde_json::json!(false), "the task's _meta is not the guest's");
}

/// A 2025-11-25 task that asks for input (its elicitation arrives while
/// codemode waits on `tasks/result`) parks the cell for approval; approving
/// accepts the form, and the task goes on to its report.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_11_25_tasks_elicitation_is_a_pending_approval_ga_10_3() {
    let script = npm_server("server-everything");
    let everything = McpServerConfig::stdio("everything", "node", vec![script, "stdio".into()])
        .call_timeout(Duration::from_secs(10));
    let rt = codemode_tests::builder().mcp_server(everything).start().await.unwrap();
    assert!(rt.mcp_ready(Duration::from_secs(20)).await);
    let reply = rt.session("s").reply("r");
    let code = "const r = await MCP.everything.simulateResearchQuery({topic: 'tides', ambiguous: true}); \
                return r.content[0].text";
    let parked = reply.exec(codemode_runtime::Exec::code(code)).await.unwrap();
    let codemode_runtime::CellResult::Waiting { pending_approvals, run_id, .. } = &parked else { panic!("{parked:?}") };
    assert_eq!(pending_approvals.len(), 1, "{parked:?}");
    let asked = &pending_approvals[0];
    assert!(asked.reason.contains("multiple interpretations"), "{}", asked.reason);
    assert!(asked.reason.contains("left empty: interpretation"), "{}", asked.reason);
    let approve = codemode_runtime::Decisions { approve: vec![asked.id.clone()], deny: vec![] };
    let mut done = reply.wait_with(run_id, approve).await.unwrap();
    while let codemode_runtime::CellResult::Waiting { .. } = done {
        done = reply.wait(run_id).await.unwrap();
    }
    let report = value(&done).as_str().unwrap().to_owned();
    assert!(report.contains("User accepted without selection"), "{report}");
}
