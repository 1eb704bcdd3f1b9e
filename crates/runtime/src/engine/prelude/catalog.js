// catalog handles, catalog and API (GA-8, GA-2)
// A lazily loaded part of the guest prelude (see prelude.js): evaluated
// the first time a cell touches it, with the core's internals, which
// were captured before any guest code ran.
(function (k) {
  "use strict";
  const { handleMetadata, handle, request, OP, mcp, toolNames, defineProperty, objectKeys, freeze, thenOf, rejected } = k;

  // An MCP handle calls through the `MCP` namespace (GA-9.4); describe()
  // is that tool's `$api(method, {schema: true})` (GA-9.5).
  const mcpHandles = new k.Map(); // callableName -> handle
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
      if (typeof fn !== "function") return rejected(new Error(meta.callableName + " is no longer available."));
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
  // catalog.all() lists tools by callable name, as the reference does, so
  // the order does not depend on how the host registered them. Plain loops
  // and comparisons: guest code may have replaced Array.prototype methods
  // by the time it first asks.
  function sortedByName() {
    const order = [];
    for (let i = 0; i < toolNames.length; i++) {
      let at = order.length;
      while (at > 0 && toolNames[order[at - 1]] > toolNames[i]) {
        order[at] = order[at - 1];
        at--;
      }
      order[at] = i;
    }
    return order;
  }
  let allHandles;
  const catalog = freeze({
    search(query, options) {
      if (typeof query !== "string") return rejected(new TypeError("search query must be a string."));
      const limit = options !== undefined && options !== null ? options.limit : undefined;
      if (limit !== undefined && typeof limit !== "number") {
        return rejected(new RangeError("limit must be a positive integer."));
      }
      return thenOf(request(OP.search, query, limit), (items) =>
        freeze(items.map((item) => (typeof item === "number" ? handle(item) : mcpHandle(item)))),
      );
    },
    all() {
      if (allHandles === undefined) {
        const order = sortedByName();
        const list = [];
        for (let i = 0; i < order.length; i++) list[i] = handle(order[i]);
        allHandles = freeze(list);
      }
      return allHandles;
    },
  });
  const API = freeze({
    list(prefix) {
      return request(OP.apiList, prefix === undefined || prefix === null ? "" : String(prefix));
    },
    read(path) {
      if (typeof path !== "string" || path.length === 0) {
        return rejected(new TypeError("API.read path must be a non-empty string."));
      }
      return request(OP.apiRead, path);
    },
  });


  return { catalog, API };
})
