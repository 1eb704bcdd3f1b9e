function parse(x: string): number;
function parse(x: number): string;
function parse(x: string | number): string | number {
  return typeof x === "string" ? x.length : String(x);
}
return [parse("abc"), parse(12)];
