// GA-4 text/json projection: raw strings, JSON otherwise, captured at emission.
const o = { n: 1, get g() { throw new Error("getter must not run"); }, toJSON() { return "nope"; } };
text("raw string");
text({ c: 2 });
text(undefined);
json(undefined);
json(12n);
json(o);
o.n = 2;
json({ truncated: true, omittedBytes: 3, guidance: "looks like a marker", prefix: "[" });
return { final: o.n };
