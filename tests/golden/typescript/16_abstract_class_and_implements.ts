interface Shape { area(): number }
abstract class Base implements Shape {
  abstract area(): number;
  describe(): string { return `area ${this.area()}`; }
}
class Square extends Base {
  private readonly side: number;
  constructor(side: number) { super(); this.side = side; }
  area(): number { return this.side * this.side; }
}
return new Square(3).describe();
