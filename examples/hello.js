// A first cell: output goes to the ordered channel, the return value is the result.
text("hello from a cell");
const started = Date.now();
await new Promise((resolve) => setTimeout(resolve, 10));
const bytes = new TextEncoder().encode("héllo 🦞");
return { bytes: bytes.length, waitedAtLeast10ms: Date.now() - started >= 10 };
