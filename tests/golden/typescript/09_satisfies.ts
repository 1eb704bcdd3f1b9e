type Config = Record<string, number>;
const limits = { a: 1, b: 2 } satisfies Config;
return limits.a + limits.b;
