type N = { n?: { m: number } };
const v: N = {};
return v.n!.m;
