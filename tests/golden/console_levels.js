// GA-4.1, GA-4.2: levels, prefixes, literal printf tokens, one ordered channel.
text("first");
console.log("%s", "literal", undefined, 2n);
console.info("info", 1);
console.warn("warn", true);
console.error("not thrown");
console.debug([1, null]);
json({ after: "console" });
return "done";
