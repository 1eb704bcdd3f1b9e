// MCP namespaces (GA-9)
// A lazily loaded part of the guest prelude (see prelude.js): evaluated
// the first time a cell touches it, with the core's internals, which
// were captured before any guest code ran.
(function (k) {
  "use strict";
  const { isArray, createObject, objectKeys, projectOutput, hostMcpTree, hostMcpSuggest, hostMarkNetwork, request, OP, defineProperty, freeze, rejected } = k;
  // Read when this section loads. A guest that replaced `Proxy` before
  // touching `MCP` only degrades its own namespace: the handler below
  // returns nothing a plain member read would not.
  const ProxyCtor = typeof Proxy === "function" ? Proxy : undefined;
  const TypeErrorCtor = TypeError;

  // ---- MCP namespaces (GA-9) -----------------------------------------------
  // Built on first use from the host's current snapshot of the servers:
  // frozen, null-prototype objects all the way down.
  function mcpTool(server, method) {
    // The host fills in defaults and names missing required arguments
    // (GA-9.4) before it admits the call; only the calling convention is
    // checked here.
    const call = function (input) {
      let given = input;
      // No argument (or `undefined`) is `{}`; the declaration marks the
      // input optional (`input?`) from the same `inputOptional` field.
      if (arguments.length === 0 || (arguments.length === 1 && input === undefined)) {
        given = {};
      } else if (arguments.length !== 1 || input === null || typeof input !== "object" || isArray(input)) {
        return rejected(new TypeErrorCtor("MCP namespace tools accept one object argument."));
      }
      const args = createObject(null);
      const keys = objectKeys(given);
      for (let i = 0; i < keys.length; i++) args[keys[i]] = given[keys[i]];
      let copy;
      try {
        copy = projectOutput(args);
      } catch (e) {
        return rejected(e);
      }
      return request(OP.mcpCall, server.index, method.toolName, copy);
    };
    defineProperty(call, "name", { value: method.method });
    return freeze(call);
  }

  // ---- unknown members ---------------------------------------------------------
  // The closest method comes from the host (`codemode_mcp::naming::
  // suggestion`), the rule the declarations' messages use too.
  // Names JavaScript itself probes (await, JSON, inspection): never tools.
  const PROBES = createObject(null);
  const probeNames = ["then", "toJSON", "valueOf", "toString", "inspect", "nodeType", "$$typeof", "asymmetricMatch", "constructor", "prototype", "__proto__", "length", "name"];
  for (let i = 0; i < probeNames.length; i++) PROBES[probeNames[i]] = true;

  // An unknown member reads as `undefined` — `typeof MCP.s.x` stays a
  // feature test, and a tool the policy hides looks like one that does
  // not exist — except where the guest almost certainly meant a tool: a
  // close misspelling of one, or any name on a server that is not
  // connected. Those throw a TypeError saying what went wrong instead of
  // the engine's bare "not a function".
  function guarded(server, ns) {
    freeze(ns);
    if (ProxyCtor === undefined) return ns;
    const methods = server.methods.map((m) => m.method);
    return new ProxyCtor(ns, {
      get(target, prop) {
        if (typeof prop !== "string" || prop in target || PROBES[prop] === true) return target[prop];
        if (!server.up) {
          // The reason quotes the server's own stderr: network-derived.
          hostMarkNetwork();
          const why = server.error === undefined ? "not connected yet" : server.error;
          throw new TypeErrorCtor("no tool `" + prop + "` on server `" + server.identifier + "`: the server is not connected (" + why + "). Call MCP." + server.identifier + ".$api() to list its tools.");
        }
        const meant = hostMcpSuggest(prop, methods);
        if (meant === undefined || meant === null) return undefined;
        throw new TypeErrorCtor("no tool `" + prop + "` on server `" + server.identifier + "`; did you mean `" + meant + "`? Call MCP." + server.identifier + ".$api() to list its tools.");
      },
    });
  }

  function buildMcp() {
    const tree = JSON.parse(hostMcpTree());
    const root = createObject(null);
    for (let s = 0; s < tree.servers.length; s++) {
      const server = tree.servers[s];
      const ns = createObject(null);
      for (let m = 0; m < server.methods.length; m++) {
        const method = server.methods[m];
        const fn = mcpTool(server, method);
        ns[method.method] = fn;
        // The server's own name works too; non-enumerable, so
        // `Object.keys` lists the normalized names only.
        for (let a = 0; a < method.aliases.length; a++) {
          defineProperty(ns, method.aliases[a], { value: fn, enumerable: false });
        }
      }
      // The server's name is server-provided text: reading it marks the cell
      // as holding network-derived content (GA-9.3).
      defineProperty(ns, "$serverName", {
        get() { hostMarkNetwork(); return server.serverName; },
        enumerable: true,
      });
      const op = (name) =>
        function (args) {
          let copy;
          try {
            copy = projectOutput(args === undefined ? {} : args);
          } catch (e) {
            return rejected(e);
          }
          return request(OP.mcpOp, server.index, name, copy === undefined ? null : copy);
        };
      if (server.resources) ns.resources = freeze({ list: op("resources/list"), read: op("resources/read") });
      if (server.prompts) ns.prompts = freeze({ list: op("prompts/list"), get: op("prompts/get") });
      ns.$api = freeze(function $api(toolName, options) {
        const schema = Boolean(options && options.schema);
        return request(OP.mcpApi, server.index, toolName === undefined || toolName === null ? null : String(toolName), schema);
      });
      root[server.identifier] = guarded(server, ns);
    }
    root.$api = freeze(function $api() { return request(OP.mcpApi, -1, null, false); });
    return freeze(root);
  }


  return buildMcp();
})
