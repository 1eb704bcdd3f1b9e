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
  // Chaining on a host promise with the intrinsics captured here: a guest
  // that replaced `Promise.prototype.then`, or watches `constructor` or
  // `Symbol.species`, sees no call or lookup of the runtime's. The host
  // promise is never the guest's (it gets the derived one), so it carries
  // an own `constructor` of `undefined`: `then` then makes its result
  // with the intrinsic `Promise`, reading nothing the guest can reach.
  const promiseThen = Promise.prototype.then;
  const promiseReject = Promise.reject;
  const reflectApply = Reflect.apply;
  function thenOf(promise, onFulfilled) {
    O.defineProperty(promise, "constructor", { value: undefined });
    return reflectApply(promiseThen, promise, [onFulfilled]);
  }
  function rejected(error) {
    return reflectApply(promiseReject, PromiseCtor, [error]);
  }
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
  // Tables made after guest code may have run are made with the
  // constructors as they were before it.
  const MapCtor = Map;
  const WeakMapCtor = WeakMap;
  const WeakSetCtor = WeakSet;

  // Tables are made on first use: most cells never need them, and every
  // object the prelude makes is made and freed for every cell.

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
  let bridgeErrors;
  function rejectWith(reject, fault, location) {
    const err = makeError(fault);
    if (location !== undefined) err.location = location;
    if (bridgeErrors === undefined) bridgeErrors = new WeakSetCtor();
    bridgeErrors.add(err);
    reject(err);
  }

  // The guest's stack where it made a nested call: a rejected call's
  // error carries its user frames as `.location`.
  function callSite() {
    return new ErrorCtor().stack;
  }

  // The host settles a timer. Returns nothing; errors thrown by timer
  // callbacks propagate to the host, which fails the cell with them. The
  // timers are their own section: no timer, nothing to settle.
  function settle(id, ok, value) {
    const timers = loaded.timers;
    if (timers !== undefined) timers.settle(id, ok, value);
  }

  // ---- value projection -------------------------------------------------
  // Copying values for output, the store and the final value is its own
  // section (prelude/values.js), loaded the first time a cell copies an
  // object: a cell that returns a primitive never loads it.
  const setPrototypeOf = O.setPrototypeOf;
  const createObject = O.create;

  let handleMetadata; // handle -> metadata (plain data)
  function metadataOf() {
    if (handleMetadata === undefined) handleMetadata = new WeakMapCtor();
    return handleMetadata;
  }

  // ---- catalog handles (GA-8) ---------------------------------------------
  // A handle is a callable function carrying its tool's metadata as
  // enumerable properties, plus describe() and toJSON(). Handles are made on
  // first use from metadata the host returns synchronously, cached (the same
  // tool gives the same object: its global, a search hit, catalog.all())
  // and frozen.
  let handles; // tool global index -> handle
  function handle(index) {
    if (handles === undefined) handles = new MapCtor();
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
    metadataOf().set(h, meta);
    return h;
  }

  let values;
  function valuesSection() {
    if (values === undefined) values = section("values");
    return values;
  }
  function projectOutput(value, what) {
    return valuesSection().projectOutput(value, what);
  }

  // The final value's copy: a primitive here, as the projection copies it
  // (non-finite numbers become null; undefined and symbols are dropped;
  // a BigInt becomes its decimal string).
  function projectFinal(value) {
    switch (typeof value) {
      case "string": case "boolean": return value;
      case "number": return value === value && value !== Infinity && value !== -Infinity ? value : null;
      case "bigint": return String(value);
      case "undefined": case "symbol": return undefined;
    }
    if (value === null) return null;
    return valuesSection().projectFinal(value);
  }

  // JSON text of a value for `text` and messages: well-formed strings.
  function textOf(value) {
    return valuesSection().textOf(value);
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
        const bridge = bridgeErrors !== undefined && bridgeErrors.has(e);
        return { name: String(e.name), message: String(e.message), stack: String(e.stack || ""), bridge };
      }
      if (typeof e === "string") return { thrown: e };
      return { thrown: textOf(e) };
    } catch (inner) {
      return { thrown: "[unserializable thrown value]" };
    }
  }

  function yield_control(reason) {
    return request(OP.yield, reason === undefined || reason === null ? null : String(reason));
  }

  // ---- lazily loaded sections ------------------------------------------
  // Timers, the store and results, console, TextEncoder/TextDecoder,
  // catalog/API, MCP, nodes and copying objects are their own bytecode,
  // loaded the first time a cell touches them: most cells never do, and
  // loading less makes every cell's engine cheaper to prepare and to free. They get the internals captured here, before any
  // guest code ran, so a guest patching globals cannot reach into them.
  let internals;
  const loaded = createObject(null);

  function section(name) {
    let value = loaded[name];
    if (value === undefined) {
      if (internals === undefined) {
        internals = freeze({
          handleMetadata: metadataOf(), handle, request, OP, OUT, mcp, toolNames, defineProperty, objectKeys, freeze,
          hostEmit, isArray, hasOwn, setPrototypeOf, createObject, getOwnPropertyDescriptor, JSONstringify, wellFormed,
          Promise: PromiseCtor, Error: ErrorCtor, Map: MapCtor, projectOutput, hostMcpTree, hostMcpSuggest, hostMarkNetwork,
          hostCancel, thenOf, rejected,
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
  // and the section's cached value is returned). Its value is section
  // `source`'s `member` (the section itself without one), or the handle
  // of tool global `source` when it is a number.
  function lazyGlobal(name, source, member) {
    defineProperty(globalObject, name, {
      get() {
        let value;
        if (typeof source === "number") {
          value = handle(source);
        } else {
          value = section(source);
          if (member !== undefined) value = value[member];
        }
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
  // records it, and on replay answers with the recorded one. `Date` is
  // the engine's own: the host answers its clock reads beneath it
  // (engine/cell_clock.rs). `Math.random` is the host's native function,
  // shaped as the engine's (`random`, length 0, not a constructor).
  const hostNow = host.now;
  defineProperty(Math, "random", { value: host.random, writable: true, configurable: true });
  // The engine's `performance.now` cannot be redefined: a replacement
  // object with the same members.
  const performanceShim = { now: function now() { return hostNow(1); }, timeOrigin: 0 };
  if (typeof performance === "object" && performance !== null) performanceShim.timeOrigin = performance.timeOrigin;

  // ---- install globals ----------------------------------------------------
  function install(name, value) {
    defineProperty(globalObject, name, { value, enumerable: false, writable: true, configurable: true });
  }
  install("performance", performanceShim);
  lazyGlobal("setTimeout", "timers", "setTimeout");
  lazyGlobal("clearTimeout", "timers", "clearTimeout");
  install("text", emitText);
  install("json", emitJson);
  install("yield_control", yield_control);
  lazyGlobal("TextEncoder", "text", "TextEncoder");
  lazyGlobal("TextDecoder", "text", "TextDecoder");
  lazyGlobal("console", "console");
  lazyGlobal("catalog", "catalog", "catalog");
  lazyGlobal("API", "catalog", "API");
  lazyGlobal("store", "store", "store");
  lazyGlobal("load", "store", "load");
  lazyGlobal("results", "store", "results");
  install("namespaces", namespaces);
  lazyGlobal("nodes", "nodes");
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
      lazyGlobal(name, index);
    } else {
      const call = function (input) { return request(OP_CALL, index, input); };
      defineProperty(call, "name", { value: name });
      install(name, call);
    }
  }

  // Reports the outcome of the cell's promise, once it settled: the host
  // reads its state from the engine (no `then` a guest could replace or
  // watch) and hands it here to be copied.
  function finish(ok, value) {
    if (!ok) {
      hostFinish(false, describeError(value, "run"));
      return;
    }
    let copy;
    try {
      copy = projectFinal(value);
    } catch (e) {
      hostFinish(false, describeError(e, "value"));
      return;
    }
    // The host converts the copy itself, with no JSON text between.
    hostFinish(true, copy === undefined ? null : copy);
  }

  return { settle, rejectWith, finish, callSite };
})
