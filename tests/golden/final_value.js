// GA-1.4: the final value crosses a JSON-only bridge; toJSON never runs.
Object.prototype.toJSON = () => ({ invoked: true });
Array.prototype.toJSON = () => "array hook";
BigInt.prototype.toJSON = () => "bigint hook";
let calls = 0;
const withGetter = { get g() { calls += 1; return calls; } };
await yield_control();
return { invoked: false, list: [1, 2], big: 12n, date: new Date(0), getter: withGetter, calls: () => calls };
