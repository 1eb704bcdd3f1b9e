// GA-4.3, GA-4.4: JSON-shaped inspection and diagnostic placeholders.
const cycle = { ok: true };
cycle.self = cycle;
const shared = { s: 1 };
console.info(cycle);
console.log([shared, shared]);
console.warn({ get bad() { throw new Error("never run"); }, toJSON() { return "never"; }, f() {}, sym: Symbol("q") });
console.log({ pending: Promise.resolve(1) });
console.error(new TypeError("with message"));
console.log(new Proxy({}, { ownKeys() { throw new Error("trap"); } }));
console.log({ a: { b: { c: { d: { e: 1 } } } } });
const log = console.log;
log("unbound works:", log("x") === undefined, typeof console.table);
return null;
