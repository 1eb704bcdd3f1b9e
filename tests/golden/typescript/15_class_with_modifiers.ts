class Counter {
  private count: number = 0;
  public readonly label: string;
  constructor(label: string) {
    this.label = label;
  }
  increment(): number {
    return ++this.count;
  }
}
const c = new Counter("clicks");
c.increment();
return [c.label, c.increment()];
