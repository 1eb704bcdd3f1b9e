// GA-4.1: console interleaves with text across a resume, in call order.
const cycle = { ok: true };
cycle.self = cycle;
text("first");
console.info(cycle);
await yield_control("pause");
console.error("not thrown");
console.debug([1, null]);
return "resumed";
