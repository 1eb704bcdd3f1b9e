//! Reading a request's arguments from the prelude's single native entry
//! point, `hostRequest(op, a, b, c)`: the conversion layer every request's
//! `decode` shares.
//!
//! This is the only place that reads request arguments from JavaScript
//! values. The prelude has already checked what the guest passed, so a
//! malformed request here is a prelude bug or a guest that reached the
//! raw hook; either way it becomes a `TypeError` naming the request and
//! the argument, never a panic or a silently defaulted value.

use codemode_store::StoreLimits;
use rquickjs::{Ctx, Exception, Value};
use serde_json::{Map, Value as Json};

use super::convert;

/// The arguments of one request.
pub(crate) struct Args<'a, 'js> {
    pub ctx: &'a Ctx<'js>,
    /// The request's wire name, for errors.
    pub name: &'static str,
    pub values: [Option<Value<'js>>; 3],
}

impl<'js> Args<'_, 'js> {
    /// Argument `i`, or `None` when omitted or `undefined`.
    pub(crate) fn get(&self, i: usize) -> Option<&Value<'js>> {
        self.values[i].as_ref().filter(|v| !v.is_undefined())
    }

    /// A `TypeError` naming the request and what was wrong.
    pub(crate) fn malformed(&self, what: &str, expected: &str) -> rquickjs::Error {
        Exception::throw_type(self.ctx, &format!("host request `{}`: {what} must be {expected}", self.name))
    }

    pub(crate) fn string(&self, i: usize, what: &str) -> rquickjs::Result<String> {
        match self.get(i).and_then(Value::as_string) {
            Some(s) => convert::string_lossy(self.ctx, s),
            None => Err(self.malformed(what, "a string")),
        }
    }

    /// A string, or `None` for `null`/`undefined`.
    pub(crate) fn opt_string(&self, i: usize, what: &str) -> rquickjs::Result<Option<String>> {
        match self.get(i) {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(None),
            Some(_) => self.string(i, what).map(Some),
        }
    }

    pub(crate) fn number(&self, i: usize) -> Option<f64> {
        self.get(i).and_then(|v| v.as_int().map(f64::from).or_else(|| v.as_float()))
    }

    /// A non-negative integer index (tool, server).
    pub(crate) fn index(&self, i: usize, what: &str) -> rquickjs::Result<usize> {
        match self.number(i) {
            Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Ok(n as usize),
            _ => Err(self.malformed(what, "a non-negative integer")),
        }
    }

    /// A JSON value the prelude projected (`what` names it in errors).
    pub(crate) fn projected(&self, i: usize, what: &'static str) -> rquickjs::Result<Json> {
        match self.get(i) {
            Some(v) => convert::to_json(self.ctx, v, what).map_err(|e| e.throw(self.ctx)),
            None => Err(self.malformed(what, "a value")),
        }
    }

    /// A tool input, as `JSON.stringify` would pass it (toJSON, dropped
    /// functions): no argument or `undefined` is `{}`.
    pub(crate) fn tool_input(&self, i: usize) -> rquickjs::Result<Json> {
        match self.get(i) {
            Some(v) => convert::input_to_json(self.ctx, v, "the tool input").map_err(|e| e.throw(self.ctx)),
            None => Ok(Json::Object(Map::new())),
        }
    }

    /// MCP arguments: an object, else a `TypeError` (never silently `{}`).
    pub(crate) fn mcp_args(&self, i: usize) -> rquickjs::Result<Map<String, Json>> {
        match self.projected(i, "the MCP arguments")? {
            Json::Object(map) => Ok(map),
            other => Err(Exception::throw_type(
                self.ctx,
                &format!(
                    "MCP arguments must be an object, not {}",
                    codemode_protocol::budget::utf8_prefix(&other.to_string(), 64)
                ),
            )),
        }
    }

    /// A store key: a non-empty string of at most 256 UTF-16 units, else a
    /// `TypeError` (GA-7.2).
    pub(crate) fn store_key(&self, i: usize) -> rquickjs::Result<String> {
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
    pub(crate) fn result_id(&self, i: usize) -> rquickjs::Result<String> {
        match self.get(i).and_then(Value::as_string).map(|s| convert::string_lossy(self.ctx, s)).transpose()? {
            Some(s) if !s.trim().is_empty() => Ok(s),
            _ => Err(Exception::throw_type(self.ctx, "results reference id must be a non-empty string.")),
        }
    }
}
