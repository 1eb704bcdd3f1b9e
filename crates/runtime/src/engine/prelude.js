// The guest prelude: evaluated once in every fresh cell context, before the
// cell's own code. It receives the host hooks as an argument (they are never
// reachable from globalThis), installs the guest API of the contract, and
// returns the functions the host drives the cell with.
//
// Keep it small and allocation-light: it runs for every cell.
(function (host, toolNames) {
  "use strict";
  // Every host request goes through `hostRequest(OP.<name>, …)`; the host
  // decodes it in one place. The wire numbers come from the host.
  const hostRequest = host.request;
  const OP = host.ops;
  const OUT = host.output;
  const hostMeta = host.meta;
  const hostMcpTree = host.mcpTree;
  const hostMcpSuggest = host.mcpSuggest;
  const hostMarkNetwork = host.markNetwork;
  const hostCancel = host.cancel;
  const hostEmit = host.emit;
  const hostFinish = host.finish;
  const hostLazy = host.lazy;
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
  const O = Object;
  const defineProperty = O.defineProperty;
  const freeze = O.freeze;
  const getOwnPropertyDescriptor = O.getOwnPropertyDescriptor;
  const objectKeys = O.keys;
  const isArray = Array.isArray;
  const hasOwn = O.prototype.hasOwnProperty;
  const JSONstringify = JSON.stringify;
  const JSONparse = JSON.parse;
  // Bound before guest code: lone surrogates become U+FFFD in JSON text
  // the host reads (the host converts every other string itself).
  const isWellFormed = Function.prototype.call.bind(String.prototype.isWellFormed);
  const toWellFormed = Function.prototype.call.bind(String.prototype.toWellFormed);
  function wellFormed(s) {
    return isWellFormed(s) ? s : toWellFormed(s);
  }
  const globalObject = globalThis;

  // Timers: request id -> (ok, value) => void. Request promises are held
  // and settled by the host itself.
  const pending = new Map();

  function makeError(e) {
    let err;
    switch (e && e.name) {
      case "TypeError": err = new TypeError(e.message); break;
      case "RangeError": err = new RangeError(e.message); break;
      default: err = new Error(e && e.message !== undefined ? e.message : String(e));
    }
    if (e && e.code !== undefined) err.code = e.code;
    if (e && e.effectStatus !== undefined) err.effectStatus = e.effectStatus;
    return err;
  }

  // Makes host request `op` and returns the promise the host settles (an
  // `undefined` argument counts as omitted: store(key) deletes). A refused
  // or malformed request rejects it.
  const request = hostRequest;

  // The host rejects a request's promise with the guest error `fault` names.
  // Errors the host rejected a request with: one the cell lets escape
  // fails it in the `bridge` phase, like the reference's.
  const bridgeErrors = new WeakSet();
  function rejectWith(reject, fault, location) {
    const err = makeError(fault);
    if (location !== undefined) err.location = location;
    bridgeErrors.add(err);
    reject(err);
  }

  // The guest's stack where it made a nested call: a rejected call's
  // error carries its user frames as `.location`.
  function callSite() {
    return new ErrorCtor().stack;
  }

  // The host settles a timer. Returns nothing; errors thrown by timer
  // callbacks propagate to the host, which fails the cell with them.
  function settle(id, ok, value) {
    const onSettle = pending.get(id);
    if (onSettle === undefined) return;
    pending.delete(id);
    onSettle(ok, value);
  }

  // ---- value projection -------------------------------------------------
  // Projections build null-prototype copies, so JSON.stringify finds no
  // toJSON on them even when the guest patched Object or Array prototypes.
  const setPrototypeOf = O.setPrototypeOf;
  const createObject = O.create;

  const handleMetadata = new WeakMap(); // handle -> metadata (plain data)

  // ---- catalog handles (GA-8) ---------------------------------------------
  // A handle is a callable function carrying its tool's metadata as
  // enumerable properties, plus describe() and toJSON(). Handles are made on
  // first use from metadata the host returns synchronously, cached (the same
  // tool gives the same object: its global, a search hit, catalog.all())
  // and frozen.
  const handles = new Map(); // tool global index -> handle
  function handle(index) {
    let h = handles.get(index);
    if (h !== undefined) return h;
    const meta = JSONparse(hostMeta(index));
    h = function (input) { return hostRequest(OP.call, index, input); };
    defineProperty(h, "name", { value: meta.callableName });
    const keys = objectKeys(meta);
    for (let i = 0; i < keys.length; i++) {
      defineProperty(h, keys[i], { value: meta[keys[i]], enumerable: true });
    }
    defineProperty(h, "describe", { value: function describe() { return hostRequest(OP.describe, index); } });
    defineProperty(h, "toJSON", { value: function toJSON() { return JSONparse(JSONstringify(meta)); } });
    freeze(h);
    handles.set(index, h);
    handleMetadata.set(h, meta);
    return h;
  }

  // Both projections walk the value depth-first into null-prototype copies.
  // Output projection (text/json, `dataOnly`): data properties only —
  // getters and toJSON never run. Final-value projection: properties are
  // read normally (a getter runs once, here, when the cell settles) but
  // toJSON never runs. Functions, symbols and undefined are dropped as
  // JSON.stringify drops them (null in arrays); BigInt becomes its decimal
  // string; non-finite numbers become null. `forText`: strings and keys
  // made well-formed (lone surrogates → U+FFFD) for JSON text.
  function project(root, dataOnly, what, forText) {
    const stack = [];   // objects on the current path, for cycle detection
    const keys = [];    // keys on the current path, for the error message
    function pathText() {
      let p = "$";
      for (let i = 0; i < keys.length; i++) p += typeof keys[i] === "number" ? "[" + keys[i] + "]" : "." + keys[i];
      return p;
    }
    function read(object, key) {
      if (!dataOnly) return object[key];
      const d = getOwnPropertyDescriptor(object, key);
      return d && "value" in d ? d.value : undefined;
    }
    function walk(value) {
      switch (typeof value) {
        case "string": return forText ? wellFormed(value) : value;
        case "boolean": return value;
        case "number": return value === value && value !== Infinity && value !== -Infinity ? value : null;
        case "bigint": return String(value);
        case "function": {
          const meta = handleMetadata.get(value);
          return meta === undefined ? undefined : walk(meta);
        }
        case "undefined": case "symbol": return undefined;
      }
      if (value === null) return null;
      for (let i = 0; i < stack.length; i++) {
        if (stack[i] === value) throw new TypeError(what + " has a cycle at " + pathText());
      }
      stack[stack.length] = value;
      let out;
      if (isArray(value)) {
        const n = value.length;
        out = new Array(n);
        for (let i = 0; i < n; i++) {
          keys[keys.length] = i;
          const v = walk(read(value, i));
          keys.length--;
          out[i] = v === undefined ? null : v;
        }
        setPrototypeOf(out, null);
      } else {
        out = createObject(null);
        const own = objectKeys(value);
        for (let i = 0; i < own.length; i++) {
          const k = own[i];
          keys[keys.length] = k;
          const v = walk(read(value, k));
          keys.length--;
          if (v === undefined) continue;
          const key = forText ? wellFormed(k) : k;
          if (key !== k && hasOwn.call(out, key)) {
            throw new TypeError(what + " has two keys at " + pathText() + " that differ only in lone surrogates; rename one of them");
          }
          out[key] = v;
        }
      }
      stack.length--;
      return out;
    }
    return walk(root);
  }

  function projectOutput(value, what) {
    return project(value, true, what || "value", false);
  }

  function projectFinal(value) {
    return project(value, false, "the returned value");
  }

  function toJsonText(projected) {
    return projected === undefined ? "null" : JSONstringify(projected);
  }

  // JSON text of a value for `text` and messages: well-formed strings.
  function textOf(value) {
    return toJsonText(project(value, true, "value", true));
  }
  function emitText(value) {
    if (typeof value === "string") { hostEmit(OUT.text, value); return; }
    hostEmit(OUT.text, textOf(value));
  }
  // json(): the host converts the projection itself (no JSON text between).
  function emitJson(value) {
    hostEmit(OUT.json, projectOutput(value));
  }

  // `stage` "value": thrown while the final value was being copied.
  function describeError(e, stage) {
    try {
      if (e === null || e === undefined) return { bare: String(e), stage };
      if (e instanceof Error) {
        return {
          name: String(e.name), message: String(e.message), stack: String(e.stack || ""), bridge: bridgeErrors.has(e),
        };
      }
      if (typeof e === "string") return { thrown: e };
      return { thrown: textOf(e) };
    } catch (inner) {
      return { thrown: "[unserializable thrown value]" };
    }
  }

  // ---- timers -----------------------------------------------------------
  const timers = new Map(); // timer id -> request id
  let nextTimer = 1;
  function setTimeout(callback, delay, ...args) {
    if (typeof callback !== "function") throw new TypeError("setTimeout callback must be a function");
    let ms = Number(delay);
    ms = Number.isFinite(ms) ? Math.max(0, Math.floor(ms)) : 0;
    const timerId = nextTimer++;
    const requestId = hostRequest(OP.timer, ms);
    timers.set(timerId, requestId);
    pending.set(requestId, () => {
      if (timers.get(timerId) !== requestId) return;
      timers.delete(timerId);
      callback(...args);
    });
    return timerId;
  }
  function clearTimeout(timerId) {
    const key = Number(timerId);
    const requestId = timers.get(key);
    if (requestId === undefined) return;
    timers.delete(key);
    pending.delete(requestId);
    hostCancel(requestId);
  }

  function yield_control(reason) {
    return request(OP.yield, reason === undefined || reason === null ? null : String(reason));
  }

  // ---- session store (GA-7) and results (GA-6.5) --------------------------
  // Values go through the same data-only projection as json(); the host
  // converts the projection itself (no JSON text between).
  function store(key, value) {
    if (value === undefined) return request(OP.store, key).then(() => undefined);
    let copy;
    try {
      copy = projectOutput(value, "the stored value");
    } catch (e) {
      return Promise.reject(e);
    }
    return request(OP.store, key, copy === undefined ? null : copy).then(() => undefined);
  }
  function load(key) {
    return request(OP.load, key).then((r) => (r.found ? r.value : undefined));
  }
  const results = freeze({
    save(value) {
      let copy;
      try {
        copy = projectOutput(value, "the saved value");
      } catch (e) {
        return Promise.reject(e);
      }
      return request(OP.resultSave, copy === undefined ? null : copy);
    },
    load(id) {
      return request(OP.resultLoad, id);
    },
    delete(id) {
      return request(OP.resultDelete, id);
    },
  });

  // ---- lazily loaded sections ------------------------------------------
  // console, TextEncoder/TextDecoder, catalog/API, MCP and nodes are their
  // own bytecode, loaded the first time a cell touches them: most cells
  // never do, and loading less makes every cell's engine cheaper to
  // prepare and to free. They get the internals captured here, before any
  // guest code ran, so a guest patching globals cannot reach into them.
  let internals;
  const loaded = createObject(null);
  function section(name) {
    let value = loaded[name];
    if (value === undefined) {
      if (internals === undefined) {
        internals = freeze({
          handleMetadata, handle, request, OP, OUT, mcp, toolNames, defineProperty, objectKeys, freeze, hostEmit,
          isArray, hasOwn, setPrototypeOf, createObject, getOwnPropertyDescriptor, JSONstringify,
          Promise: PromiseCtor, Error: ErrorCtor, projectOutput, hostMcpTree, hostMcpSuggest, hostMarkNetwork,
        });
      }
      value = loaded[name] = hostLazy(name)(internals);
    }
    return value;
  }
  let mcpRoot;
  function mcp() {
    if (mcpRoot === undefined) mcpRoot = section("mcp");
    return mcpRoot;
  }
  // A global that becomes a plain data property on first read or write
  // (unless the guest froze globalThis first: then it stays an accessor
  // and the section's cached value is returned).
  function lazyGlobal(name, get) {
    defineProperty(globalObject, name, {
      get() {
        const value = get();
        try { install(name, value); } catch (e) { /* frozen globalThis */ }
        return value;
      },
      set(value) {
        try { install(name, value); } catch (e) { /* frozen globalThis: the write is ignored */ }
      },
      enumerable: false,
      configurable: true,
    });
  }

  const namespaces = createObject(null);
  defineProperty(namespaces, "MCP", { get: mcp, enumerable: true });
  freeze(namespaces);

  // ---- the clock and randomness, through the host ------------------------
  // A run is resumed by replaying its journal: every value the
  // cell reads from the clock or `Math.random` comes from the host, which
  // records it, and on replay answers with the recorded one.
  const hostNow = host.now;
  const hostRandom = host.random;
  const RealDate = Date;
  const construct = Reflect.construct;
  function now() { return hostNow(0); }
  function DateShim(...args) {
    if (new.target === undefined) return RealDate.prototype.toString.call(new RealDate(hostNow(0)));
    return construct(RealDate, args.length === 0 ? [hostNow(0)] : args, new.target);
  }
  DateShim.prototype = RealDate.prototype;
  defineProperty(DateShim, "length", { value: 7 });
  defineProperty(DateShim, "name", { value: "Date" });
  defineProperty(RealDate.prototype, "constructor", { value: DateShim, writable: true, configurable: true });
  defineProperty(DateShim, "now", { value: now, writable: true, configurable: true });
  defineProperty(DateShim, "parse", { value: RealDate.parse, writable: true, configurable: true });
  defineProperty(DateShim, "UTC", { value: RealDate.UTC, writable: true, configurable: true });
  defineProperty(Math, "random", { value: function random() { return hostRandom(); }, writable: true, configurable: true });
  // The engine's `performance.now` cannot be redefined: a replacement
  // object with the same members.
  const performanceShim = { now: function now() { return hostNow(1); }, timeOrigin: 0 };
  if (typeof performance === "object" && performance !== null) performanceShim.timeOrigin = performance.timeOrigin;

  // ---- install globals ----------------------------------------------------
  function install(name, value) {
    defineProperty(globalObject, name, { value, enumerable: false, writable: true, configurable: true });
  }
  install("Date", DateShim);
  install("performance", performanceShim);
  install("setTimeout", setTimeout);
  install("clearTimeout", clearTimeout);
  install("text", emitText);
  install("json", emitJson);
  install("yield_control", yield_control);
  lazyGlobal("TextEncoder", () => section("text").TextEncoder);
  lazyGlobal("TextDecoder", () => section("text").TextDecoder);
  lazyGlobal("console", () => section("console"));
  lazyGlobal("catalog", () => section("catalog").catalog);
  lazyGlobal("API", () => section("catalog").API);
  install("store", store);
  install("load", load);
  install("results", results);
  install("namespaces", namespaces);
  lazyGlobal("nodes", () => section("nodes"));
  defineProperty(globalObject, "MCP", { get: mcp, enumerable: false, configurable: true });
  // Each tool global is its catalog handle, made (and its metadata read)
  // the first time the cell touches it. Runs journaled by builds whose
  // globals were plain functions replay with plain functions
  // (`host.globalHandles` false), as they ran.
  const OP_CALL = OP.call;
  for (let i = 0; i < toolNames.length; i++) {
    const index = i;
    const name = toolNames[i];
    if (host.globalHandles) {
      lazyGlobal(name, () => handle(index));
    } else {
      const call = function (input) { return request(OP_CALL, index, input); };
      defineProperty(call, "name", { value: name });
      install(name, call);
    }
  }

  // Reports the outcome of the cell's promise (the host called the cell
  // function; an async function returns its errors as a rejection).
  function run(result) {
    result.then(
      (value) => {
        let copy;
        try {
          copy = projectFinal(value);
        } catch (e) {
          hostFinish(false, describeError(e, "value"));
          return;
        }
        // The host converts the copy itself, with no JSON text between.
        hostFinish(true, copy === undefined ? null : copy);
      },
      (e) => hostFinish(false, describeError(e, "run")),
    );
  }

  return { settle, rejectWith, run, callSite };
})
