const settings = { mode: "fast", level: 2 };
type Key = keyof typeof settings;
const k: Key = "mode";
return settings[k];
