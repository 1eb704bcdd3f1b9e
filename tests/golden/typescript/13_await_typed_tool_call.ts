type Echo = { name: string; input: { value: string } };
const out = (await echo_tool({ value: "hi" })) as Echo;
return out.input.value;
