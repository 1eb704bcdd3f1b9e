// setTimeout and clearTimeout (GA-3)
// A lazily loaded part of the guest prelude (see prelude.js): evaluated
// the first time a cell touches a timer global, with the core's
// internals, which were captured before any guest code ran.
(function (k) {
  "use strict";
  const { request, OP, hostCancel } = k;
  // Timer id -> request id, and request id -> its callback (the host
  // settles a timer by its request id through `settle`).
  const timers = new k.Map();
  const pending = new k.Map();
  let nextTimer = 1;
  function setTimeout(callback, delay, ...args) {
    if (typeof callback !== "function") throw new TypeError("setTimeout callback must be a function");
    let ms = Number(delay);
    ms = Number.isFinite(ms) ? Math.max(0, Math.floor(ms)) : 0;
    const timerId = nextTimer++;
    const requestId = request(OP.timer, ms);
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
  // Errors thrown by a timer's callback propagate to the host, which fails
  // the cell with them.
  function settle(id, ok, value) {
    const onSettle = pending.get(id);
    if (onSettle === undefined) return;
    pending.delete(id);
    onSettle(ok, value);
  }
  return { setTimeout, clearTimeout, settle };
})
