use rquickjs::{CatchResultExt, Value};

use super::*;
use crate::engine::args::Args;
use crate::engine::convert;
use crate::mcp::McpHub;

/// Decodes `op` with arguments evaluated from `args` (a JS array
/// literal); the error is the thrown message.
fn decode_request(op: OpCode, args: &str) -> Result<HostRequest, String> {
    let rt = rquickjs::Runtime::new().expect("runtime");
    let ctx = rquickjs::Context::full(&rt).expect("context");
    let hub: McpHub = Default::default();
    let cx = DecodeCx { mcp: &hub, routes: None };
    ctx.with(|ctx| {
        convert::capture(&ctx).expect("capture");
        let array: rquickjs::Array = ctx.eval(args).expect("args");
        let values = [0, 1, 2].map(|i| array.get::<Value>(i).ok().filter(|v| !v.is_undefined()));
        let args = Args { ctx: &ctx, name: op.name(), values };
        HostRequest::decode(op, &args, &cx).catch(&ctx).map_err(|e| match e {
            rquickjs::CaughtError::Exception(x) => {
                let name: String = x.as_object().get("name").unwrap_or_default();
                format!("{name}: {}", x.message().unwrap_or_default())
            }
            other => other.to_string(),
        })
    })
}

/// [`decode_request`], the request as its `Debug` text.
fn decode_js(op: OpCode, args: &str) -> Result<String, String> {
    decode_request(op, args).map(|r| format!("{r:?}"))
}

#[test]
fn wire_numbers_round_trip_and_names_are_unique() {
    for (i, op) in OpCode::ALL.iter().enumerate() {
        assert_eq!(OpCode::from_wire(i as u32), Some(*op));
        assert_eq!(OpCode::FORMS[i].name, op.name(), "the engine's forms are in wire order");
        assert_eq!(OpCode::ALL.iter().filter(|o| o.name() == op.name()).count(), 1, "{}", op.name());
    }
    assert_eq!(OpCode::from_wire(OpCode::ALL.len() as u32), None);
}

#[test]
fn a_malformed_request_is_a_type_error_naming_the_request_and_the_argument() {
    let err = decode_js(OpCode::Search, "[42]").unwrap_err();
    assert!(err.contains("TypeError") && err.contains("host request `search`: the query must be a string"), "{err}");
    let err = decode_js(OpCode::Call, "[-1, {}]").unwrap_err();
    assert!(err.starts_with("TypeError: host request `call`: the tool index must be a non-negative integer"), "{err}");
    let err = decode_js(OpCode::McpCall, "[0, 't', [1]]").unwrap_err();
    assert!(err.starts_with("TypeError: MCP arguments must be an object"), "{err}");
}

#[test]
fn requests_decode_to_typed_arguments() {
    assert_eq!(decode_js(OpCode::Call, "[3]").unwrap(), "Call { tool: 3, input: Object {} }");
    assert_eq!(decode_js(OpCode::Store, "['k']").unwrap(), "Store { key: \"k\", json: None }");
    assert_eq!(
        decode_js(OpCode::McpApi, "[-1, null, false]").unwrap(),
        "McpApi { server: None, method: None, schema: false }"
    );
    assert_eq!(decode_js(OpCode::Yield, "['\\ud83e']").unwrap(), "Yield { reason: Some(\"\u{fffd}\") }");
}

/// Every request kind says where it reaches (a new kind does not compile
/// here until it is added), and exactly the ones that leave the cell — a
/// third party, or an effect a replay would repeat — pass the gate
/// (GA-10.3): native tools, MCP tools and operations, node commands,
/// `results.save`/`delete`. `tests/tests/gate.rs` walks each of these
/// through a real runtime.
#[test]
fn every_request_kind_declares_where_it_reaches_and_only_the_outside_ones_pass_the_gate_ga_10_3() {
    for op in OpCode::ALL {
        let expected = match op {
            OpCode::Call
            | OpCode::McpCall
            | OpCode::McpOp
            | OpCode::NodesInvoke
            | OpCode::ResultSave
            | OpCode::ResultDelete => ReachKind::Outside,
            OpCode::Describe
            | OpCode::Search
            | OpCode::ApiList
            | OpCode::ApiRead
            | OpCode::Yield
            | OpCode::Timer
            | OpCode::Store
            | OpCode::Load
            | OpCode::ResultLoad
            | OpCode::McpApi
            | OpCode::NodesList
            | OpCode::NodesGet => ReachKind::Inside,
        };
        assert_eq!(op.reach(), expected, "{}", op.name());
    }
}

/// Every request kind is plain data that crosses a process boundary as it
/// is (a new kind does not compile here until it has a sample): encoded
/// and decoded again, it is the same request, and an encoding of another
/// shape is refused, not defaulted.
#[test]
fn every_request_kind_is_plain_data_that_round_trips_through_its_encoding() {
    for op in OpCode::ALL {
        let args = match op {
            OpCode::Call => "[2, {a: [1, 'x', null]}]",
            OpCode::Describe => "[1]",
            OpCode::Search => "['files', 3]",
            OpCode::ApiList => "['/mcp']",
            OpCode::ApiRead => "['/mcp/x.d.ts']",
            OpCode::Yield => "['later']",
            OpCode::Timer => "[25]",
            OpCode::Store => "['k', {v: 1}]",
            OpCode::Load => "['k']",
            OpCode::ResultSave => "[{big: 'value'}]",
            OpCode::ResultLoad => "['res_0123456789abcdef0123456789abcdef']",
            OpCode::ResultDelete => "['res_0123456789abcdef0123456789abcdef']",
            OpCode::McpCall => "[0, 'echo', {message: 'hi'}]",
            OpCode::McpOp => "[0, 'listResources', {}]",
            OpCode::McpApi => "[0, 'echo', true]",
            OpCode::NodesList => "[]",
            OpCode::NodesGet => "['phone']",
            OpCode::NodesInvoke => "['phone', 'camera.snap', {facing: 'back'}]",
        };
        let request = decode_request(*op, args).unwrap_or_else(|e| panic!("{}: {e}", op.name()));
        let encoded = serde_json::to_string(&request).expect("encodes");
        let again: HostRequest = serde_json::from_str(&encoded).expect("decodes");
        assert_eq!(format!("{again:?}"), format!("{request:?}"), "{}: {encoded}", op.name());
        let hub: McpHub = Default::default();
        let recheck = again.recheck(&DecodeCx { mcp: &hub, routes: None });
        assert_eq!(recheck, Ok(()), "what decoding made passes its check again: {}", op.name());
    }
    let forged = r#"{"Timer":{"delay_ms":"soon"}}"#;
    assert!(serde_json::from_str::<HostRequest>(forged).is_err(), "a field of the wrong type is refused");
    assert!(serde_json::from_str::<HostRequest>(r#"{"Exec":{}}"#).is_err(), "an unknown kind is refused");
}

/// A request an engine worker sent that decoding could not have made is
/// refused by its check, naming what was wrong (at the bound and one
/// past it where there is a bound).
#[test]
fn a_request_decoding_would_refuse_is_refused_when_a_worker_sends_it() {
    let hub: McpHub = Default::default();
    let cx = DecodeCx { mcp: &hub, routes: None };
    let check = |json: serde_json::Value| -> Result<(), String> {
        serde_json::from_value::<HostRequest>(json).expect("well-formed").recheck(&cx)
    };
    let limits = codemode_store::StoreLimits::default();
    let key_at = "k".repeat(limits.max_key_units);
    assert_eq!(check(serde_json::json!({"Load": {"key": key_at}})), Ok(()));
    let key_over = "k".repeat(limits.max_key_units + 1);
    assert!(check(serde_json::json!({"Load": {"key": key_over}})).is_err(), "a key one past the bound");
    assert!(check(serde_json::json!({"Store": {"key": "", "json": "1"}})).is_err(), "an empty key");
    let big = format!("\"{}\"", "x".repeat(limits.max_value_bytes));
    let err = check(serde_json::json!({"Store": {"key": "k", "json": big}})).expect_err("past the value bound");
    assert!(err.contains("KiB") || err.contains("large"), "{err}");
    let err = check(serde_json::json!({"Store": {"key": "k", "json": "{not json"}})).expect_err("not JSON");
    assert!(err.contains("not JSON"), "{err}");
    assert_eq!(check(serde_json::json!({"Timer": {"delay_ms": 1_000_000_000_000_000_u64}})), Ok(()));
    assert!(check(serde_json::json!({"Timer": {"delay_ms": 1_000_000_000_000_001_u64}})).is_err());
    let err = check(serde_json::json!({"ResultSave": {"value": {"a": 1}, "json": "{\"a\":2}"}})).expect_err("disagree");
    assert!(err.contains("not the value's"), "{err}");
    assert!(check(serde_json::json!({"ResultLoad": {"result_id": "  "}})).is_err(), "a blank id");
}
