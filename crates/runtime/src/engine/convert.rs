//! Values crossing between the guest and the host, converted QuickJS value
//! ↔ `serde_json::Value` directly, without JSON text in between (GA-1.4,
//! GA-4.1, GA-11.2): request arguments, results, output, and the host's
//! replies.
//!
//! Two rules, and no other way for a value to change:
//!
//! - **Lone surrogates become U+FFFD.** A JavaScript string may hold a lone
//!   UTF-16 surrogate (`'\ud83e'`); Rust strings and JSON text produced by
//!   the host cannot. Each lone surrogate crosses as U+FFFD (the replacement
//!   character), in values, keys, `text`, `console`, error messages, tool
//!   inputs, store and results. Well-formed pairs (emoji) are kept.
//! - **Nesting is bounded at [`MAX_DEPTH`] (512) levels.** A value nested
//!   deeper fails the cell (or the call, for a tool input or `json()`) with
//!   an error naming the bound and the path where it was crossed. 512 is far
//!   below what the engine's stack allows with the default 4 MiB JS stack
//!   (≈6,000 frames) and far above what data needs.
//!
//! Every failure is a typed [`ConvertError`]: nothing becomes `null`.
//! Values reach this module already projected by the prelude (plain,
//! null-prototype copies: no getters, proxies or `toJSON`), so walking them
//! runs no guest code.

use rquickjs::function::This;
use rquickjs::{Ctx, Function, Object, Type, Value};
use serde_json::{Map, Number, Value as Json};

/// The deepest nesting a value may have when it crosses into the host: a
/// scalar is at depth 0, `[x]` one level deeper than `x`. Mirrored by the
/// prelude's projection (`MAX_DEPTH` in prelude.js).
pub(crate) const MAX_DEPTH: usize = 512;

/// Why a guest value could not cross into the host.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ConvertError {
    /// Nested deeper than [`MAX_DEPTH`].
    #[error(
        "{what} is nested more than {MAX_DEPTH} levels deep (at {path}); flatten it (for example into an array of \
         rows) or pass a smaller part of it"
    )]
    TooDeep { what: &'static str, path: String },
    /// A value JSON has no form for (should not survive projection).
    #[error("{what} holds a {kind} at {path}, which has no JSON form; convert it to a string or number first")]
    Unsupported { what: &'static str, kind: &'static str, path: String },
    /// Two keys that differ only in lone surrogates collide once both are
    /// U+FFFD: one of the values would be lost.
    #[error(
        "{what} has two keys at {path} that differ only in lone surrogates (both become {key:?}); rename one of them"
    )]
    KeyCollision { what: &'static str, key: String, path: String },
    /// The engine failed while reading the value (out of memory, interrupt).
    #[error("the engine failed while reading {what}: {message}")]
    Engine { what: &'static str, message: String },
    /// `JSON.stringify` refused a tool input (a cycle, a BigInt, a throwing
    /// getter or `toJSON`).
    #[error("tool input must be JSON-serializable (no cycles or BigInt values)")]
    NotSerializable,
}

impl ConvertError {
    /// The JavaScript error class the guest sees.
    pub(crate) fn js_name(&self) -> &'static str {
        match self {
            Self::TooDeep { .. } => "RangeError",
            Self::Unsupported { .. } | Self::KeyCollision { .. } | Self::NotSerializable => "TypeError",
            Self::Engine { .. } => "InternalError",
        }
    }

    /// Throws this error in the guest.
    pub(crate) fn throw(&self, ctx: &Ctx<'_>) -> rquickjs::Error {
        let message = self.to_string();
        match self.js_name() {
            "RangeError" => rquickjs::Exception::throw_range(ctx, &message),
            "TypeError" => rquickjs::Exception::throw_type(ctx, &message),
            _ => rquickjs::Exception::throw_internal(ctx, &message),
        }
    }
}

/// One step of a path, recorded only while an error unwinds.
enum Step {
    Index(usize),
    Key(String),
}

/// A failure on its way up, collecting the path (innermost step first).
struct Failure {
    kind: FailureKind,
    steps: Vec<Step>,
}

enum FailureKind {
    TooDeep,
    Unsupported(&'static str),
    KeyCollision(String),
    Engine(String),
}

impl Failure {
    fn new(kind: FailureKind) -> Self {
        Self { kind, steps: Vec::new() }
    }

    fn at(mut self, step: Step) -> Self {
        self.steps.push(step);
        self
    }

    fn engine(e: &rquickjs::Error) -> Self {
        Self::new(FailureKind::Engine(e.to_string()))
    }

    fn into_error(self, what: &'static str) -> ConvertError {
        let path = path_text(&self.steps);
        match self.kind {
            FailureKind::TooDeep => ConvertError::TooDeep { what, path },
            FailureKind::Unsupported(kind) => ConvertError::Unsupported { what, kind, path },
            FailureKind::KeyCollision(key) => ConvertError::KeyCollision { what, key, path },
            FailureKind::Engine(message) => ConvertError::Engine { what, message },
        }
    }
}

/// `$.a[0].b`, eliding the middle of very deep paths (the bound is 512).
fn path_text(innermost_first: &[Step]) -> String {
    const HEAD: usize = 6;
    const TAIL: usize = 2;
    let steps: Vec<&Step> = innermost_first.iter().rev().collect();
    let render = |s: &&Step| match s {
        Step::Index(i) => format!("[{i}]"),
        Step::Key(k) if is_identifier(k) => format!(".{k}"),
        Step::Key(k) => format!("[{}]", Json::String(k.clone())),
    };
    let mut out = "$".to_owned();
    if steps.len() <= HEAD + TAIL + 1 {
        steps.iter().for_each(|s| out.push_str(&render(s)));
    } else {
        steps[..HEAD].iter().for_each(|s| out.push_str(&render(s)));
        out.push_str(&format!("…({} more levels)…", steps.len() - HEAD - TAIL));
        steps[steps.len() - TAIL..].iter().for_each(|s| out.push_str(&render(s)));
    }
    out
}

fn is_identifier(k: &str) -> bool {
    let mut chars = k.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// Converts a projected guest value (`what` names it in errors, e.g. "the
/// returned value"). `undefined` at the top is `null`, as `JSON.stringify`
/// would make the cell's missing value; inside objects it is skipped and
/// inside arrays it is `null`, as in JSON.
pub(crate) fn to_json<'js>(ctx: &Ctx<'js>, value: &Value<'js>, what: &'static str) -> Result<Json, ConvertError> {
    let walker = Walker { well_formed: well_formed_fn(ctx).map_err(|e| Failure::engine(&e).into_error(what))? };
    walker.walk(value, 0).map_err(|f| f.into_error(what))
}

/// Converts a tool input with `JSON.stringify` semantics (`toJSON` runs,
/// getters run once, functions and symbols are dropped), as the guest
/// passed it — tool inputs are not projected by the prelude.
///
/// Plain data (arrays, and objects whose prototype is `Object.prototype`
/// or `null`, with no `toJSON` anywhere) is walked directly. Anything else
/// — a `Date`, a handle, a boxed primitive, a proxy, a cycle, a value past
/// the depth bound, a getter that throws — is converted by the engine's
/// own `JSON.stringify` instead, which is exactly what those values mean
/// for a tool; its text is then converted as any other (so the depth
/// bound and the lone-surrogate rule still apply). A getter on such a
/// value may run twice: once here, once in `JSON.stringify`.
pub(crate) fn input_to_json<'js>(ctx: &Ctx<'js>, value: &Value<'js>, what: &'static str) -> Result<Json, ConvertError> {
    if let Ok(plain) = PlainWalker::new(ctx) {
        match plain.walk(value, 0) {
            Ok(Some(json)) => return Ok(json),
            // A function or symbol: `JSON.stringify` gives `undefined`.
            Ok(None) => return Ok(Json::Null),
            Err(NotPlain) => {
                // A getter may have thrown: its exception is not the answer.
                let _ = ctx.catch();
            }
        }
    }
    match ctx.json_stringify(value.clone()) {
        Ok(Some(s)) => {
            let text = s.to_string().map_err(|e| Failure::engine(&e).into_error(what))?;
            parse_to_json(ctx, &text, what)
        }
        Ok(None) => Ok(Json::Null),
        Err(_) => {
            let _ = ctx.catch();
            Err(ConvertError::NotSerializable)
        }
    }
}

/// A value [`PlainWalker`] leaves to `JSON.stringify`.
struct NotPlain;

/// Walks plain data with `JSON.stringify` semantics; see [`input_to_json`].
struct PlainWalker<'js> {
    walker: Walker<'js>,
    object_prototype: Object<'js>,
    to_json: rquickjs::Atom<'js>,
}

impl<'js> PlainWalker<'js> {
    fn new(ctx: &Ctx<'js>) -> rquickjs::Result<Self> {
        let captured = ctx.userdata::<Captured>().ok_or_else(|| {
            rquickjs::Error::new_from_js_message("object", "object", "the conversion helpers were not captured")
        })?;
        Ok(Self {
            walker: Walker { well_formed: captured.well_formed.clone() },
            object_prototype: captured.object_prototype.clone(),
            to_json: captured.to_json.clone(),
        })
    }

    /// Whether `JSON.stringify` would call a `toJSON` on `object` (its own
    /// or inherited, including one a guest put on `Object.prototype`).
    fn has_to_json(&self, object: &Object<'js>) -> bool {
        !matches!(object.get::<_, Value>(self.to_json.clone()), Ok(v) if v.is_undefined())
    }

    /// `None`: a value `JSON.stringify` drops (function, symbol, undefined).
    fn walk(&self, value: &Value<'js>, depth: usize) -> Result<Option<Json>, NotPlain> {
        match value.type_of() {
            Type::Undefined | Type::Uninitialized | Type::Function | Type::Constructor | Type::Symbol => Ok(None),
            Type::Null => Ok(Some(Json::Null)),
            Type::Bool | Type::Int | Type::Float | Type::String => {
                self.walker.walk(value, depth).map(Some).map_err(|_| NotPlain)
            }
            Type::Array => {
                let array = value.as_array().ok_or(NotPlain)?;
                if depth >= MAX_DEPTH || self.has_to_json(array.as_object()) {
                    return Err(NotPlain);
                }
                let mut out = Vec::with_capacity(array.len());
                for i in 0..array.len() {
                    let item: Value = array.get(i).map_err(|_| NotPlain)?;
                    out.push(self.walk(&item, depth + 1)?.unwrap_or(Json::Null));
                }
                Ok(Some(Json::Array(out)))
            }
            Type::Object => {
                let object = value.as_object().ok_or(NotPlain)?;
                let plain = match object.get_prototype() {
                    None => true,
                    Some(p) => p == self.object_prototype,
                };
                if !plain || depth >= MAX_DEPTH || self.has_to_json(object) {
                    return Err(NotPlain);
                }
                let mut out = Map::new();
                for prop in object.props::<rquickjs::String, Value>() {
                    let (key, item) = prop.map_err(|_| NotPlain)?;
                    let Some(converted) = self.walk(&item, depth + 1)? else { continue };
                    let key = self.walker.string(&key).map_err(|_| NotPlain)?;
                    if out.insert(key, converted).is_some() {
                        return Err(NotPlain); // keys that differ only in lone surrogates
                    }
                }
                Ok(Some(Json::Object(out)))
            }
            _ => Err(NotPlain),
        }
    }
}

/// Builds a host value in the engine, as `JSON.parse` of its text would:
/// own data properties (never a guest setter, `__proto__` an ordinary key).
/// Deeper than [`MAX_DEPTH`], the rest goes through the engine's
/// `JSON.parse`, which bounds its own recursion.
pub(crate) fn from_json<'js>(ctx: &Ctx<'js>, value: &Json) -> rquickjs::Result<Value<'js>> {
    from_json_at(ctx, value, 0)
}

fn from_json_at<'js>(ctx: &Ctx<'js>, value: &Json, depth: usize) -> rquickjs::Result<Value<'js>> {
    use rquickjs::IntoJs;
    use rquickjs::object::Property;
    Ok(match value {
        Json::Null => Value::new_null(ctx.clone()),
        Json::Bool(b) => Value::new_bool(ctx.clone(), *b),
        Json::Number(n) => match n.as_i64().and_then(|i| i32::try_from(i).ok()) {
            Some(i) => Value::new_int(ctx.clone(), i),
            None => Value::new_number(ctx.clone(), n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => s.as_str().into_js(ctx)?,
        _ if depth >= MAX_DEPTH => ctx.json_parse(value.to_string())?,
        Json::Array(items) => {
            let array = rquickjs::Array::new(ctx.clone())?;
            for (i, item) in items.iter().enumerate() {
                let item = from_json_at(ctx, item, depth + 1)?;
                array.as_object().prop(i as u32, Property::from(item).writable().enumerable().configurable())?;
            }
            array.into_value()
        }
        Json::Object(map) => {
            let object = Object::new(ctx.clone())?;
            for (key, item) in map {
                let item = from_json_at(ctx, item, depth + 1)?;
                object.prop(key.as_str(), Property::from(item).writable().enumerable().configurable())?;
            }
            object.into_value()
        }
    })
}

/// Parses JSON text inside the engine and converts the result: for text the
/// guest produced with `JSON.stringify` (it escapes lone surrogates, which
/// serde_json refuses, and may nest deeper than serde_json's 128 levels).
pub(crate) fn parse_to_json<'js>(ctx: &Ctx<'js>, text: &str, what: &'static str) -> Result<Json, ConvertError> {
    let value = ctx.json_parse(text.as_bytes().to_vec()).map_err(|e| {
        let _ = ctx.catch();
        Failure::engine(&e).into_error(what)
    })?;
    to_json(ctx, &value, what)
}

/// A guest string as Rust text, lone surrogates as U+FFFD.
pub(crate) fn string_lossy<'js>(ctx: &Ctx<'js>, s: &rquickjs::String<'js>) -> rquickjs::Result<String> {
    match s.to_string() {
        Err(rquickjs::Error::Utf8(_)) => well_formed(&well_formed_fn(ctx)?, s),
        other => other,
    }
}

/// Any guest value as text: strings lossily (see [`string_lossy`]), other
/// values as `String(value)` would show them.
pub(crate) fn text_lossy<'js>(ctx: &Ctx<'js>, value: &Value<'js>) -> rquickjs::Result<String> {
    match value.as_string() {
        Some(s) => string_lossy(ctx, s),
        None => {
            let s: rquickjs::Coerced<rquickjs::String> = rquickjs::FromJs::from_js(ctx, value.clone())?;
            let s = s.0;
            string_lossy(ctx, &s)
        }
    }
}

/// `String.prototype.toWellFormed`, captured by [`capture`] while the engine
/// is prepared, before any guest code ran (a guest cannot replace it for
/// the host).
fn well_formed_fn<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Function<'js>> {
    ctx.userdata::<Captured>()
        .map(|c| c.well_formed.clone())
        .ok_or_else(|| rquickjs::Error::new_from_js_message("string", "string", "toWellFormed was not captured"))
}

/// Captures `String.prototype.toWellFormed` and `Object.prototype`; call
/// before guest code runs.
pub(crate) fn capture(ctx: &Ctx<'_>) -> rquickjs::Result<()> {
    let f: Function = ctx.globals().get::<_, Object>("String")?.get::<_, Object>("prototype")?.get("toWellFormed")?;
    let object_prototype: Object = ctx.globals().get::<_, Object>("Object")?.get("prototype")?;
    let to_json = rquickjs::Atom::from_str(ctx.clone(), "toJSON")?;
    ctx.store_userdata(Captured { well_formed: f, object_prototype, to_json }).map(|_| ()).map_err(|_| {
        rquickjs::Error::new_from_js_message("string", "string", "the conversion helpers could not be stored")
    })
}

/// Engine values the conversions need, captured before guest code ran.
struct Captured<'js> {
    well_formed: Function<'js>,
    object_prototype: Object<'js>,
    /// The `toJSON` key, made once rather than per object.
    to_json: rquickjs::Atom<'js>,
}

#[expect(
    unsafe_code,
    reason = "rquickjs requires an unsafe impl to store JS values as user data; Captured only holds 'js values"
)]
// SAFETY: `Captured` has exactly one lifetime, 'js, and `Changed` substitutes it.
unsafe impl<'js> rquickjs::JsLifetime<'js> for Captured<'js> {
    type Changed<'to> = Captured<'to>;
}

fn well_formed<'js>(f: &Function<'js>, s: &rquickjs::String<'js>) -> rquickjs::Result<String> {
    let fixed: rquickjs::String = f.call((This(s.clone()),))?;
    fixed.to_string()
}

struct Walker<'js> {
    well_formed: Function<'js>,
}

impl<'js> Walker<'js> {
    fn string(&self, s: &rquickjs::String<'js>) -> Result<String, Failure> {
        match s.to_string() {
            Err(rquickjs::Error::Utf8(_)) => well_formed(&self.well_formed, s).map_err(|e| Failure::engine(&e)),
            other => other.map_err(|e| Failure::engine(&e)),
        }
    }

    /// `depth`: how many containers enclose `value`.
    fn walk(&self, value: &Value<'js>, depth: usize) -> Result<Json, Failure> {
        let unsupported = |kind| Err(Failure::new(FailureKind::Unsupported(kind)));
        match value.type_of() {
            Type::Undefined | Type::Null | Type::Uninitialized => Ok(Json::Null),
            Type::Bool => Ok(Json::Bool(value.as_bool().unwrap_or_default())),
            Type::Int => Ok(Json::from(value.as_int().unwrap_or_default())),
            Type::Float => Ok(number(value.as_float().unwrap_or(f64::NAN))),
            Type::String => match value.as_string() {
                Some(s) => self.string(s).map(Json::String),
                None => unsupported("string"),
            },
            Type::Array => {
                if depth >= MAX_DEPTH {
                    return Err(Failure::new(FailureKind::TooDeep));
                }
                let Some(array) = value.as_array() else { return unsupported("array") };
                let mut out = Vec::with_capacity(array.len());
                for i in 0..array.len() {
                    let item: Value = array.get(i).map_err(|e| Failure::engine(&e).at(Step::Index(i)))?;
                    out.push(self.walk(&item, depth + 1).map_err(|f| f.at(Step::Index(i)))?);
                }
                Ok(Json::Array(out))
            }
            Type::Object | Type::Exception => {
                if depth >= MAX_DEPTH {
                    return Err(Failure::new(FailureKind::TooDeep));
                }
                let Some(object) = value.as_object() else { return unsupported("object") };
                let mut out = Map::new();
                for prop in object.props::<Value, Value>() {
                    let (key, item) = prop.map_err(|e| Failure::engine(&e))?;
                    let key = match key.as_string() {
                        Some(k) => self.string(k)?,
                        None => return unsupported("symbol key"),
                    };
                    if item.is_undefined() || item.is_function() || item.type_of() == Type::Symbol {
                        continue; // as JSON.stringify skips them
                    }
                    let converted = self.walk(&item, depth + 1).map_err(|f| f.at(Step::Key(key.clone())))?;
                    if out.contains_key(&key) {
                        return Err(Failure::new(FailureKind::KeyCollision(key)));
                    }
                    out.insert(key, converted);
                }
                Ok(Json::Object(out))
            }
            Type::BigInt => unsupported("BigInt"),
            Type::Symbol => unsupported("symbol"),
            Type::Function | Type::Constructor => unsupported("function"),
            Type::Promise => unsupported("Promise"),
            Type::Proxy => unsupported("Proxy"),
            Type::Module => unsupported("module"),
            Type::Unknown => unsupported("value of unknown type"),
        }
    }
}

/// A JavaScript number as JSON, as `JSON.stringify` writes it: integral
/// values below 1e21 are integers (`-0` is `0`), non-finite ones `null`.
fn number(f: f64) -> Json {
    if !f.is_finite() {
        return Json::Null;
    }
    if f.fract() == 0.0 && f.abs() < 1e21 {
        // 2^63 and 2^64 are exact as f64: the ranges make both casts exact.
        const I64_END: f64 = 9_223_372_036_854_775_808.0;
        const U64_END: f64 = 18_446_744_073_709_551_616.0;
        if (-I64_END..I64_END).contains(&f) {
            return Json::from(f as i64);
        }
        if (0.0..U64_END).contains(&f) {
            return Json::from(f as u64);
        }
    }
    Number::from_f64(f).map_or(Json::Null, Json::Number)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with<R>(f: impl FnOnce(&Ctx<'_>) -> R) -> R {
        let rt = rquickjs::Runtime::new().expect("runtime");
        let ctx = rquickjs::Context::full(&rt).expect("context");
        ctx.with(|ctx| f(&ctx))
    }

    fn convert(source: &str) -> Result<Json, ConvertError> {
        with(|ctx| {
            capture(ctx).expect("capture");
            let v: Value = ctx.eval(source).expect("eval");
            to_json(ctx, &v, "the value")
        })
    }

    #[test]
    fn lone_surrogates_become_u_fffd_and_pairs_are_kept() {
        let v = convert("({'\\ud83e': ['a \\udd9e b', '\\ud83e\\udd9e']})").unwrap();
        assert_eq!(v, serde_json::json!({"\u{fffd}": ["a \u{fffd} b", "\u{1f99e}"]}));
    }

    #[test]
    fn nesting_exactly_at_the_bound_crosses_and_one_more_fails_with_the_path() {
        let deep = |n: usize| format!("(() => {{ let v = 1; for (let i = 0; i < {n}; i++) v = [v]; return v; }})()");
        let mut v = convert(&deep(MAX_DEPTH)).unwrap();
        let mut levels = 0;
        while let Json::Array(mut a) = v {
            levels += 1;
            v = a.pop().unwrap_or_default();
        }
        assert_eq!(levels, MAX_DEPTH);
        let err = convert(&deep(MAX_DEPTH + 1)).unwrap_err();
        assert!(matches!(err, ConvertError::TooDeep { .. }), "{err}");
        assert!(
            err.to_string().contains("more than 512 levels deep (at $[0][0][0][0][0][0]…(504 more levels)…[0][0])"),
            "{err}"
        );
    }

    #[test]
    fn numbers_cross_as_json_stringify_writes_them() {
        let v = convert("[1, -0, 1.5, 2**53, 1e21, NaN, -Infinity, 2**64]").unwrap();
        assert_eq!(v.to_string(), "[1,0,1.5,9007199254740992,1e+21,null,null,1.8446744073709552e+19]");
    }

    #[test]
    fn colliding_keys_and_bigints_are_errors_not_losses() {
        let err = convert("({a: {'\\ud83e': 1, '\\ud83f': 2}})").unwrap_err();
        assert!(matches!(err, ConvertError::KeyCollision { ref path, .. } if path == "$.a"), "{err}");
        let err = convert("({n: [1n]})").unwrap_err();
        assert_eq!(
            err.to_string(),
            "the value holds a BigInt at $.n[0], which has no JSON form; convert it to a string or number first"
        );
    }

    fn input(source: &str) -> Result<Json, ConvertError> {
        with(|ctx| {
            capture(ctx).expect("capture");
            let v: Value = ctx.eval(source).expect("eval");
            input_to_json(ctx, &v, "the tool input")
        })
    }

    #[test]
    fn tool_inputs_cross_as_json_stringify_passes_them() {
        // Plain data, walked directly: functions dropped, undefined in arrays null.
        let v = input("({a: [1, undefined, () => 1], b: {c: 'x \\ud83e'}, f() {}, n: NaN})").unwrap();
        assert_eq!(v, serde_json::json!({"a": [1, null, null], "b": {"c": "x \u{fffd}"}, "n": null}));
        // toJSON (a Date, a patched prototype) and boxed values go through JSON.stringify.
        assert_eq!(input("({d: new Date(0)})").unwrap(), serde_json::json!({"d": "1970-01-01T00:00:00.000Z"}));
        assert_eq!(input("[new String('s'), new Number(2)]").unwrap(), serde_json::json!(["s", 2]));
        assert_eq!(input("({o: {toJSON() { return 7 }}})").unwrap(), serde_json::json!({"o": 7}));
        assert_eq!(input("Object.prototype.toJSON = () => 'p'; ({})").unwrap(), serde_json::json!("p"));
        // A cycle or a BigInt is refused, never nulled.
        assert_eq!(input("const o = {}; o.o = o; o").unwrap_err(), ConvertError::NotSerializable);
        assert_eq!(input("({n: 1n})").unwrap_err(), ConvertError::NotSerializable);
    }

    #[test]
    fn host_values_are_built_as_json_parse_builds_them() {
        let out = with(|ctx| {
            capture(ctx).expect("capture");
            // A guest setter on Object.prototype is never called, and
            // `__proto__` is an ordinary own key.
            let _: Value =
                ctx.eval("Object.defineProperty(Object.prototype, 'ok', {set() { throw 1 }})").expect("eval");
            let value = serde_json::json!({"ok": true, "__proto__": [1, 2.5, "s", null], "big": 1u64 << 40});
            let v = from_json(ctx, &value).expect("build");
            let check: Function = ctx
                .eval("(v) => [Object.getPrototypeOf(v) === Object.prototype, Object.keys(v).join(), v.ok, v.big]")
                .expect("eval");
            let out: Value = check.call((v.clone(),)).expect("call");
            to_json(ctx, &out, "out").expect("convert")
        });
        assert_eq!(out, serde_json::json!([true, "ok,__proto__,big", true, 1u64 << 40]));
    }

    #[test]
    fn text_with_escaped_surrogates_parses_deeper_than_serde_json_allows() {
        let text = format!("{}\"\\ud83e\"{}", "[".repeat(300), "]".repeat(300));
        let v = with(|ctx| {
            capture(ctx).expect("capture");
            parse_to_json(ctx, &text, "the input")
        })
        .unwrap();
        assert!(v.to_string().contains('\u{fffd}'));
    }
}
