// Copying values: output (`text`, `json`, the store, results, nested
// calls' arguments) and the final value (GA-4, GA-5).
// A lazily loaded part of the guest prelude (see prelude.js): evaluated
// the first time a cell copies an object, with the core's internals,
// which were captured before any guest code ran.
(function (k) {
  "use strict";
  const { handleMetadata, isArray, hasOwn, setPrototypeOf, createObject, getOwnPropertyDescriptor, objectKeys } = k;
  const { JSONstringify, wellFormed } = k;

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
  return { projectOutput, projectFinal, textOf };
})
