const out = await fail_tool({});
return out;
