const items: number[] = [1, 2, 3];
console.log("items", items.length as number);
text(`sum ${items.reduce((a: number, b: number) => a + b, 0)}`);
return null;
