type Prefs = { theme: string };
await store("prefs", { theme: "dark" } satisfies Prefs);
const loaded = (await load("prefs")) as Prefs;
return loaded.theme;
