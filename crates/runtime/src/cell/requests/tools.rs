//! Native tool calls (GA-6.1, GA-11.2): the input checked against the
//! tool's schema, then the call through the gate (replay safety, the
//! budget, the in-flight bound and write-ahead, the policy), and a trusted
//! output schema checked after it.

use codemode_catalog::schema::Validator;
use codemode_catalog::{ToolError, ToolOutput};
use serde_json::Value;

use super::decode_cx::DecodeCx;
use super::done::Done;
use super::op::{HandleOutside, HostCx, HostOp, Outside, Rerun};
use super::outbound::{Landed, Outbound, Refused, Target};
use super::outcome::NestedResult;
use crate::cell::pending::PendingKind;
use crate::durable::journal::fnv::{Fnv, Refs};
use crate::engine::args::Args;
use crate::engine::settlement::{ErrorName, Fault, Settlement};

type ToolResult = Result<ToolOutput, ToolError>;

/// A native tool call: the engine's tool index and the input.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Call {
    pub tool: usize,
    pub input: Value,
}

impl HostOp for Call {
    const NAME: &'static str = "call";
    const WHAT: &'static str = "a tool call";
    type Reach = Outside;
    const CALL_SITE: bool = true;

    fn decode(a: &Args<'_, '_>, _: &DecodeCx<'_>) -> rquickjs::Result<Self> {
        Ok(Self { tool: a.index(0, "the tool index")?, input: a.tool_input(1)? })
    }

    fn fingerprint(&self, h: &mut Fnv, refs: &Refs<'_>) {
        h.bytes(b"call");
        refs.tool(h, self.tool);
        h.value(&self.input);
    }

    fn rerun(&self, cx: &HostCx<'_>) -> Rerun {
        match cx.host.tools().get(self.tool) {
            Some(e) if e.replay_safe => Rerun::ReplaySafe,
            Some(e) => Rerun::Once(e.metadata.callable_name.clone()),
            None => Rerun::Once(format!("tool #{} (no longer configured)", self.tool)),
        }
    }

    fn recheck(&self, _: &DecodeCx<'_>) -> Result<(), String> {
        // Any index and JSON input decode; the handler refuses a missing
        // tool and checks the input against the tool's schema.
        Ok(())
    }
}

impl HandleOutside for Call {
    fn outbound(self, id: u64, cx: &mut HostCx<'_>) -> Result<Outbound, Settlement> {
        let tools = cx.host.tools().clone();
        let Some(entry) = tools.get(self.tool) else {
            let message = tools.missing(self.tool);
            return Err(Settlement::fault(id, Fault::error(message, "tool_error")));
        };
        let violations = entry.input.validate(&self.input);
        if !violations.is_empty() {
            let name = &entry.metadata.callable_name;
            let details: Vec<String> = violations.iter().map(ToString::to_string).collect();
            let message = format!(
                "{name} input is invalid: {}. The tool was not run; check its input hint, or call describe() on its \
                 catalog handle for the full schema.",
                details.join("; ")
            );
            return Err(Settlement::fault(id, Fault::new(ErrorName::TypeError, message, "input_contract")));
        }
        let target = Target {
            source: entry.tool.source().into(),
            server: None,
            tool: entry.metadata.tool_name.clone(),
            label: entry.metadata.callable_name.clone(),
            // A registered tool: its name is host-known.
            known: true,
        };
        let rerun = self.rerun(cx);
        let name = entry.metadata.callable_name.clone();
        let index = self.tool;
        let refuse = Box::new(move |why: Refused| {
            Done::Tool(Err(match why {
                Refused::Policy(reason) => ToolError {
                    message: format!("{name} was denied by policy: {reason}"),
                    code: "policy_denied".into(),
                },
                Refused::Person(refusal) => ToolError { message: refusal.message(&name), code: refusal.code().into() },
            }))
        });
        // The registry is shared: the tool and its output schema are read
        // in place inside the call, not copied per call.
        let call = Box::new(move |input: Value, hooks: super::outbound::CallHooks| {
            let context = hooks.tool_context();
            Box::pin(async move {
                let result = match tools.get(index) {
                    Some(entry) => {
                        let result = entry.tool.call(input, context).await;
                        check_output(&entry.metadata.callable_name, entry.output.as_ref(), result)
                    }
                    None => Err(ToolError::new("unknown tool")),
                };
                Landed { outcome: result.outcome(), done: Done::Tool(result) }
            }) as super::outbound::CallFuture
        });
        Ok(Outbound { target, rerun, kind: PendingKind::CallValue, arguments: self.input, call, refuse, inline: true })
    }
}

/// Validates a trusted output schema after the call: a mismatch is an
/// `output_contract` error, never a silently wrong value.
fn check_output(name: &str, schema: Option<&Validator>, result: ToolResult) -> ToolResult {
    let (Some(schema), Ok(output)) = (schema, &result) else { return result };
    if output.is_error {
        return result;
    }
    let violations = schema.validate(&output.details);
    if violations.is_empty() {
        return result;
    }
    let details: Vec<String> =
        violations.iter().map(|v| codemode_protocol::budget::utf8_prefix(&v.to_string(), 256).to_owned()).collect();
    Err(ToolError {
        message: format!(
            "{name} returned a value that does not match its declared output schema: {}",
            details.join("; ")
        ),
        code: "output_contract".into(),
    })
}
