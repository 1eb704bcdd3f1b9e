// The session store (GA-7) and results (GA-6.5)
// A lazily loaded part of the guest prelude (see prelude.js): evaluated
// the first time a cell touches `store`, `load` or `results`, with the
// core's internals, which were captured before any guest code ran.
(function (k) {
  "use strict";
  const { request, OP, projectOutput, freeze, thenOf, rejected } = k;
  // Values go through the same data-only projection as json(); the host
  // converts the projection itself (no JSON text between).
  function store(key, value) {
    if (value === undefined) return thenOf(request(OP.store, key), () => undefined);
    let copy;
    try {
      copy = projectOutput(value, "the stored value");
    } catch (e) {
      return rejected(e);
    }
    return thenOf(request(OP.store, key, copy === undefined ? null : copy), () => undefined);
  }
  function load(key) {
    return thenOf(request(OP.load, key), (r) => (r.found ? r.value : undefined));
  }
  const results = freeze({
    save(value) {
      let copy;
      try {
        copy = projectOutput(value, "the saved value");
      } catch (e) {
        return rejected(e);
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
  return { store, load, results };
})
