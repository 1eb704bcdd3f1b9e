// nodes (GA-10)
// A lazily loaded part of the guest prelude (see prelude.js): evaluated
// the first time a cell touches it, with the core's internals, which
// were captured before any guest code ran.
(function (k) {
  "use strict";
  const { projectOutput, request, OP, createObject, defineProperty, freeze, thenOf, rejected } = k;

  // ---- nodes (GA-10) -------------------------------------------------------
  // A handle is a frozen null-prototype object: id, name, invoke and, only
  // when the node advertises fs.listDir, listDir. Never an exec (GA-10.4).
  function nodeInvoke(node, command, params) {
    if (typeof node !== "string" || node.trim() === "") {
      return rejected(new TypeError("nodes.invoke node id must be a non-empty string."));
    }
    if (typeof command !== "string" || command.trim() === "") {
      return rejected(new TypeError("nodes.invoke command must be a non-empty string."));
    }
    let copy;
    try {
      copy = projectOutput(params === undefined || params === null ? {} : params);
    } catch (e) {
      return rejected(e);
    }
    return request(OP.nodesInvoke, node, command, copy === undefined ? null : copy);
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
  defineProperty(nodes, "list", { value: function list() { return request(OP.nodesList); }, enumerable: true });
  defineProperty(nodes, "get", {
    value: function get(idOrName) {
      if (typeof idOrName !== "string" || idOrName.trim() === "") {
        return rejected(new TypeError("nodes.get id or name must be a non-empty string."));
      }
      return thenOf(request(OP.nodesGet, idOrName), nodeHandle);
    },
    enumerable: true,
  });
  freeze(nodes);


  return nodes;
})
