// The guest prelude: evaluated once in every fresh cell context, before the
// cell's own code. It receives the host hooks as an argument (they are never
// reachable from globalThis), installs the guest API of the contract, and
// returns the functions the host drives the cell with.
//
// Keep it small and allocation-light: it runs for every cell.
(function (host, toolNames) {
  "use strict";
  const hostCall = host.call;
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
  function request(submit, a, b) {
    return new Promise((resolve, reject) => {
      const id = submit(a, b);
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
  // Output projection (text/json): data properties only — getters and
  // toJSON are never run; functions, symbols and undefined are dropped as
  // JSON.stringify drops them; BigInt becomes its decimal string.
  function projectOutput(value, path, seen) {
    switch (typeof value) {
      case "string": case "boolean": return value;
      case "number": return Number.isFinite(value) ? value : null;
      case "bigint": return String(value);
      case "undefined": case "function": case "symbol": return undefined;
    }
    if (value === null) return null;
    if (seen.has(value)) throw new TypeError("value has a cycle at " + path);
    seen.add(value);
    let out;
    if (isArray(value)) {
      out = [];
      const n = value.length;
      for (let i = 0; i < n; i++) {
        const d = getOwnPropertyDescriptor(value, i);
        const v = d && "value" in d ? projectOutput(d.value, path + "[" + i + "]", seen) : undefined;
        out.push(v === undefined ? null : v);
      }
    } else {
      out = {};
      const keys = objectKeys(value);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const d = getOwnPropertyDescriptor(value, k);
        if (!d || !("value" in d)) continue;
        const v = projectOutput(d.value, path + "." + k, seen);
        if (v !== undefined) defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
    seen.delete(value);
    return out;
  }

  // Final-value projection: reads properties normally (a getter runs once,
  // here, when the cell settles) but never calls toJSON.
  function projectFinal(value, path, seen) {
    switch (typeof value) {
      case "string": case "boolean": return value;
      case "number": return Number.isFinite(value) ? value : null;
      case "bigint": return String(value);
      case "undefined": case "function": case "symbol": return undefined;
    }
    if (value === null) return null;
    if (seen.has(value)) throw new TypeError("the returned value has a cycle at " + path + "; return plain data without self-references");
    seen.add(value);
    let out;
    if (isArray(value)) {
      out = [];
      const n = value.length;
      for (let i = 0; i < n; i++) {
        const v = projectFinal(value[i], path + "[" + i + "]", seen);
        out.push(v === undefined ? null : v);
      }
    } else {
      out = {};
      const keys = objectKeys(value);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const v = projectFinal(value[k], path + "." + k, seen);
        if (v !== undefined) defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
    seen.delete(value);
    return out;
  }

  function toJsonText(projected) {
    return projected === undefined ? "null" : JSONstringify(projected);
  }

  function emitText(value) {
    if (typeof value === "string") { hostEmit(0, value); return; }
    hostEmit(0, toJsonText(projectOutput(value, "$", new Set())));
  }
  function emitJson(value) {
    hostEmit(1, toJsonText(projectOutput(value, "$", new Set())));
  }

  function describeError(e) {
    try {
      if (e instanceof Error) {
        return { name: String(e.name), message: String(e.message), stack: String(e.stack || "") };
      }
      if (typeof e === "string") return { thrown: e };
      return { thrown: toJsonText(projectOutput(e, "$", new Set())) };
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
  function utf8Encode(str) {
    const out = [];
    for (let i = 0; i < str.length; i++) {
      let c = str.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < str.length) {
        const d = str.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
        else c = 0xfffd;
      } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return out;
  }
  class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(input = "") { return new Uint8Array(utf8Encode(String(input))); }
    encodeInto(input, dest) {
      if (!(dest instanceof Uint8Array)) throw new TypeError("encodeInto destination must be a Uint8Array");
      const str = String(input);
      let read = 0, written = 0;
      for (let i = 0; i < str.length; ) {
        const c = str.codePointAt(i);
        const units = c > 0xffff ? 2 : 1;
        const bytes = utf8Encode(str.slice(i, i + units));
        if (written + bytes.length > dest.length) break;
        for (let j = 0; j < bytes.length; j++) dest[written++] = bytes[j];
        read += units;
        i += units;
      }
      return { read, written };
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
          text = toJsonText(projectFinal(value, "$", new Set()));
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
