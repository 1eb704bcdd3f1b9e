//! The answer of one `tools/call` of `codemode serve`: the result as text
//! and as `structuredContent` (its schema is the protocol's
//! [`result_schema`](codemode_runtime::result_schema); the arguments are
//! parsed by the protocol's `ExecArgs`/`WaitArgs`).

use codemode_runtime::CellResult;
use rmcp::model::{CallToolResult, ContentBlock, ErrorData};
use serde_json::Value;

/// The MCP answer for `result`: the model-facing text, the same result as
/// structured content (see the module docs on untrusted content), and
/// `isError` for a failed cell.
pub(super) fn tool_result(result: &CellResult) -> Result<CallToolResult, ErrorData> {
    let mut structured = serde_json::to_value(result)
        .map_err(|e| ErrorData::internal_error(format!("the result could not be serialized: {e}"), None))?;
    if let (Some(_), Value::Object(fields)) = (result.untrusted(), &mut structured) {
        fields.insert("untrusted".to_owned(), Value::Bool(true));
    }
    let mut answer = CallToolResult::success(vec![ContentBlock::text(result.to_model_text())]);
    answer.structured_content = Some(structured);
    answer.is_error = Some(matches!(result, CellResult::Failed { .. }));
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_untrusted_result_is_plain_and_marked_in_structured_content_and_wrapped_in_text() {
        let result = CellResult::Completed {
            value: json!("from the network"),
            output: codemode_runtime::Output::default(),
            warnings: vec![],
            telemetry: codemode_runtime::Telemetry::default(),
            untrusted: Some("abc".into()),
        };
        let answer = tool_result(&result).unwrap();
        let structured = answer.structured_content.unwrap();
        assert_eq!((&structured["value"], &structured["untrusted"]), (&json!("from the network"), &json!(true)));
        assert_eq!(answer.is_error, Some(false));
        let text = format!("{:?}", answer.content[0]);
        assert!(text.contains("SECURITY NOTICE"), "{text}");
    }
}
