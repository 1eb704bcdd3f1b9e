//! The context a cell's engine gets: every intrinsic `Context::full`
//! adds, in the same order, with the two that cells rarely touch and that
//! cost most added on first touch.
//!
//! Making a full context is about a third of a bare engine's life, and a
//! third of that is typed arrays (with `Atomics`) and base64 with
//! `DOMException`, which few cells use. Their globals start as
//! configurable accessors where the full context defines them; the first
//! read or write of any name of a group runs the intrinsic's own
//! `JS_AddIntrinsic…` call ([`materialize`]), which leaves the global
//! object as the full context has it: the same properties, descriptors
//! and order, and what the guest did to a sibling name before (deleted
//! it, assigned it) kept.
//!
//! Two things could tell a placeholder from the real property before the
//! first touch: reading its descriptor, and freezing or sealing
//! `globalThis` (a non-configurable placeholder cannot be replaced). A
//! cell whose source names a function that does either ([`EAGER_WORDS`])
//! gets every group added before it runs, so it sees exactly the full
//! context; a cell that reaches them without naming them and then touches
//! a lazy global after freezing gets a `TypeError` that says so.

use std::sync::OnceLock;

use rquickjs::{Context, Ctx, Function, JsLifetime, Object, Runtime, Value, qjs};

/// A `JS_AddIntrinsic…` call.
type Add = unsafe extern "C" fn(*mut qjs::JSContext) -> std::os::raw::c_int;

/// One intrinsic of the full context.
struct Step {
    name: &'static str,
    add: Add,
    lazy: bool,
}

/// `JS_NewContext`'s intrinsics after the base objects, in its order.
/// Async functions need Promise, string methods RegExp, the prelude Date
/// and Map at install; Proxy (the MCP namespace) and WeakRef cost little.
const STEPS: [Step; 11] = [
    Step { name: "Date", add: qjs::JS_AddIntrinsicDate, lazy: false },
    Step { name: "Eval", add: qjs::JS_AddIntrinsicEval, lazy: false },
    Step { name: "RegExp", add: qjs::JS_AddIntrinsicRegExp, lazy: false },
    Step { name: "JSON", add: qjs::JS_AddIntrinsicJSON, lazy: false },
    Step { name: "Proxy", add: qjs::JS_AddIntrinsicProxy, lazy: false },
    Step { name: "MapSet", add: qjs::JS_AddIntrinsicMapSet, lazy: false },
    Step { name: "TypedArrays", add: qjs::JS_AddIntrinsicTypedArrays, lazy: true },
    Step { name: "Promise", add: qjs::JS_AddIntrinsicPromise, lazy: false },
    Step { name: "WeakRef", add: qjs::JS_AddIntrinsicWeakRef, lazy: false },
    Step { name: "AToB", add: qjs::JS_AddIntrinsicAToB, lazy: true },
    Step { name: "Performance", add: qjs::JS_AddPerformance, lazy: false },
];

/// Words whose presence in a cell's source adds every lazy group before
/// the cell runs: the functions that read a global's descriptor or make
/// it non-configurable (`Object.freeze`, `Object.seal`,
/// `Object.defineProperty`/`defineProperties`, `Reflect.defineProperty`,
/// `Object.getOwnPropertyDescriptor(s)`, `__lookupGetter__`).
pub(crate) const EAGER_WORDS: [&str; 5] = ["freeze", "seal", "defineProp", "OwnPropertyDescriptor", "__lookup"];

/// The global names each step defines, in order, as this engine build
/// defines them: found once per process by making a context step by step,
/// so no list here can drift from the engine.
fn step_names() -> Result<&'static [Vec<String>], String> {
    static NAMES: OnceLock<Result<Vec<Vec<String>>, String>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            let failed = |e: rquickjs::Error| format!("probing the engine's intrinsics: {e}");
            let runtime = Runtime::new().map_err(failed)?;
            let context = Context::base(&runtime).map_err(failed)?;
            context.with(|ctx| {
                // The base context has no `eval` yet: the keys are read
                // through the API.
                let names = |ctx: &Ctx<'_>| -> Result<Vec<String>, String> {
                    ctx.globals()
                        .own_keys::<String>(rquickjs::object::Filter::new().string())
                        .collect::<Result<_, _>>()
                        .map_err(failed)
                };
                let mut before = names(&ctx)?;
                let mut out = Vec::with_capacity(STEPS.len());
                for step in &STEPS {
                    add(&ctx, step)?;
                    let after = names(&ctx)?;
                    if after.len() < before.len() || after[..before.len()] != before[..] {
                        return Err(format!("the {} intrinsic reordered the global object", step.name));
                    }
                    out.push(after[before.len()..].to_vec());
                    before = after;
                }
                Ok(out)
            })
        })
        .as_deref()
        .map_err(Clone::clone)
}

fn add(ctx: &Ctx<'_>, step: &Step) -> Result<(), String> {
    #[expect(unsafe_code, reason = "the engine's intrinsics are added through its C API")]
    // SAFETY: `ctx` is a live context of a runtime this thread holds (we
    // are inside `Context::with`); each step is added at most once per
    // context (`Lazy::pending` and the eager sequence see to it).
    let status = unsafe { (step.add)(ctx.as_raw().as_ptr()) };
    if status < 0 {
        let _ = ctx.catch();
        return Err(format!("the engine could not add its {} intrinsic (out of memory?)", step.name));
    }
    Ok(())
}

/// A fresh context with every intrinsic of `Context::full`, in its order,
/// the lazy ones as placeholders.
///
/// # Errors
/// The engine could not make the context or add an intrinsic (out of
/// memory), or the probe of its intrinsics failed.
pub(crate) fn context(runtime: &Runtime) -> Result<Context, String> {
    let names = step_names()?;
    let context = Context::base(runtime).map_err(|e| e.to_string())?;
    context.with(|ctx| install(&ctx, names))?;
    Ok(context)
}

/// Adds the eager intrinsics and the lazy ones' placeholders, in order.
fn install<'js>(ctx: &Ctx<'js>, names: &'static [Vec<String>]) -> Result<(), String> {
    let js = |e: rquickjs::Error| e.to_string();
    let globals = ctx.globals();
    let object: Object = globals.get("Object").map_err(js)?;
    let mut lazy = Lazy {
        pending: std::cell::Cell::new(0),
        describe: object.get("getOwnPropertyDescriptor").map_err(js)?,
        define: object.get("defineProperty").map_err(js)?,
        placeholders: Vec::with_capacity(names.iter().zip(&STEPS).filter(|(_, s)| s.lazy).map(|(n, _)| n.len()).sum()),
    };
    let mut magic = 0;
    for (i, step) in STEPS.iter().enumerate() {
        if !step.lazy {
            add(ctx, step)?;
            continue;
        }
        lazy.pending.set(lazy.pending.get() | 1 << i);
        for name in &names[i] {
            let access = placeholder(ctx, magic).map_err(js)?;
            magic += 1;
            define_accessor(ctx, &globals, name, &access).map_err(js)?;
            lazy.placeholders.push((i, name.as_str(), access));
        }
    }
    ctx.store_userdata(lazy).map_err(|_| "could not store the lazy intrinsics".to_owned())?;
    Ok(())
}

/// Every lazy global, in the order [`install`] makes their placeholders:
/// a placeholder's magic number is its index here.
fn lazy_names() -> Result<&'static [(usize, &'static str)], String> {
    static LAZY: OnceLock<Result<Vec<(usize, &'static str)>, String>> = OnceLock::new();
    LAZY.get_or_init(|| {
        let names = step_names()?;
        Ok(STEPS
            .iter()
            .enumerate()
            .filter(|(_, step)| step.lazy)
            .flat_map(|(i, _)| names[i].iter().map(move |name| (i, name.as_str())))
            .collect())
    })
    .as_deref()
    .map_err(Clone::clone)
}

/// Placeholder number `magic`'s function: a plain C function of the
/// engine's, which knows its name by its magic number. It is the getter
/// (called with no argument) and the setter (one) alike. A Rust closure
/// (`Function::new`) would cost a boxed closure and an object of its own
/// class for each of the ~20 names of every engine, and nearly all are
/// never touched.
fn placeholder<'js>(ctx: &Ctx<'js>, magic: usize) -> rquickjs::Result<Function<'js>> {
    let magic = std::ffi::c_int::try_from(magic).map_err(|_| rquickjs::Error::Exception)?;
    #[expect(unsafe_code, reason = "a C function of the engine's is made through its C API")]
    // SAFETY: `access` has the `generic_magic` signature the engine calls
    // a `JS_CFUNC_generic_magic` function with (the C API declares the
    // union's first member; the two are the same pointer); the name is a
    // NUL-terminated static string; the returned value is owned by the
    // `Value` made from it.
    let value = unsafe {
        let generic_magic: qjs::JSCFunctionMagic = Some(access);
        let func: qjs::JSCFunction = std::mem::transmute(generic_magic);
        let raw = qjs::JS_NewCFunction2(
            ctx.as_raw().as_ptr(),
            func,
            c"".as_ptr(),
            0,
            qjs::JSCFunctionEnum_JS_CFUNC_generic_magic,
            magic,
        );
        Value::from_raw(ctx.clone(), raw)
    };
    if value.is_exception() {
        return Err(rquickjs::Error::Exception);
    }
    value.into_function().ok_or(rquickjs::Error::Exception)
}

/// A placeholder was read (no argument) or written (one): the group is
/// added, then the real global is read or written.
#[expect(unsafe_code, reason = "called by the engine through its C API")]
unsafe extern "C" fn access(
    ctx: *mut qjs::JSContext,
    _this: qjs::JSValue,
    argc: std::ffi::c_int,
    argv: *mut qjs::JSValue,
    magic: std::ffi::c_int,
) -> qjs::JSValue {
    let Some(raw) = std::ptr::NonNull::new(ctx) else { return qjs::JS_EXCEPTION };
    // SAFETY: the engine calls this on the context's own thread, with its
    // runtime locked (it is running JavaScript); the `Ctx` lives no longer
    // than this call.
    let ctx = unsafe { Ctx::from_raw(raw) };
    // SAFETY: `argv` holds `argc` live values for this call; the one read
    // is duplicated, so the `Value` owns its own reference.
    let written =
        (argc >= 1).then(|| unsafe { Value::from_raw(ctx.clone(), qjs::JS_DupValue(ctx.as_raw().as_ptr(), *argv)) });
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (step, name) = *lazy_names()
            .ok()
            .and_then(|names| usize::try_from(magic).ok().and_then(|m| names.get(m)))
            .ok_or(rquickjs::Error::Unknown)?;
        touched(&ctx, step, name)?;
        let globals = ctx.globals();
        match written {
            Some(value) => globals.set(name, value).map(|()| Value::new_undefined(ctx.clone())),
            None => globals.get::<_, Value>(name),
        }
    }));
    match outcome {
        // SAFETY: the engine takes ownership of the returned value: one
        // reference of its own, the `Value`'s own dropped after.
        Ok(Ok(value)) => unsafe { qjs::JS_DupValue(ctx.as_raw().as_ptr(), value.as_raw()) },
        Ok(Err(rquickjs::Error::Exception)) => qjs::JS_EXCEPTION,
        Ok(Err(e)) => {
            let _ = rquickjs::Exception::throw_internal(&ctx, &e.to_string());
            qjs::JS_EXCEPTION
        }
        Err(_) => {
            let _ = rquickjs::Exception::throw_internal(&ctx, "adding a lazy intrinsic failed inside the engine");
            qjs::JS_EXCEPTION
        }
    }
}

/// Defines `name` on `object` as a configurable, non-enumerable accessor
/// whose getter and setter are `access`. rquickjs's `Accessor` takes
/// closures only, and each placeholder's function is kept to recognise it
/// later.
fn define_accessor<'js>(
    ctx: &Ctx<'js>,
    object: &Object<'js>,
    name: &str,
    access: &Function<'js>,
) -> rquickjs::Result<()> {
    let raw = ctx.as_raw().as_ptr();
    let undefined = Value::new_undefined(ctx.clone());
    let flags = qjs::JS_PROP_HAS_GET
        | qjs::JS_PROP_HAS_SET
        | qjs::JS_PROP_HAS_CONFIGURABLE
        | qjs::JS_PROP_CONFIGURABLE
        | qjs::JS_PROP_HAS_ENUMERABLE
        | qjs::JS_PROP_THROW;
    #[expect(unsafe_code, reason = "rquickjs has no safe way to define an accessor from function values")]
    // SAFETY: `raw` is the live context `ctx` borrows; the atom is made
    // from a valid UTF-8 slice and freed once; `JS_DefineProperty` only
    // borrows the values (it duplicates what it keeps).
    let status = unsafe {
        let atom = qjs::JS_NewAtomLen(raw, name.as_ptr().cast(), name.len() as _);
        if atom == qjs::JS_ATOM_NULL {
            return Err(rquickjs::Error::Exception);
        }
        let status = qjs::JS_DefineProperty(
            raw,
            object.as_raw(),
            atom,
            undefined.as_raw(),
            access.as_raw(),
            access.as_raw(),
            flags as _,
        );
        qjs::JS_FreeAtom(raw, atom);
        status
    };
    if status < 0 { Err(rquickjs::Error::Exception) } else { Ok(()) }
}

/// Adds every lazy group not yet added: the cell's source may look at the
/// global object's descriptors or freeze it ([`EAGER_WORDS`]).
pub(crate) fn add_all(ctx: &Ctx<'_>) -> rquickjs::Result<()> {
    for i in 0..STEPS.len() {
        materialize(ctx, i, None)?;
    }
    Ok(())
}

/// Whether `source` names a function that could tell a placeholder from
/// the real global.
pub(crate) fn wants_all(source: &str) -> bool {
    EAGER_WORDS.iter().any(|w| source.contains(w))
}

/// Placeholder `name` of step `step` was read or written: add the group
/// (a getter kept from before only reads the real global after).
fn touched(ctx: &Ctx<'_>, step: usize, name: &str) -> rquickjs::Result<()> {
    let pending = ctx.userdata::<Lazy>().is_some_and(|l| l.pending.get() & (1 << step) != 0);
    if pending { materialize(ctx, step, Some(name)) } else { Ok(()) }
}

/// Adds step `step`'s intrinsic if it is still pending, keeping what the
/// guest did to its names meanwhile and the global's property order.
///
/// The engine defines some intrinsic globals (`Atomics`, `atob`, `btoa`)
/// as its own lazily made properties and aborts the process if one exists
/// already, so every name of the group is removed first, and the group is
/// not added at all when one cannot be (a frozen or sealed global). The
/// group's names then come last; the properties that followed them are
/// moved after them again, so the order is the full context's.
fn materialize(ctx: &Ctx<'_>, step: usize, touched: Option<&str>) -> rquickjs::Result<()> {
    let (describe, define, mine) = {
        let Some(lazy) = ctx.userdata::<Lazy>() else {
            return Ok(());
        };
        if lazy.pending.get() & (1 << step) == 0 {
            return Ok(());
        }
        let mine: Vec<(&str, Function)> =
            lazy.placeholders.iter().filter(|(s, ..)| *s == step).map(|(_, n, g)| (*n, g.clone())).collect();
        (lazy.describe.clone(), lazy.define.clone(), mine)
    };
    let globals = ctx.globals();
    let configurable = |desc: &Value<'_>| -> rquickjs::Result<bool> {
        desc.as_object().map_or(Ok(true), |d| d.get::<_, bool>("configurable"))
    };
    // What the guest did to each name: `None` left as made, `Some(desc)`
    // deleted (undefined) or defined anew.
    let mut guest = Vec::with_capacity(mine.len());
    for (name, get) in &mine {
        let desc = own_descriptor(&describe, &globals, name)?;
        if !configurable(&desc)? {
            return Err(frozen(ctx, touched.unwrap_or(name)));
        }
        let getter = match desc.as_object() {
            Some(d) => Some(d.get::<_, Value>("get")?),
            None => None,
        };
        guest.push((*name, (getter.as_ref() != Some(get.as_value())).then_some(desc)));
    }
    // The properties after the group's first name, moved after the group
    // again once it is added; none when there are more than
    // `MAX_REORDERED`: moving them is native work no deadline interrupts.
    let mut followers = Vec::new();
    let mut after_first = false;
    for key in globals.own_keys::<String>(rquickjs::object::Filter::new().string()) {
        let key = key?;
        if mine.iter().any(|(n, _)| *n == key) {
            after_first = true;
        } else if after_first {
            if followers.len() == MAX_REORDERED {
                followers.clear();
                break;
            }
            followers.push(key);
        }
    }
    for (name, _) in &mine {
        globals.remove(*name)?;
    }
    if let Some(lazy) = ctx.userdata::<Lazy>() {
        // Cleared before the add: an intrinsic is added at most once.
        lazy.pending.set(lazy.pending.get() & !(1 << step));
    }
    add(ctx, &STEPS[step]).map_err(|e| rquickjs::Exception::throw_internal(ctx, &e))?;
    for (name, changed) in guest {
        match changed {
            Some(desc) if desc.is_undefined() => globals.remove(name)?,
            Some(desc) => drop(define.call::<_, Value>((globals.clone(), name, desc))?),
            None => {}
        }
    }
    for key in followers {
        let desc = own_descriptor(&describe, &globals, &key)?;
        // A property the guest made non-configurable stays where it is.
        if desc.is_undefined() || !configurable(&desc)? {
            continue;
        }
        globals.remove(key.as_str())?;
        define.call::<_, Value>((globals.clone(), key.as_str(), desc))?;
    }
    Ok(())
}

/// How many global properties after a lazy group's first name are moved
/// after the group when it is added, so that the global object's order is
/// the full context's. Past it (a cell that made thousands of globals
/// before first touching the group) none are, and the group's names come
/// after the cell's own: the one difference from a full context, bounded
/// so that adding a group costs the same at any global count. The context
/// and the prelude put about a hundred there, and every tool global.
const MAX_REORDERED: usize = 4096;

/// `name`'s own descriptor on `object` (`undefined` when it has none),
/// with no prototype: reading it, or passing it to `defineProperty`, sees
/// its own fields only, whatever the guest put on `Object.prototype` (an
/// inherited `get` would make a data descriptor invalid).
fn own_descriptor<'js>(describe: &Function<'js>, object: &Object<'js>, name: &str) -> rquickjs::Result<Value<'js>> {
    let desc: Value = describe.call((object.clone(), name))?;
    if let Some(fields) = desc.as_object() {
        fields.set_prototype(None)?;
    }
    Ok(desc)
}

/// The error for a lazy global that cannot be added any more.
fn frozen(ctx: &Ctx<'_>, name: &str) -> rquickjs::Error {
    rquickjs::Exception::throw_type(
        ctx,
        &format!(
            "{name} is not available: globalThis was frozen or sealed before the cell first used {name}, \
             which codemode adds on first use; name Object.freeze, Object.seal or Object.defineProperty \
             in the cell's source, or use {name} before freezing"
        ),
    )
}

/// A context's lazy intrinsics, in its user data (no global reaches it).
struct Lazy<'js> {
    /// Bit `i`: step `i` is placeholders still.
    pending: std::cell::Cell<u32>,
    /// `Object.getOwnPropertyDescriptor` and `Object.defineProperty` as the
    /// context was made (a guest may replace the globals).
    describe: Function<'js>,
    define: Function<'js>,
    /// Every placeholder: its step, its name, its accessor function.
    placeholders: Vec<(usize, &'static str, Function<'js>)>,
}

#[expect(
    unsafe_code,
    reason = "rquickjs requires an unsafe impl to store JS values as user data; Lazy only holds 'js values"
)]
// SAFETY: `Lazy` has exactly one lifetime, 'js, and `Changed` substitutes it.
unsafe impl<'js> JsLifetime<'js> for Lazy<'js> {
    type Changed<'to> = Lazy<'to>;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `source` evaluates to, as JSON text, in a full context and in a
    /// context with lazy intrinsics (the eager words in the source add
    /// them first, as a cell's start does).
    fn both(source: &str) -> (String, String) {
        let full = {
            let runtime = Runtime::new().unwrap();
            let context = Context::full(&runtime).unwrap();
            context.with(|ctx| run(&ctx, source))
        };
        let lazy = {
            let runtime = Runtime::new().unwrap();
            let context = context(&runtime).unwrap();
            context.with(|ctx| {
                if wants_all(source) {
                    add_all(&ctx).unwrap();
                }
                run(&ctx, source)
            })
        };
        (full, lazy)
    }

    fn run(ctx: &Ctx<'_>, source: &str) -> String {
        use rquickjs::CatchResultExt;
        let wrapped =
            format!("JSON.stringify((() => {{ try {{ {source} }} catch (e) {{ return ['threw', String(e)]; }} }})())");
        ctx.eval::<String, _>(wrapped).catch(ctx).unwrap_or_else(|e| format!("engine error: {e}"))
    }

    fn same(source: &str) {
        let (full, lazy) = both(source);
        assert_eq!(lazy, full, "for {source}");
    }

    #[test]
    fn the_global_objects_names_and_their_order_are_the_full_contexts_before_and_after_every_touch_ga_1_2() {
        same("return Object.getOwnPropertyNames(globalThis)");
        same(
            "for (const n of Object.getOwnPropertyNames(globalThis)) void globalThis[n]; \
             return Object.getOwnPropertyNames(globalThis)",
        );
        same("void Uint8Array; void btoa; return Object.getOwnPropertyNames(globalThis)");
    }

    #[test]
    fn lazy_globals_keep_identity_prototypes_and_instanceof_ga_1_2() {
        same(
            "const a = new Uint8Array([1, 2]); return [a instanceof Uint8Array, Uint8Array === globalThis.Uint8Array, \
             Object.getPrototypeOf(Int8Array) === Object.getPrototypeOf(Uint8Array), a.buffer instanceof ArrayBuffer, \
             new DataView(new ArrayBuffer(2)) instanceof DataView, typeof Atomics, typeof SharedArrayBuffer, \
             Array.from(a), Uint8Array.name, Uint8Array.length, String(Uint8Array)]",
        );
        same(
            "const r = new WeakRef({}); return [typeof r.deref(), typeof FinalizationRegistry, \
             typeof new Proxy({}, {}), Proxy.length, btoa('codemode'), atob(btoa('x'))]",
        );
    }

    #[test]
    fn descriptors_after_first_touch_are_the_full_contexts_ga_1_2() {
        same(
            "const names = ['Proxy', 'ArrayBuffer', 'Uint8Array', 'DataView', 'Atomics', 'WeakRef', \
             'FinalizationRegistry', 'DOMException', 'atob', 'btoa']; names.forEach(n => globalThis[n]); \
             return names.map(n => { const d = Object.getOwnPropertyDescriptor(globalThis, n); \
             return [n, d.writable, d.enumerable, d.configurable, typeof d.value, 'get' in d]; })",
        );
    }

    #[test]
    fn a_guest_write_or_delete_of_one_name_of_a_group_is_kept_when_the_group_is_added_ga_1_2() {
        same("Int8Array = 5; return [Int8Array, typeof Uint8Array, Object.getOwnPropertyNames(globalThis)]");
        same("delete globalThis.Int8Array; return [typeof Uint8Array, 'Int8Array' in globalThis, typeof Int8Array]");
        same("globalThis.atob = 1; return [typeof btoa, atob, typeof DOMException]");
        same("delete globalThis.WeakRef; return [typeof FinalizationRegistry, typeof WeakRef]");
        same(
            "Int8Array = undefined; return [typeof Int8Array, typeof Uint8Array, Object.getOwnPropertyNames(globalThis)]",
        );
    }

    #[test]
    fn fields_the_guest_put_on_object_prototype_change_nothing_when_a_group_is_added_ga_1_2() {
        same(
            "Object.prototype.get = function () { return 1; }; Object.prototype.value = 2; \
             Object.prototype.configurable = false; Int8Array = 3; void Uint8Array; void btoa; \
             return [typeof Promise, typeof performance, Int8Array, Object.getOwnPropertyNames(globalThis)]",
        );
    }

    #[test]
    fn atob_of_bad_input_throws_a_dom_exception_ga_1_2() {
        same(
            "try { atob('%'); return 'no throw'; } catch (e) { return [e instanceof DOMException, e.name, e.message]; }",
        );
    }

    #[test]
    fn a_cell_that_names_freeze_or_descriptors_sees_the_full_context_exactly_ga_1_2() {
        same(
            "Object.freeze(globalThis); return [typeof Uint8Array, new Uint8Array(2).length, Object.isFrozen(globalThis)]",
        );
        same("Object.seal(globalThis); return [typeof atob, typeof WeakRef]");
        same("return Object.getOwnPropertyDescriptor(globalThis, 'Uint8Array')");
        same(
            "Object.defineProperty(globalThis, 'Int8Array', {value: 1}); return Object.getOwnPropertyDescriptor(globalThis, 'Int8Array')",
        );
        same("return Object.getOwnPropertyNames(Object.getOwnPropertyDescriptors(globalThis))");
    }

    #[test]
    fn a_lazy_global_reached_after_a_hidden_freeze_is_a_type_error_that_says_why() {
        let runtime = Runtime::new().unwrap();
        let first = context(&runtime).unwrap();
        let out = first.with(|ctx| {
            let hidden = "Object['fr' + 'eeze'](globalThis); return typeof Uint8Array";
            assert!(!wants_all(hidden));
            run(&ctx, hidden)
        });
        assert!(
            out.contains("threw") && out.contains("TypeError: Uint8Array is not available: globalThis was frozen"),
            "{out}"
        );
        // Names the engine defines as its own lazy properties (it aborts
        // the process when one exists): never added over a placeholder.
        for hidden in [
            "Object['se' + 'al'](globalThis); return atob('eA==')",
            "Object['define' + 'Property'](globalThis, 'atob', {value: 1, configurable: false}); return btoa('x')",
            "Object['fr' + 'eeze'](globalThis); return typeof Atomics",
        ] {
            let runtime = Runtime::new().unwrap();
            let out = context(&runtime).unwrap().with(|ctx| run(&ctx, hidden));
            assert!(out.contains("TypeError") && out.contains("is not available"), "{hidden}: {out}");
        }
    }

    /// How many properties follow the typed arrays' first name in a fresh
    /// context's global object.
    fn followers_of_typed_arrays() -> usize {
        let group = &step_names().unwrap()[STEPS.iter().position(|s| s.name == "TypedArrays").unwrap()];
        let runtime = Runtime::new().unwrap();
        let context = context(&runtime).unwrap();
        context.with(|ctx| {
            let keys: Vec<String> =
                ctx.globals().own_keys(rquickjs::object::Filter::new().string()).collect::<Result<_, _>>().unwrap();
            let first = keys.iter().position(|k| group.contains(k)).unwrap();
            keys[first..].iter().filter(|k| !group.contains(k)).count()
        })
    }

    #[test]
    fn the_order_is_kept_up_to_the_reorder_bound_and_past_it_the_group_comes_last_ga_1_2() {
        let made = MAX_REORDERED - followers_of_typed_arrays();
        let cell = |n: usize| {
            format!(
                "for (let i = 0; i < {n}; i++) globalThis['g' + i] = i; void Uint8Array; \
                 return [Object.getOwnPropertyNames(globalThis), new Uint8Array([7])[0]]"
            )
        };
        // Exactly at the bound: every follower is moved back.
        same(&cell(made));
        // One over: none is, the group's names come after the cell's own,
        // and the group works.
        let (full, lazy) = both(&cell(made + 1));
        assert_ne!(lazy, full);
        let names = |text: &str| -> Vec<String> {
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(v[1], 7, "{text:.200}");
            serde_json::from_value(v[0].clone()).unwrap()
        };
        let (mut full, lazy) = (names(&full), names(&lazy));
        let last_made = format!("g{made}");
        let at = lazy.iter().position(|n| *n == last_made).unwrap();
        assert!(lazy[at + 1..].iter().any(|n| n == "Uint8Array"), "the group follows the cell's globals");
        full.sort();
        let mut sorted = lazy.clone();
        sorted.sort();
        assert_eq!(sorted, full, "the same names");
    }

    #[test]
    fn each_lazy_group_is_added_at_most_once() {
        same(
            "const U = Uint8Array; void Int8Array; void DataView; Uint16Array = 3; return [U === Uint8Array, Object.getPrototypeOf(new Uint8Array(1)) === U.prototype]",
        );
    }
}
