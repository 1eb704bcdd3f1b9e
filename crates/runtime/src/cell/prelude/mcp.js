// MCP namespaces (GA-9)
// A lazily loaded part of the guest prelude (see prelude.js): evaluated
// the first time a cell touches it, with the core's internals, which
// were captured before any guest code ran.
(function (k) {
  "use strict";
  const { isArray, createObject, objectKeys, projected, hostMcpCall, hostMcpTree, hostMcpApi, hostMcpOp, hostMarkNetwork, pending, makeError, request, defineProperty, freeze } = k;

  // ---- MCP namespaces (GA-9) -----------------------------------------------
  // Built on first use from the host's current snapshot of the servers:
  // frozen, null-prototype objects all the way down.
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


  return buildMcp();
})
