//! [`typed_tool`]: a native tool from an async Rust function over a
//! `Deserialize` input and a `Serialize` output, its input and output
//! schemas derived from those types.

use std::future::Future;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::tool::{Tool, ToolContext, ToolError, ToolFuture, ToolOutput};

/// A tool made by [`typed_tool`].
pub struct TypedTool<I, O, F> {
    name: String,
    description: String,
    input: Value,
    output: Value,
    replay_safe: bool,
    run: F,
    types: PhantomData<fn(I) -> O>,
}

/// A native tool named `name` that runs `run` on its input, read as `I`,
/// for the call's [`ToolContext`], and answers its `O` as the guest's
/// value. The input schema (which the runtime checks before the call) and
/// the output schema (trusted: the runtime checks every answer against it)
/// are derived from `I` and `O`.
///
/// ```
/// use codemode_catalog::{ToolContext, ToolError, typed_tool};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Lookup { customer: String }
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Balance { cents: i64 }
///
/// let tool = typed_tool("balance", "A customer's balance.", |input: Lookup, cx: ToolContext| async move {
///     // A multi-user host picks the caller's credentials by `cx.principal`.
///     let _user = cx.principal;
///     if input.customer.is_empty() {
///         return Err(ToolError::new("name a customer"));
///     }
///     Ok(Balance { cents: 1_250 })
/// })
/// .replay_safe(true);
/// # let _ = tool;
/// ```
pub fn typed_tool<I, O, F, Fut>(name: impl Into<String>, description: impl Into<String>, run: F) -> TypedTool<I, O, F>
where
    I: DeserializeOwned + JsonSchema + Send + 'static,
    O: Serialize + JsonSchema + 'static,
    F: Fn(I, ToolContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
{
    TypedTool {
        name: name.into(),
        description: description.into(),
        input: codemode_protocol::derived_schema::<I>(),
        output: codemode_protocol::derived_schema::<O>(),
        replay_safe: false,
        run,
        types: PhantomData,
    }
}

impl<I, O, F> TypedTool<I, O, F> {
    /// Declares the tool replay-safe (see [`Tool::replay_safe`]).
    #[must_use]
    pub fn replay_safe(mut self, safe: bool) -> Self {
        self.replay_safe = safe;
        self
    }
}

impl<I, O, F, Fut> Tool for TypedTool<I, O, F>
where
    I: DeserializeOwned + JsonSchema + Send + 'static,
    O: Serialize + JsonSchema + 'static,
    F: Fn(I, ToolContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> Value {
        self.input.clone()
    }

    fn output_schema(&self) -> Option<Value> {
        Some(self.output.clone())
    }

    fn replay_safe(&self) -> bool {
        self.replay_safe
    }

    fn call(&self, input: Value, context: ToolContext) -> ToolFuture<'_> {
        // The runtime checked the input against the schema; what serde
        // still refuses (a number out of range, say) is the caller's error.
        let input = match serde_json::from_value::<I>(input) {
            Ok(input) => input,
            Err(e) => {
                let message = format!("{} input cannot be read: {e}", self.name);
                return Box::pin(std::future::ready(Err(ToolError { message, code: "input_contract".into() })));
            }
        };
        let answer = (self.run)(input, context);
        let name = self.name.clone();
        Box::pin(async move {
            let output = answer.await?;
            let details = serde_json::to_value(output).map_err(|e| ToolError {
                message: format!("{name} produced a value that cannot be sent as JSON: {e}"),
                code: "tool_error".into(),
            })?;
            Ok(ToolOutput::json(details))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, JsonSchema)]
    struct Add {
        /// The first addend.
        a: i32,
        b: i32,
    }

    #[derive(serde::Serialize, JsonSchema)]
    struct Sum {
        sum: i32,
    }

    fn add() -> impl Tool {
        typed_tool("add", "Adds.", |input: Add, cx: ToolContext| async move {
            if cx.principal.as_deref() == Some("mallory") {
                return Err(ToolError::new("not for you"));
            }
            Ok(Sum { sum: input.a + input.b })
        })
    }

    fn run(tool: &impl Tool, input: Value, principal: Option<&str>) -> Result<ToolOutput, ToolError> {
        let cx = ToolContext::new(Some("s".into()), principal.map(str::to_owned), "run_x".into(), 3);
        futures_lite_block_on(tool.call(input, cx))
    }

    /// A tool future here never waits on anything: polled once, it is done.
    fn futures_lite_block_on(mut f: ToolFuture<'_>) -> Result<ToolOutput, ToolError> {
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        match f.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(out) => out,
            std::task::Poll::Pending => panic!("the tool waited"),
        }
    }

    #[test]
    fn a_typed_tool_derives_its_schemas_reads_its_input_and_sees_its_context() {
        let tool = add();
        let input = tool.input_schema();
        assert_eq!(input["required"], serde_json::json!(["a", "b"]));
        assert_eq!(input["properties"]["a"]["description"], "The first addend.");
        assert_eq!(tool.output_schema().unwrap()["properties"]["sum"]["type"], "integer");
        assert!(!tool.replay_safe());
        let out = run(&tool, serde_json::json!({"a": 2, "b": 3}), Some("alice")).unwrap();
        assert_eq!(out.details, serde_json::json!({"sum": 5}));
        assert_eq!(
            run(&tool, serde_json::json!({"a": 2, "b": 3}), Some("mallory")).unwrap_err().message,
            "not for you"
        );
        let refused = run(&tool, serde_json::json!({"a": 2}), None).unwrap_err();
        assert_eq!(refused.code, "input_contract", "{refused:?}");
        assert_eq!(ToolContext::new(None, None, "run_x".into(), 7).call_id, "run_x/7");
    }
}
