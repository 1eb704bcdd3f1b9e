// The guest prelude: evaluated once in every fresh cell context, before the
// cell's own code. It receives the host hooks as an argument (they are never
// reachable from globalThis), installs the guest API of the contract, and
// returns the functions the host drives the cell with.
//
// Keep it small and allocation-light: it runs for every cell.
(function (host, toolNames) {
  "use strict";
  const hostCall = host.call;
  const hostMeta = host.meta;
  const hostSearch = host.search;
  const hostDescribe = host.describe;
  const hostApiList = host.apiList;
  const hostApiRead = host.apiRead;
  const hostStore = host.store;
  const hostLoad = host.load;
  const hostResultSave = host.resultSave;
  const hostResultLoad = host.resultLoad;
  const hostResultDelete = host.resultDelete;
  const hostMcpTree = host.mcpTree;
  const hostMcpCall = host.mcpCall;
  const hostMcpApi = host.mcpApi;
  const hostMcpOp = host.mcpOp;
  const hostMarkNetwork = host.markNetwork;
  const hostNodesList = host.nodesList;
  const hostNodesGet = host.nodesGet;
  const hostNodesInvoke = host.nodesInvoke;
  const hostYield = host.yield;
  const hostCancel = host.cancel;
  const hostEmit = host.emit;
  const hostFinish = host.finish;
  const hostTimer = host.timer;
  const O = Object;
  const defineProperty = O.defineProperty;
  const freeze = O.freeze;
  const getOwnPropertyDescriptor = O.getOwnPropertyDescriptor;
  const objectKeys = O.keys;
  const isArray = Array.isArray;
  const hasOwn = O.prototype.hasOwnProperty;
  const JSONstringify = JSON.stringify;
  const globalObject = globalThis;

  // request id -> (ok, value) => void
  const pending = new Map();

  function makeError(e) {
    let err;
    switch (e && e.name) {
      case "TypeError": err = new TypeError(e.message); break;
      case "RangeError": err = new RangeError(e.message); break;
      default: err = new Error(e && e.message !== undefined ? e.message : String(e));
    }
    if (e && e.code !== undefined) err.code = e.code;
    return err;
  }

  // Registers a host request made by `submit` (which returns its id) and
  // returns the promise the host settles.
  function request(submit, a, b, c) {
    return new Promise((resolve, reject) => {
      const id = submit(a, b, c);
      pending.set(id, (ok, value) => (ok ? resolve(value) : reject(makeError(value))));
    });
  }

  // The host settles a request. Returns nothing; errors thrown by timer
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

  // ---- catalog handles (GA-8) ---------------------------------------------
  // A handle is a callable function carrying its tool's metadata as
  // enumerable properties, plus describe() and toJSON(). Handles are made on
  // first use from metadata the host returns synchronously, cached (the same
  // tool gives the same object) and frozen.
  const handles = new Map();       // registry index -> handle
  const handleMetadata = new WeakMap(); // handle -> metadata (plain data)
  function handle(index) {
    let h = handles.get(index);
    if (h !== undefined) return h;
    const meta = JSON.parse(hostMeta(index));
    h = function (input) { return request(hostCall, index, input); };
    defineProperty(h, "name", { value: meta.callableName });
    const keys = objectKeys(meta);
    for (let i = 0; i < keys.length; i++) {
      defineProperty(h, keys[i], { value: meta[keys[i]], enumerable: true });
    }
    defineProperty(h, "describe", { value: function describe() { return request(hostDescribe, index); } });
    defineProperty(h, "toJSON", { value: function toJSON() { return JSON.parse(JSON.stringify(meta)); } });
    freeze(h);
    handles.set(index, h);
    handleMetadata.set(h, meta);
    return h;
  }
  // An MCP handle calls through the `MCP` namespace (GA-9.4); describe()
  // is that tool's `$api(method, {schema: true})` (GA-9.5).
  const mcpHandles = new Map(); // callableName -> handle
  function mcpHandle(meta) {
    let h = mcpHandles.get(meta.callableName);
    if (h !== undefined) return h;
    const data = {
      callableName: meta.callableName,
      toolName: meta.toolName,
      description: meta.description,
      source: "mcp",
      apiPath: meta.apiPath,
    };
    h = function (input) {
      const ns = mcp()[meta.server];
      const fn = ns && ns[meta.method];
      if (typeof fn !== "function") return Promise.reject(new Error(meta.callableName + " is no longer available."));
      return arguments.length === 1 ? fn(input) : fn.apply(undefined, arguments);
    };
    defineProperty(h, "name", { value: meta.callableName });
    const keys = objectKeys(data);
    for (let i = 0; i < keys.length; i++) defineProperty(h, keys[i], { value: data[keys[i]], enumerable: true });
    defineProperty(h, "describe", { value: function describe() { return mcp()[meta.server].$api(meta.method, { schema: true }); } });
    defineProperty(h, "toJSON", { value: function toJSON() { return JSON.parse(JSON.stringify(data)); } });
    freeze(h);
    mcpHandles.set(meta.callableName, h);
    handleMetadata.set(h, data);
    return h;
  }
  let allHandles;
  const catalog = freeze({
    search(query, options) {
      if (typeof query !== "string") return Promise.reject(new TypeError("search query must be a string."));
      const limit = options !== undefined && options !== null ? options.limit : undefined;
      if (limit !== undefined && typeof limit !== "number") {
        return Promise.reject(new RangeError("limit must be a positive integer."));
      }
      return request(hostSearch, query, limit).then((items) =>
        freeze(items.map((item) => (typeof item === "number" ? handle(item) : mcpHandle(item)))),
      );
    },
    all() {
      if (allHandles === undefined) allHandles = freeze(toolNames.map((_, i) => handle(i)));
      return allHandles;
    },
  });
  const API = freeze({
    list(prefix) {
      return request(hostApiList, prefix === undefined || prefix === null ? "" : String(prefix));
    },
    read(path) {
      if (typeof path !== "string" || path.length === 0) {
        return Promise.reject(new TypeError("API.read path must be a non-empty string."));
      }
      return request(hostApiRead, path);
    },
  });

  // Both projections walk the value depth-first into null-prototype copies.
  // Output projection (text/json, `dataOnly`): data properties only —
  // getters and toJSON never run. Final-value projection: properties are
  // read normally (a getter runs once, here, when the cell settles) but
  // toJSON never runs. Functions, symbols and undefined are dropped as
  // JSON.stringify drops them (null in arrays); BigInt becomes its decimal
  // string; non-finite numbers become null.
  function project(root, dataOnly, what) {
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
        case "string": case "boolean": return value;
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
          if (v !== undefined) out[k] = v;
        }
      }
      stack.length--;
      return out;
    }
    return walk(root);
  }

  function projectOutput(value) {
    return project(value, true, "value");
  }

  function projectFinal(value) {
    return project(value, false, "the returned value");
  }

  function toJsonText(projected) {
    return projected === undefined ? "null" : JSONstringify(projected);
  }

  function emitText(value) {
    if (typeof value === "string") { hostEmit(0, value); return; }
    hostEmit(0, toJsonText(projectOutput(value)));
  }
  function emitJson(value) {
    hostEmit(1, toJsonText(projectOutput(value)));
  }

  function describeError(e) {
    try {
      if (e instanceof Error) {
        return { name: String(e.name), message: String(e.message), stack: String(e.stack || "") };
      }
      if (typeof e === "string") return { thrown: e };
      return { thrown: toJsonText(projectOutput(e)) };
    } catch (inner) {
      return { thrown: "[unserializable thrown value]" };
    }
  }

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
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
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
        consoleOpen = hostEmit(2, formatConsole(prefix, arguments));
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

  // ---- timers -----------------------------------------------------------
  const timers = new Map(); // timer id -> request id
  let nextTimer = 1;
  function setTimeout(callback, delay, ...args) {
    if (typeof callback !== "function") throw new TypeError("setTimeout callback must be a function");
    let ms = Number(delay);
    ms = Number.isFinite(ms) ? Math.max(0, Math.floor(ms)) : 0;
    const timerId = nextTimer++;
    const requestId = hostTimer(ms);
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
    return request(hostYield, reason === undefined || reason === null ? null : String(reason));
  }

  // ---- TextEncoder / TextDecoder (UTF-8 only) ---------------------------
  // The code point at `i` (lone surrogates become U+FFFD) and its width.
  function codePointAt(str, i) {
    const c = str.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < str.length) {
      const d = str.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return [0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00), 2];
    }
    return [c >= 0xd800 && c <= 0xdfff ? 0xfffd : c, 1];
  }
  function utf8Bytes(cp) {
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  // Writes whole code points of `str` into `dest` while they fit.
  function utf8Write(str, dest) {
    let read = 0, written = 0;
    const cap = dest.length;
    while (read < str.length) {
      const [cp, units] = codePointAt(str, read);
      const n = utf8Bytes(cp);
      if (written + n > cap) break;
      if (n === 1) dest[written++] = cp;
      else if (n === 2) { dest[written++] = 0xc0 | (cp >> 6); dest[written++] = 0x80 | (cp & 63); }
      else if (n === 3) { dest[written++] = 0xe0 | (cp >> 12); dest[written++] = 0x80 | ((cp >> 6) & 63); dest[written++] = 0x80 | (cp & 63); }
      else { dest[written++] = 0xf0 | (cp >> 18); dest[written++] = 0x80 | ((cp >> 12) & 63); dest[written++] = 0x80 | ((cp >> 6) & 63); dest[written++] = 0x80 | (cp & 63); }
      read += units;
    }
    return { read, written };
  }
  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(input = "") {
      const str = String(input);
      let length = 0;
      for (let i = 0; i < str.length; ) {
        const [cp, units] = codePointAt(str, i);
        length += utf8Bytes(cp);
        i += units;
      }
      const out = new Uint8Array(length);
      utf8Write(str, out);
      return out;
    }
    encodeInto(input, dest) {
      if (!(dest instanceof Uint8Array)) throw new TypeError("encodeInto destination must be a Uint8Array");
      return utf8Write(String(input), dest);
    }
  }
  const UTF8_LABELS = ["utf-8", "utf8", "unicode-1-1-utf-8"];
  function toBytes(input) {
    if (input === undefined) return new Uint8Array(0);
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError("TextDecoder.decode expects an ArrayBuffer or a typed array");
  }
  class TextDecoder {
    #fatal; #ignoreBOM; #carry; #bomSeen;
    constructor(label = "utf-8", options = {}) {
      const l = String(label).trim().toLowerCase();
      if (!UTF8_LABELS.includes(l)) throw new RangeError("TextDecoder supports only utf-8, not " + JSONstringify(String(label)));
      this.#fatal = Boolean(options && options.fatal);
      this.#ignoreBOM = Boolean(options && options.ignoreBOM);
      this.#carry = [];
      this.#bomSeen = false;
    }
    get encoding() { return "utf-8"; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input, options) {
      const stream = Boolean(options && options.stream);
      const src = toBytes(input);
      const bytes = this.#carry.length ? this.#carry.concat(Array.from(src)) : src;
      this.#carry = [];
      let out = "";
      let i = 0;
      const n = bytes.length;
      const fail = () => {
        if (this.#fatal) { this.#bomSeen = false; throw new TypeError("The encoded data was not valid utf-8"); }
        out += "\ufffd";
      };
      while (i < n) {
        const b = bytes[i];
        if (b < 0x80) { out += String.fromCharCode(b); i++; continue; }
        let need, cp, lower = 0x80, upper = 0xbf;
        if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
        else if (b >= 0xe0 && b <= 0xef) { need = 2; cp = b & 0xf; if (b === 0xe0) lower = 0xa0; if (b === 0xed) upper = 0x9f; }
        else if (b >= 0xf0 && b <= 0xf4) { need = 3; cp = b & 7; if (b === 0xf0) lower = 0x90; if (b === 0xf4) upper = 0x8f; }
        else { fail(); i++; continue; }
        let j = 1;
        for (; j <= need; j++) {
          if (i + j >= n) break;
          const c = bytes[i + j];
          if (c < lower || c > upper) break;
          lower = 0x80; upper = 0xbf;
          cp = (cp << 6) | (c & 0x3f);
        }
        if (j <= need) {
          if (i + j >= n && stream) { this.#carry = Array.prototype.slice.call(bytes, i); break; }
          fail(); i += j; continue;
        }
        out += String.fromCodePoint(cp);
        i += need + 1;
      }
      if (!this.#ignoreBOM && !this.#bomSeen && out.charCodeAt(0) === 0xfeff) out = out.slice(1);
      if (out.length > 0) this.#bomSeen = true;
      if (!stream) this.#bomSeen = false;
      return out;
    }
  }

  // ---- session store (GA-7) and results (GA-6.5) --------------------------
  // Values go through the same data-only JSON projection as json().
  function projected(value) {
    return toJsonText(projectOutput(value));
  }
  function store(key, value) {
    let text;
    try {
      text = value === undefined ? undefined : projected(value);
    } catch (e) {
      return Promise.reject(e);
    }
    return request(hostStore, key, text).then(() => undefined);
  }
  function load(key) {
    return request(hostLoad, key).then((r) => (r.found ? r.value : undefined));
  }
  const results = freeze({
    save(value) {
      let text;
      try {
        text = projected(value);
      } catch (e) {
        return Promise.reject(e);
      }
      return request(hostResultSave, text);
    },
    load(id) {
      return request(hostResultLoad, id);
    },
    delete(id) {
      return request(hostResultDelete, id);
    },
  });

  // ---- MCP namespaces (GA-9) -----------------------------------------------
  // Built on first use from the host's current snapshot of the servers:
  // frozen, null-prototype objects all the way down.
  let mcpRoot;
  function mcpTool(server, method) {
    const call = function (input) {
      if (arguments.length !== 1 || input === null || typeof input !== "object" || isArray(input)) {
        return Promise.reject(new TypeError("MCP namespace tools accept one object argument."));
      }
      const args = createObject(null);
      const given = objectKeys(input);
      for (let i = 0; i < given.length; i++) args[given[i]] = input[given[i]];
      const defaults = objectKeys(method.defaults);
      for (let i = 0; i < defaults.length; i++) {
        if (args[defaults[i]] === undefined) args[defaults[i]] = method.defaults[defaults[i]];
      }
      const missing = method.required.filter((k) => args[k] === undefined);
      if (missing.length > 0) {
        const noun = missing.length > 1 ? "arguments" : "argument";
        return Promise.reject(new TypeError("Missing required MCP namespace " + noun + ": " + missing.join(", ")));
      }
      let text;
      try {
        text = projected(args);
      } catch (e) {
        return Promise.reject(e);
      }
      return new Promise((resolve, reject) => {
        const id = hostMcpCall(server.index, method.toolName, text);
        pending.set(id, (ok, value) => (ok ? resolve(value) : reject(makeError(value))));
      });
    };
    defineProperty(call, "name", { value: method.method });
    return freeze(call);
  }
  function buildMcp() {
    const tree = JSON.parse(hostMcpTree());
    const root = createObject(null);
    for (let s = 0; s < tree.servers.length; s++) {
      const server = tree.servers[s];
      const ns = createObject(null);
      for (let m = 0; m < server.methods.length; m++) ns[server.methods[m].method] = mcpTool(server, server.methods[m]);
      // The server's name is server-provided text: reading it marks the cell
      // as holding network-derived content (GA-9.3).
      defineProperty(ns, "$serverName", {
        get() { hostMarkNetwork(); return server.serverName; },
        enumerable: true,
      });
      const op = (name) =>
        function (args) {
          let text;
          try {
            text = projected(args === undefined ? {} : args);
          } catch (e) {
            return Promise.reject(e);
          }
          return request(hostMcpOp, server.index, name, text);
        };
      if (server.resources) ns.resources = freeze({ list: op("resources/list"), read: op("resources/read") });
      if (server.prompts) ns.prompts = freeze({ list: op("prompts/list"), get: op("prompts/get") });
      ns.$api = freeze(function $api(toolName, options) {
        const schema = Boolean(options && options.schema);
        return request(hostMcpApi, server.index, toolName === undefined || toolName === null ? null : String(toolName), schema);
      });
      root[server.identifier] = freeze(ns);
    }
    root.$api = freeze(function $api() { return request(hostMcpApi, -1, null, false); });
    return freeze(root);
  }
  function mcp() {
    if (mcpRoot === undefined) mcpRoot = buildMcp();
    return mcpRoot;
  }
  // ---- nodes (GA-10) -------------------------------------------------------
  // A handle is a frozen null-prototype object: id, name, invoke and, only
  // when the node advertises fs.listDir, listDir. Never an exec (GA-10.4).
  function nodeInvoke(node, command, params) {
    if (typeof node !== "string" || node.trim() === "") {
      return Promise.reject(new TypeError("nodes.invoke node id must be a non-empty string."));
    }
    if (typeof command !== "string" || command.trim() === "") {
      return Promise.reject(new TypeError("nodes.invoke command must be a non-empty string."));
    }
    let text;
    try {
      text = projected(params === undefined || params === null ? {} : params);
    } catch (e) {
      return Promise.reject(e);
    }
    return request(hostNodesInvoke, node, command, text);
  }
  function nodeHandle(resolved) {
    const h = createObject(null);
    const id = resolved.id;
    defineProperty(h, "id", { value: id, enumerable: true });
    defineProperty(h, "name", { value: resolved.name, enumerable: true });
    defineProperty(h, "invoke", {
      value: function invoke(command, params) { return nodeInvoke(id, command, params); },
      enumerable: true,
    });
    const listDirCommand = resolved.listDirCommand;
    if (listDirCommand !== undefined) {
      defineProperty(h, "listDir", {
        value: function listDir(path) { return nodeInvoke(id, listDirCommand, { path }); },
        enumerable: true,
      });
    }
    return freeze(h);
  }
  const nodes = createObject(null);
  defineProperty(nodes, "list", { value: function list() { return request(hostNodesList); }, enumerable: true });
  defineProperty(nodes, "get", {
    value: function get(idOrName) {
      if (typeof idOrName !== "string" || idOrName.trim() === "") {
        return Promise.reject(new TypeError("nodes.get id or name must be a non-empty string."));
      }
      return request(hostNodesGet, idOrName).then(nodeHandle);
    },
    enumerable: true,
  });
  freeze(nodes);

  const namespaces = createObject(null);
  defineProperty(namespaces, "MCP", { get: mcp, enumerable: true });
  freeze(namespaces);

  // ---- install globals ----------------------------------------------------
  function install(name, value) {
    defineProperty(globalObject, name, { value, enumerable: false, writable: true, configurable: true });
  }
  install("setTimeout", setTimeout);
  install("clearTimeout", clearTimeout);
  install("text", emitText);
  install("json", emitJson);
  install("yield_control", yield_control);
  install("TextEncoder", TextEncoder);
  install("TextDecoder", TextDecoder);
  install("console", console);
  install("catalog", catalog);
  install("API", API);
  install("store", store);
  install("load", load);
  install("results", results);
  install("namespaces", namespaces);
  install("nodes", nodes);
  defineProperty(globalObject, "MCP", { get: mcp, enumerable: false, configurable: true });
  for (let i = 0; i < toolNames.length; i++) {
    const index = i;
    const name = toolNames[i];
    const call = function (input) { return request(hostCall, index, input); };
    defineProperty(call, "name", { value: name });
    install(name, call);
  }

  // Runs the compiled cell function and reports its outcome exactly once.
  function run(cell) {
    let result;
    try {
      result = cell();
    } catch (e) {
      hostFinish(false, describeError(e));
      return;
    }
    result.then(
      (value) => {
        let text;
        try {
          text = toJsonText(projectFinal(value));
        } catch (e) {
          hostFinish(false, describeError(e));
          return;
        }
        hostFinish(true, text);
      },
      (e) => hostFinish(false, describeError(e)),
    );
  }

  return { settle, run };
})
