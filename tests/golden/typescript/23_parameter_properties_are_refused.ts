class Point {
  constructor(public x: number, private y: number) {}
}
return new Point(1, 2).x;
