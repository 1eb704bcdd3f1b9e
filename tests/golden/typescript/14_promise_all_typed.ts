const results: Array<{ input: { value: string } }> = await Promise.all(
  ["a", "b"].map((v: string) => echo_tool({ value: v })),
);
return results.map((r) => r.input.value);
