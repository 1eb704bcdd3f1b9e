const counts: { [word: string]: number } = {};
for (const w of ["a", "b", "a"]) counts[w] = (counts[w] ?? 0) + 1;
const copy: Record<string, number> = { ...counts };
return copy;
