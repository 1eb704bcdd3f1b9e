//! The model's two tool calls, `exec` and `wait`: their arguments as types,
//! the checks that turn a call's JSON arguments into them, and the input
//! schemas a model is shown — derived from the same types, so a field the
//! parser reads is a field the schema lists.
//!
//! A host that gives a model `exec` and `wait` (an MCP server, an agent
//! loop) parses each tool call with [`ExecArgs::from_arguments`] or
//! [`WaitArgs::from_arguments`]; a refusal is an [`ArgumentError`] whose
//! text is the model's `invalid_input` message.

use std::sync::LazyLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::approval::{Decisions, Denial, MAX_DECISIONS};
use crate::schema::derived_schema as derived;

/// The longest `title` an `exec` accepts, in characters.
pub const MAX_TITLE_CHARS: usize = 120;

/// Arguments `wait` accepts beside its schema's: the reference's alias.
pub const WAIT_ALIASES: &[&str] = &["run_id"];

/// The arguments of one `exec` call.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExecArgs {
    /// A short title for this cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String", length(max = MAX_TITLE_CHARS))]
    pub title: Option<String>,
    /// JavaScript run as the body of an async function: use await freely
    /// and `return` the final value.
    // Required in the schema (models should give `code`), optional to
    // serde: `command` may stand in for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub code: Option<String>,
    /// Alias of `code` (JavaScript, never a shell command); give `code`
    /// instead. When both are given they must be equal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub command: Option<String>,
    /// Mark the cell safe to replay after a host restart. It may only call
    /// tools that declare themselves replay-safe: calling any other tool
    /// (MCP and node commands included) or results.save fails the cell with
    /// invalid_input; store/load are unavailable in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "bool")]
    pub restart_safe: Option<bool>,
}

/// The arguments of one `wait` call.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaitArgs {
    /// The runId of the waiting result.
    #[serde(alias = "run_id")]
    pub run_id: String,
    /// Ids of pendingApprovals to approve: those calls run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = MAX_DECISIONS))]
    pub approve: Vec<String>,
    /// pendingApprovals to deny, each with an optional reason: those calls
    /// reject with code "denied".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = MAX_DECISIONS))]
    pub deny: Vec<Denial>,
}

/// Why the arguments of a call are unusable; answered as a `failed` result
/// with `invalid_input` and this message (the reference's wording where it
/// has one).
#[derive(Debug, thiserror::Error)]
pub enum ArgumentError {
    /// An argument the tool's input schema does not list.
    #[error("{tool} does not take `{name}`; its arguments are {allowed}.")]
    Unknown {
        /// `exec` or `wait`.
        tool: &'static str,
        /// The argument.
        name: String,
        /// What it does take.
        allowed: String,
    },
    /// The retired `language`/`typecheck` fields (the reference's refusal,
    /// saying what codemode does instead: types are stripped, not checked).
    #[error(
        "Code Mode takes no language or typecheck: write JavaScript, or TypeScript whose types are stripped \
         (not checked). Remove language and typecheck; use API.read(...) for tool types."
    )]
    Retired,
    /// `code` and `command` both given, and different.
    #[error("code and command must match when both are provided.")]
    CodeMismatch,
    /// Neither `code` nor `command` is a non-blank string.
    #[error("code or command must be a non-empty string.")]
    NoCode,
    /// `title` is not a string.
    #[error("title must be a string.")]
    Title,
    /// `restartSafe` is not a boolean.
    #[error("restartSafe must be a boolean.")]
    RestartSafe,
    /// `runId` is missing, blank or not a string.
    #[error("runId must be a non-empty string.")]
    RunId,
    /// `approve`/`deny` are not what the schema says, or break a bound.
    #[error("{0}")]
    Decisions(String),
    /// `approve`/`deny` from the model, which may not decide approvals.
    #[error("{MODEL_MAY_NOT_DECIDE}")]
    ModelMayNotDecide,
    /// A tool this server does not have.
    #[error("unknown tool `{0}`; this server has `exec` and `wait`.")]
    UnknownTool(String),
}

/// Why a model's `wait` may not decide approvals.
pub const MODEL_MAY_NOT_DECIDE: &str = "wait takes no decisions from the model: a call a policy asks about is \
    decided by a person (the MCP client's user, or an operator with `codemode runs approve|deny`), never by the model \
    that made it. Nothing was decided; call wait again later to go on.";

impl ExecArgs {
    /// The arguments of an `exec` call, checked: no argument its schema
    /// does not list, `code`/`command` agreeing, each of the right type.
    ///
    /// # Errors
    /// What is wrong, in the words the model reads.
    pub fn from_arguments(args: &Map<String, Value>) -> Result<Self, ArgumentError> {
        if args.contains_key("language") || args.contains_key("typecheck") {
            return Err(ArgumentError::Retired);
        }
        check_known("exec", &EXEC_PROPERTIES, &[], args)?;
        let source = |key: &str| match args.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str()).filter(|s| !s.trim().is_empty())),
            Some(_) => Err(ArgumentError::NoCode),
        };
        let code = code_or_command(source("code")?, source("command")?)?.to_owned();
        let title = match args.get("title") {
            None => None,
            Some(Value::String(title)) => Some(title.clone()),
            Some(_) => return Err(ArgumentError::Title),
        };
        let restart_safe = match args.get("restartSafe") {
            None => None,
            Some(flag) => Some(flag.as_bool().ok_or(ArgumentError::RestartSafe)?),
        };
        Ok(Self { title, code: Some(code), command: None, restart_safe })
    }

    /// The cell's source: `code`, or its alias `command` (blank ones count
    /// as absent); they must agree when both are given.
    ///
    /// # Errors
    /// Both given and different, or neither.
    pub fn source(&self) -> Result<&str, ArgumentError> {
        code_or_command(self.code.as_deref(), self.command.as_deref())
    }
}

impl WaitArgs {
    /// The arguments of a `wait` call, checked. Decisions (`approve`,
    /// `deny`) are refused unless the host lets the model decide.
    ///
    /// # Errors
    /// What is wrong, in the words the model reads.
    pub fn from_arguments(args: &Map<String, Value>, model_decides: bool) -> Result<Self, ArgumentError> {
        // Decisions from a model that may not make them are refused saying
        // why, not as unknown arguments.
        if !model_decides && (args.contains_key("approve") || args.contains_key("deny")) {
            return Err(ArgumentError::ModelMayNotDecide);
        }
        check_known("wait", &WAIT_PROPERTIES, WAIT_ALIASES, args)?;
        let run_id = args
            .get("runId")
            .or_else(|| args.get("run_id"))
            .and_then(Value::as_str)
            .filter(|id| !id.trim().is_empty())
            .ok_or(ArgumentError::RunId)?
            .to_owned();
        let mut given = Map::new();
        for key in ["approve", "deny"] {
            if let Some(v) = args.get(key) {
                given.insert(key.to_owned(), v.clone());
            }
        }
        let decisions: Decisions = serde_json::from_value(Value::Object(given)).map_err(|e| {
            ArgumentError::Decisions(format!(
                "approve must be an array of approval ids and deny an array of {{id, reason?}} ({e})."
            ))
        })?;
        decisions.check().map_err(ArgumentError::Decisions)?;
        Ok(Self { run_id, approve: decisions.approve, deny: decisions.deny })
    }

    /// The decisions this `wait` carries.
    #[must_use]
    pub fn decisions(&self) -> Decisions {
        Decisions { approve: self.approve.clone(), deny: self.deny.clone() }
    }
}

/// The cell's source from `code` and its alias `command` (blank ones
/// count as absent): they must agree when both are given.
///
/// # Errors
/// Both given and different, or neither.
pub fn code_or_command<'a>(code: Option<&'a str>, command: Option<&'a str>) -> Result<&'a str, ArgumentError> {
    let given = |s: Option<&'a str>| s.filter(|s| !s.trim().is_empty());
    match (given(code), given(command)) {
        (Some(code), Some(command)) if code != command => Err(ArgumentError::CodeMismatch),
        (Some(code), _) | (None, Some(code)) => Ok(code),
        (None, None) => Err(ArgumentError::NoCode),
    }
}

/// The input schema of `exec`, from [`ExecArgs`]. The `code` description
/// is the runtime's to set (it says whether TypeScript is accepted).
#[must_use]
pub fn exec_input_schema() -> Value {
    EXEC_SCHEMA.clone()
}

/// The input schema of `wait`, from [`WaitArgs`]: with `approve` and
/// `deny` only when the host lets the model decide approvals.
#[must_use]
pub fn wait_input_schema(model_decides: bool) -> Value {
    let mut schema = WAIT_SCHEMA.clone();
    if !model_decides && let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        properties.retain(|name, _| name == "runId");
    }
    schema
}

static EXEC_SCHEMA: LazyLock<Value> = LazyLock::new(derived::<ExecArgs>);
static EXEC_PROPERTIES: LazyLock<Vec<String>> = LazyLock::new(|| properties(&EXEC_SCHEMA));
static WAIT_SCHEMA: LazyLock<Value> = LazyLock::new(derived::<WaitArgs>);
static WAIT_PROPERTIES: LazyLock<Vec<String>> = LazyLock::new(|| properties(&WAIT_SCHEMA));

fn properties(schema: &Value) -> Vec<String> {
    schema.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default()
}

/// Refuses any argument of `tool` that is neither one of its schema's
/// `properties` nor one of `aliases` (the schemas say
/// `additionalProperties: false`; an ignored typo would run something else
/// than asked).
fn check_known(
    tool: &'static str,
    properties: &[String],
    aliases: &[&str],
    args: &Map<String, Value>,
) -> Result<(), ArgumentError> {
    let known = |name: &str| properties.iter().any(|p| p == name) || aliases.contains(&name);
    match args.keys().find(|name| !known(name)) {
        None => Ok(()),
        Some(name) => {
            let allowed: Vec<String> = properties.iter().map(|k| format!("`{k}`")).collect();
            Err(ArgumentError::Unknown { tool, name: name.clone(), allowed: allowed.join(", ") })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    fn exec(v: Value) -> Result<String, ArgumentError> {
        ExecArgs::from_arguments(&args(v)).map(|a| a.source().unwrap().to_owned())
    }

    #[test]
    fn command_aliases_code_and_both_must_agree_ga_1_4() {
        assert_eq!(exec(json!({"command": "return 1"})).unwrap(), "return 1");
        assert_eq!(exec(json!({"code": " ", "command": "return 1"})).unwrap(), "return 1");
        assert!(matches!(exec(json!({"code": "a", "command": "b"})), Err(ArgumentError::CodeMismatch)));
        assert!(matches!(exec(json!({"code": 1})), Err(ArgumentError::NoCode)));
        assert!(matches!(exec(json!({"code": "a", "title": 3})), Err(ArgumentError::Title)));
        assert!(matches!(exec(json!({"code": "a", "restartSafe": "yes"})), Err(ArgumentError::RestartSafe)));
        assert!(matches!(exec(json!({"code": "a", "language": "ts"})), Err(ArgumentError::Retired)));
    }

    #[test]
    fn arguments_outside_the_schema_are_refused_by_name_ga_1_4() {
        let e = exec(json!({"code": "x", "cod": 1})).unwrap_err();
        assert_eq!(
            e.to_string(),
            "exec does not take `cod`; its arguments are `title`, `code`, `command`, `restartSafe`."
        );
        let wait = WaitArgs::from_arguments(&args(json!({"run_id": "r"})), false).unwrap();
        assert_eq!(wait.run_id, "r");
        let e = WaitArgs::from_arguments(&args(json!({"runId": "r", "approve": ["a"]})), false).unwrap_err();
        assert!(matches!(e, ArgumentError::ModelMayNotDecide));
        let decided = WaitArgs::from_arguments(&args(json!({"runId": "r", "deny": [{"id": "a"}]})), true).unwrap();
        assert_eq!(decided.decisions().deny[0].id, "a");
        assert!(WaitArgs::from_arguments(&args(json!({"runId": " "})), true).is_err());
    }

    #[test]
    fn the_input_schemas_list_what_the_parsers_read_and_no_more_ga_1_4() {
        let schema = exec_input_schema();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["code"]));
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(schema["properties"]["title"]["maxLength"], json!(MAX_TITLE_CHARS));
        assert_eq!(schema["properties"]["command"]["type"], "string");
        assert_eq!(schema["properties"]["restartSafe"]["type"], "boolean");
        let plain = wait_input_schema(false);
        assert_eq!(plain["required"], json!(["runId"]));
        assert_eq!(plain["properties"].as_object().unwrap().len(), 1);
        let decides = wait_input_schema(true);
        assert_eq!(decides["properties"]["approve"]["maxItems"], json!(MAX_DECISIONS));
        assert_eq!(decides["properties"]["deny"]["items"]["required"], json!(["id"]));
        // Embedders may deserialize the same arguments directly.
        let typed: WaitArgs = serde_json::from_value(json!({"run_id": "r", "approve": ["a"]})).unwrap();
        assert_eq!(typed.decisions().approve, ["a"]);
    }
}
