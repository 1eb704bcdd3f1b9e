const byId = new Map<string, { name: string }>([["u1", { name: "Ada" }]]);
return byId.get("u1")!.name;
