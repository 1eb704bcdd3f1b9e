const fetchOne = async (v: string): Promise<string> => ((await echo_tool({ value: v })) as any).input.value;
return await fetchOne("z");
