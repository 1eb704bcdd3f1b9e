function first<T>(items: T[]): T | undefined {
  return items[0];
}
return [first<number>([7, 8]), first(["a"])];
