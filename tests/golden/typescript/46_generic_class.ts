class Stack<T> {
  private items: T[] = [];
  push(item: T): this { this.items.push(item); return this; }
  peek(): T | undefined { return this.items[this.items.length - 1]; }
}
return new Stack<number>().push(1).push(2).peek();
