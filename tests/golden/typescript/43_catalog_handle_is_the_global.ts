const [hit] = await catalog.search("echo_tool", { limit: 1 });
return [hit === echo_tool, typeof echo_tool.describe, echo_tool.callableName];
