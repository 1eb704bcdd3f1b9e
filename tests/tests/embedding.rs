//! A runtime as an embedding host holds it: built, used, shut down or
//! dropped — its run-event stream ends with it, and building and dropping
//! it again and again leaves no threads or memory behind.

use std::time::{Duration, Instant};

use codemode_runtime::{CodeMode, RunEventError};
use codemode_tests::*;

/// Held by every test here: the leak test counts the whole process's
/// threads and memory, which a test running beside it would change.
static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The threads of this process now.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map(Iterator::count).unwrap_or(0)
}

/// Resident memory now, in KiB.
fn rss_kib() -> u64 {
    // Freed memory glibc keeps in the arenas of the many short-lived
    // threads goes back first: what stays resident is what is still held.
    #[expect(unsafe_code, reason = "malloc_trim has no safe wrapper")]
    // SAFETY: malloc_trim only returns free memory to the kernel.
    unsafe {
        libc::malloc_trim(0);
    }
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    pages * 4
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_run_event_stream_ends_after_a_shutdown_and_after_the_last_handle_is_dropped() {
    let _alone = ALONE.lock().await;
    let rt = runtime().await;
    let mut events = rt.run_events();
    assert_eq!(value(&exec(&rt, "return 1").await), 1);
    rt.shutdown().await;
    assert_eq!(last(&mut events).await, Err(RunEventError::Closed), "what was sent is delivered, then the end");
    assert_eq!(
        tokio::time::timeout(Duration::from_secs(5), rt.run_events().recv()).await.expect("at once"),
        Err(RunEventError::Closed),
        "a subscription after the shutdown is closed from the start"
    );

    let rt = runtime().await;
    let mut events = rt.run_events();
    let clone = rt.clone();
    drop(rt);
    assert!(
        tokio::time::timeout(Duration::from_millis(200), events.recv()).await.is_err(),
        "a clone still holds the runtime: the stream stays open"
    );
    drop(clone);
    assert_eq!(last(&mut events).await, Err(RunEventError::Closed));
}

/// What ends the stream: the first error, within 5 s.
async fn last(events: &mut codemode_runtime::RunEvents) -> Result<codemode_runtime::RunEvent, RunEventError> {
    let drained = async {
        loop {
            events.recv().await?;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), drained).await.expect("the stream ends")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runtimes_built_used_and_dropped_hundreds_of_times_leave_no_threads_or_memory_behind() {
    let _alone = ALONE.lock().await;
    // Half shut down first, half only dropped: both must let go of all.
    async fn once(shut_down: bool) {
        let rt: CodeMode = runtime().await;
        assert_eq!(value(&exec(&rt, "await store('k', 1); return await load('k')").await), 1);
        if shut_down {
            rt.shutdown().await;
        }
    }
    // Warm: the first hundred runtimes fill process-wide caches, pools and
    // the allocator's per-thread arenas (resident memory then wanders by
    // about ±10 MiB from one hundred to the next, without a trend).
    for i in 0..100 {
        once(i % 2 == 0).await;
    }
    let (threads_before, rss_before) = (settled_threads(0).await, rss_kib());
    for i in 0..200 {
        once(i % 2 == 0).await;
    }
    let threads_after = settled_threads(threads_before).await;
    let rss_after = rss_kib();
    assert!(threads_after <= threads_before, "threads: {threads_before} before, {threads_after} after 200 runtimes");
    // One runtime holds megabytes (engines, its threads' stacks, a sled
    // database): a leak of each would grow far past this (a leak of
    // 250 KiB per runtime reaches it). Measured on this 2-core machine,
    // runs of the same build grew 15–50 MiB while the arenas of the many
    // short-lived threads kept their free memory, and 0–22 MiB in both
    // modes since it is returned before each reading (`rss_kib`).
    let bound = 48 * 1024;
    let grown = rss_after.saturating_sub(rss_before);
    eprintln!("resident memory grew {grown} KiB over 200 runtimes ({rss_before} → {rss_after})");
    assert!(grown < bound, "resident memory grew {grown} KiB over 200 runtimes ({rss_before} → {rss_after})");
}

/// The thread count once it stops falling (runtimes' threads exit as they
/// are joined; tokio's idle blocking threads after their keep-alive), at
/// most 20 s; returns early once it is at or below `target`.
async fn settled_threads(target: usize) -> usize {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut last = threads();
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let now = threads();
        if now <= target || (now == last && target == 0) || Instant::now() > deadline {
            return now;
        }
        last = now;
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Greet {
    name: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Greeting {
    text: String,
    principal: Option<String>,
    session: Option<String>,
    call_id: String,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_tool_sees_whom_each_call_serves_and_its_schemas_are_derived_ga_6_1() {
    let _alone = ALONE.lock().await;
    let greet = codemode_runtime::typed_tool(
        "greet",
        "Greets.",
        |input: Greet, cx: codemode_runtime::ToolContext| async move {
            Ok(Greeting {
                text: format!("hello {}", input.name),
                principal: cx.principal,
                session: cx.session,
                call_id: cx.call_id,
            })
        },
    );
    let rt = codemode_tests::builder().tool(greet).start().await.unwrap();
    let reply = rt.session("s-1").for_principal("alice").reply("r");
    let done = reply
        .exec(codemode_runtime::Exec::code("return [await greet({name: 'x'}), await greet({name: 'y'})]"))
        .await
        .unwrap();
    let v = value(&done);
    assert_eq!(v[0]["text"], "hello x");
    assert_eq!((v[0]["principal"].as_str(), v[0]["session"].as_str()), (Some("alice"), Some("s-1")));
    let run_id = done.run_id().map(str::to_owned);
    let (first, second) = (v[0]["call_id"].as_str().unwrap(), v[1]["call_id"].as_str().unwrap());
    assert_ne!(first, second, "each call is named apart");
    assert!(first.starts_with("run_") && first.contains('/'), "{first}");
    if let Some(run_id) = run_id {
        assert!(first.starts_with(&run_id));
    }
    // The input schema is the type's: a missing field is refused before the call.
    let refused = reply.exec(codemode_runtime::Exec::code("return await greet({})")).await.unwrap();
    assert!(matches!(refused, codemode_runtime::CellResult::Failed { .. }), "{refused:?}");
    assert!(failure(&refused).1.contains("greet input is invalid"), "{refused:?}");
    rt.shutdown().await;
}
