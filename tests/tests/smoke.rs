//! Quick smoke test while building.
use codemode_tests::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smoke() {
    let rt = runtime().await;
    let r = exec(&rt, "return 1").await;
    println!("{}", r.to_model_json());
    let r = exec(&rt, "text('a'); json({b:1}); const x = await noop({}); return [x, await echo_tool({q: 1})]").await;
    println!("{}", r.to_model_json());
    let r = exec(&rt, "await new Promise(r => setTimeout(r, 20)); return 'slept'").await;
    println!("{}", r.to_model_json());
    for r in run_to_end(&rt, "const r = await yield_control('x'); return r").await {
        println!("{}", r.to_model_json());
    }
    let r = exec(&rt, "const a = 1;\nconst b = ;\nreturn a;").await;
    println!("{}", r.to_model_json());
    let r = exec(&rt, "const x = 1;\nnull.foo;\nreturn x;").await;
    println!("{}", r.to_model_json());
    let r = exec(&rt, "await new Promise(() => undefined)").await;
    println!("{}", r.to_model_json());
}
