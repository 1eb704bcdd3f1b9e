const count: number = 3;
const name: string = "rows";
const flags: boolean[] = [true, false];
return { count, name, flags };
