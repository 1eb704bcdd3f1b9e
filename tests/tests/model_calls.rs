//! A host runs the model's `exec` and `wait` tool calls as they arrive
//! (`Reply::handle`), with the arguments checked as the published input
//! schemas say and every answer one of the published result shapes (GA-1.5).

use codemode_runtime::{CellResult, ErrorCode, result_schema};
use codemode_tests::*;
use serde_json::{Map, Value, json};

fn args(v: Value) -> Map<String, Value> {
    v.as_object().cloned().expect("an object")
}

fn refused(result: &CellResult) -> &str {
    match result {
        CellResult::Failed { code: ErrorCode::InvalidInput, error, .. } => error,
        other => panic!("not refused as invalid_input: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_models_exec_and_wait_calls_run_as_they_arrive_and_every_answer_is_a_published_result_ga_1_5() {
    let rt = runtime().await;
    let reply = rt.session("model-calls").reply("turn-1");
    let schema = jsonschema::validator_for(&result_schema()).expect("the published schema compiles");
    let mut answers = Vec::new();

    let parked =
        reply.handle("exec", &args(json!({"code": "return await yield_control('go on')", "title": "t"}))).await;
    let Some(run_id) = parked.run_id().map(str::to_owned) else { panic!("not parked: {parked:?}") };
    answers.push(parked);
    let done = reply.handle("wait", &args(json!({"run_id": run_id}))).await;
    assert!(matches!(&done, CellResult::Completed { .. }), "{done:?}");
    answers.push(done);

    let cases = [
        ("exec", json!({"cod": "return 1"}), "exec does not take `cod`"),
        ("exec", json!({"code": "a", "command": "b"}), "code and command must match"),
        ("exec", json!({"code": "return 1", "language": "ts"}), "Code Mode takes no language or typecheck"),
        ("wait", json!({"runId": " "}), "runId must be a non-empty string"),
        ("wait", json!({"runId": "run_x", "approve": ["appr_1"]}), "wait takes no decisions from the model"),
        ("eval", json!({"code": "1"}), "unknown tool `eval`"),
    ];
    for (tool, arguments, says) in cases {
        let answer = reply.handle(tool, &args(arguments)).await;
        assert!(refused(&answer).contains(says), "{tool}: {answer:?}");
        answers.push(answer);
    }
    for answer in &answers {
        let structured = serde_json::to_value(answer).expect("serializes");
        assert!(schema.is_valid(&structured), "{structured}");
    }
    rt.shutdown().await;
}
