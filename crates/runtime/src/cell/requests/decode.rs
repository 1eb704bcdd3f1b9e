//! Decoding a request from the guest: the prelude's single native entry
//! point, `hostRequest(op, a, b, c)`, becomes a typed [`HostRequest`].
//!
//! This is the only place that reads request arguments from JavaScript
//! values. The prelude has already checked what the guest passed, so a
//! malformed request here is a prelude bug or a guest that reached the
//! raw hook; either way it becomes a `TypeError` naming the request and
//! the argument, never a panic or a silently defaulted value.

use codemode_store::StoreLimits;
use rquickjs::{Ctx, Exception, Value};
use serde_json::{Map, Value as Json};

use super::{HostRequest, Op};
use crate::cell::convert;

/// The arguments of one request.
struct Args<'a, 'js> {
    ctx: &'a Ctx<'js>,
    op: Op,
    values: [Option<Value<'js>>; 3],
}

impl<'js> Args<'_, 'js> {
    /// Argument `i`, or `None` when omitted or `undefined`.
    fn get(&self, i: usize) -> Option<&Value<'js>> {
        self.values[i].as_ref().filter(|v| !v.is_undefined())
    }

    /// A `TypeError` naming the request and what was wrong.
    fn malformed(&self, what: &str, expected: &str) -> rquickjs::Error {
        Exception::throw_type(self.ctx, &format!("host request `{}`: {what} must be {expected}", self.op.name()))
    }

    fn string(&self, i: usize, what: &str) -> rquickjs::Result<String> {
        match self.get(i).and_then(Value::as_string) {
            Some(s) => convert::string_lossy(self.ctx, s),
            None => Err(self.malformed(what, "a string")),
        }
    }

    /// A string, or `None` for `null`/`undefined`.
    fn opt_string(&self, i: usize, what: &str) -> rquickjs::Result<Option<String>> {
        match self.get(i) {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(None),
            Some(_) => self.string(i, what).map(Some),
        }
    }

    fn number(&self, i: usize) -> Option<f64> {
        self.get(i).and_then(|v| v.as_int().map(f64::from).or_else(|| v.as_float()))
    }

    /// A non-negative integer index (tool, server).
    fn index(&self, i: usize, what: &str) -> rquickjs::Result<usize> {
        match self.number(i) {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Ok(n as usize),
            _ => Err(self.malformed(what, "a non-negative integer")),
        }
    }

    /// A JSON value the prelude projected (`what` names it in errors).
    fn projected(&self, i: usize, what: &'static str) -> rquickjs::Result<Json> {
        match self.get(i) {
            Some(v) => convert::to_json(self.ctx, v, what).map_err(|e| e.throw(self.ctx)),
            None => Err(self.malformed(what, "a value")),
        }
    }

    /// MCP arguments: an object, else a `TypeError` (never silently `{}`).
    fn mcp_args(&self, i: usize) -> rquickjs::Result<Map<String, Json>> {
        match self.projected(i, "the MCP arguments")? {
            Json::Object(map) => Ok(map),
            other => Err(Exception::throw_type(
                self.ctx,
                &format!(
                    "MCP arguments must be an object, not {}",
                    codemode_bridge::budget::utf8_prefix(&other.to_string(), 64)
                ),
            )),
        }
    }

    /// A store key: a non-empty string of at most 256 UTF-16 units, else a
    /// `TypeError` (GA-7.2).
    fn store_key(&self, i: usize) -> rquickjs::Result<String> {
        let limits = StoreLimits::default();
        let key = self.get(i).and_then(Value::as_string).map(|s| convert::string_lossy(self.ctx, s)).transpose()?;
        match key {
            Some(k) if codemode_store::validate_key(&k, &limits).is_ok() => Ok(k),
            _ => {
                Err(Exception::throw_type(self.ctx, &codemode_store::StoreError::Key(limits.max_key_units).to_string()))
            }
        }
    }

    /// A results id: a non-empty string, else a `TypeError`.
    fn result_id(&self, i: usize) -> rquickjs::Result<String> {
        match self.get(i).and_then(Value::as_string).map(|s| convert::string_lossy(self.ctx, s)).transpose()? {
            Some(s) if !s.trim().is_empty() => Ok(s),
            _ => Err(Exception::throw_type(self.ctx, "results reference id must be a non-empty string.")),
        }
    }
}

/// Decodes request `op` with its arguments. Errors are already thrown in
/// the guest (a `TypeError`, or a `RangeError` for an oversized store
/// value, as GA-7.3 asks).
pub(crate) fn decode<'js>(ctx: &Ctx<'js>, op: Op, values: [Option<Value<'js>>; 3]) -> rquickjs::Result<HostRequest> {
    let a = Args { ctx, op, values };
    Ok(match op {
        Op::Call => HostRequest::Call { tool: a.index(0, "the tool index")?, input: tool_input(ctx, a.get(1))? },
        Op::Describe => HostRequest::Describe { tool: a.index(0, "the tool index")? },
        Op::Search => {
            let limit = match a.get(1) {
                Some(v) if v.is_null() => None,
                Some(_) => Some(a.number(1).ok_or_else(|| a.malformed("the limit", "a number"))?),
                None => None,
            };
            HostRequest::Search { query: a.string(0, "the query")?, limit }
        }
        Op::ApiList => HostRequest::ApiList { prefix: a.string(0, "the prefix")? },
        Op::ApiRead => HostRequest::ApiRead { path: a.string(0, "the path")? },
        Op::Yield => HostRequest::Yield { reason: a.opt_string(0, "the reason")? },
        Op::Timer => {
            // The prelude has already made the delay a finite integer ≥ 0.
            let delay = a.number(0).ok_or_else(|| a.malformed("the delay", "a number"))?;
            HostRequest::Timer { delay_ms: delay.clamp(0.0, 1e15) as u64 }
        }
        Op::Store => {
            let key = a.store_key(0)?;
            // No value deletes; a value is the prelude's projection.
            let json = match a.get(1) {
                Some(_) => Some(a.projected(1, "the stored value")?.to_string()),
                None => None,
            };
            if let Some(json) = &json
                && let Err(e) = codemode_store::validate_value(json, &StoreLimits::default())
            {
                return Err(Exception::throw_range(ctx, &e.to_string()));
            }
            HostRequest::Store { key, json }
        }
        Op::Load => HostRequest::Load { key: a.store_key(0)? },
        Op::ResultSave => {
            let value = a.projected(0, "the saved value")?;
            let json = value.to_string();
            HostRequest::ResultSave { value, json }
        }
        Op::ResultLoad => HostRequest::ResultLoad { result_id: a.result_id(0)? },
        Op::ResultDelete => HostRequest::ResultDelete { result_id: a.result_id(0)? },
        Op::McpCall => HostRequest::McpCall {
            server: a.index(0, "the server index")?,
            tool: a.string(1, "the tool name")?,
            args: a.mcp_args(2)?,
        },
        Op::McpOperation => HostRequest::McpOp {
            server: a.index(0, "the server index")?,
            op: a.string(1, "the operation")?,
            args: a.mcp_args(2)?,
        },
        Op::McpApi => HostRequest::McpApi {
            // A negative index is the root `MCP.$api()`.
            server: a.number(0).filter(|n| *n >= 0.0).map(|_| a.index(0, "the server index")).transpose()?,
            method: a.opt_string(1, "the method")?,
            schema: a.get(2).and_then(Value::as_bool).unwrap_or(false),
        },
        Op::NodesList => HostRequest::NodesList,
        Op::NodesGet => HostRequest::NodesGet { query: a.string(0, "the id or name")? },
        Op::NodesInvoke => HostRequest::NodesInvoke {
            node: a.string(0, "the node id")?,
            command: a.string(1, "the command")?,
            params: a.projected(2, "the nodes.invoke params")?,
        },
    })
}

/// A tool input, as `JSON.stringify` would pass it (toJSON, dropped
/// functions): no argument or `undefined` is `{}`.
fn tool_input<'js>(ctx: &Ctx<'js>, input: Option<&Value<'js>>) -> rquickjs::Result<Json> {
    match input {
        Some(v) => convert::input_to_json(ctx, v, "the tool input").map_err(|e| e.throw(ctx)),
        None => Ok(Json::Object(Map::new())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rquickjs::CatchResultExt;

    /// Decodes `op` with arguments evaluated from `args` (a JS array
    /// literal); the error is the thrown message.
    fn decode_js(op: Op, args: &str) -> Result<String, String> {
        let rt = rquickjs::Runtime::new().expect("runtime");
        let ctx = rquickjs::Context::full(&rt).expect("context");
        ctx.with(|ctx| {
            convert::capture(&ctx).expect("capture");
            let array: rquickjs::Array = ctx.eval(args).expect("args");
            let values = [0, 1, 2].map(|i| array.get::<Value>(i).ok().filter(|v| !v.is_undefined()));
            decode(&ctx, op, values).map(|r| format!("{r:?}")).catch(&ctx).map_err(|e| match e {
                rquickjs::CaughtError::Exception(x) => {
                    let name: String = x.as_object().get("name").unwrap_or_default();
                    format!("{name}: {}", x.message().unwrap_or_default())
                }
                other => other.to_string(),
            })
        })
    }

    #[test]
    fn a_malformed_request_is_a_type_error_naming_the_request_and_the_argument() {
        let err = decode_js(Op::Search, "[42]").unwrap_err();
        assert!(
            err.contains("TypeError") && err.contains("host request `search`: the query must be a string"),
            "{err}"
        );
        let err = decode_js(Op::Call, "[-1, {}]").unwrap_err();
        assert!(
            err.starts_with("TypeError: host request `call`: the tool index must be a non-negative integer"),
            "{err}"
        );
        let err = decode_js(Op::McpCall, "[0, 't', [1]]").unwrap_err();
        assert!(err.starts_with("TypeError: MCP arguments must be an object"), "{err}");
    }

    #[test]
    fn requests_decode_to_typed_arguments() {
        assert_eq!(decode_js(Op::Call, "[3]").unwrap(), "Call { tool: 3, input: Object {} }");
        assert_eq!(decode_js(Op::Store, "['k']").unwrap(), "Store { key: \"k\", json: None }");
        assert_eq!(
            decode_js(Op::McpApi, "[-1, null, false]").unwrap(),
            "McpApi { server: None, method: None, schema: false }"
        );
        assert_eq!(decode_js(Op::Yield, "['\\ud83e']").unwrap(), "Yield { reason: Some(\"\u{fffd}\") }");
    }
}
