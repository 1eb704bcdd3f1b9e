const words: string[] = ["a", "bb", "ccc"];
const lengths = words.map((w: string): number => w.length);
return lengths;
