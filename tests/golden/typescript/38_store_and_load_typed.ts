type Prefs = { theme: string };
await store("prefs", { theme: "dark" } satisfies Prefs);
const loaded = (await load("prefs")) as { found: boolean; value: Prefs };
return loaded.value.theme;
