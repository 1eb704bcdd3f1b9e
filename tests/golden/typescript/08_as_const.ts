const levels = ["low", "high"] as const;
return levels.length;
