interface A {
  x: number;
  y: number;
}
interface B {
  z: string;
}
const a: A = { x: 1, y: 2 };
throw new Error(`boom at ${a.x}`);
