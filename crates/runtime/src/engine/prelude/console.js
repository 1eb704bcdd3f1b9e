// console (GA-4)
// A lazily loaded part of the guest prelude (see prelude.js): evaluated
// the first time a cell touches it, with the core's internals, which
// were captured before any guest code ran.
(function (k) {
  "use strict";
  const { handleMetadata, hostEmit, OUT, isArray, hasOwn, setPrototypeOf, createObject, getOwnPropertyDescriptor, JSONstringify, freeze } = k;

  // ---- console (GA-4) ----------------------------------------------------
  // Deliberately limited inspection: JSON-shaped copies of enumerable own
  // data properties; getters and toJSON never run. Bounds per call: 100
  // visited values, 50 properties per object, 4 object levels, 512 UTF-16
  // units per string or key, 4096 per message. The cumulative console
  // budget is kept by the host, which answers whether console is still open.
  const TRUNCATED = "[truncated]";
  const CUT = "\u2026[truncated]";
  const MAX_VALUES = 100, MAX_PROPS = 50, MAX_DEPTH = 4, MAX_STRING = 512, MAX_MESSAGE = 4096;
  const UNAWAITED = "[Unawaited Promise: use await or Promise.all(...) before emitting or returning values.]";
  const PromiseCtor = k.Promise;
  const ErrorCtor = k.Error;
  let consoleOpen = true;

  // Cuts `s` to `max` UTF-16 units without splitting a surrogate pair.
  function cutUnits(s, max) {
    if (s.length <= max) return s;
    let end = max;
    const c = s.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff) end--;
    return s.slice(0, end) + CUT;
  }

  function inspect(value, depth, state, path) {
    if (state.nodes <= 0) return TRUNCATED;
    state.nodes--;
    switch (typeof value) {
      case "string": return cutUnits(value, MAX_STRING);
      case "number": case "boolean": return value;
      case "undefined": return "undefined";
      case "bigint": return cutUnits(String(value), MAX_STRING) + "n";
      case "symbol": return String(value);
      case "function": {
        const meta = handleMetadata.get(value);
        return meta === undefined ? "[Function]" : inspect(meta, depth, state, path);
      }
    }
    if (value === null) return null;
    if (path.includes(value)) return "[Circular]";
    if (depth >= MAX_DEPTH) return TRUNCATED;
    if (value instanceof PromiseCtor) return UNAWAITED;
    path.push(value);
    let out;
    if (isArray(value)) {
      out = [];
      let n = 0;
      for (const k in value) {
        if (!hasOwn.call(value, k)) continue;
        if (n >= MAX_PROPS || state.nodes <= 0) { out[n] = TRUNCATED; break; }
        out[n] = inspectProperty(value, k, depth, state, path);
        n++;
      }
      setPrototypeOf(out, null);
    } else {
      out = createObject(null);
      let n = 0;
      for (const k in value) {
        if (!hasOwn.call(value, k)) continue;
        if (n >= MAX_PROPS || state.nodes <= 0) { out["\u2026"] = TRUNCATED; break; }
        n++;
        out[cutUnits(k, MAX_STRING)] = inspectProperty(value, k, depth, state, path);
      }
      if (value instanceof ErrorCtor && hasOwn.call(value, "message") && !("message" in out)) {
        out.message = inspectProperty(value, "message", depth, state, path);
      }
    }
    path.pop();
    return out;
  }

  function inspectProperty(object, key, depth, state, path) {
    const d = getOwnPropertyDescriptor(object, key);
    if (!d) return undefined;
    if (!("value" in d)) return "[Accessor]";
    return inspect(d.value, depth + 1, state, path);
  }

  function formatConsole(prefix, args) {
    const state = { nodes: MAX_VALUES };
    let text = prefix;
    for (let i = 0; i < args.length; i++) {
      const sep = i === 0 ? "" : " ";
      if (state.nodes <= 0 || text.length >= MAX_MESSAGE) { text += sep + TRUNCATED; break; }
      let piece;
      try {
        const arg = args[i];
        if (typeof arg === "number") piece = String(arg);
        else {
          const r = inspect(arg, 0, state, []);
          piece = typeof r === "string" ? r : JSONstringify(r);
        }
      } catch (e) {
        piece = "[Unserializable]";
      }
      text += sep + piece;
    }
    return cutUnits(text, MAX_MESSAGE);
  }

  function consoleMethod(prefix) {
    return function () {
      if (!consoleOpen) return undefined;
      try {
        consoleOpen = hostEmit(OUT.console, formatConsole(prefix, arguments));
      } catch (e) {
        // console never throws.
      }
      return undefined;
    };
  }
  const console = freeze({
    log: consoleMethod(""),
    info: consoleMethod("[info] "),
    warn: consoleMethod("[warn] "),
    error: consoleMethod("[error] "),
    debug: consoleMethod("[debug] "),
  });


  return console;
})
