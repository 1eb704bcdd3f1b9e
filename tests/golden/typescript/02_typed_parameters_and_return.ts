function total(prices: number[], tax: number = 0.2): number {
  return prices.reduce((sum: number, p: number) => sum + p, 0) * (1 + tax);
}
return total([10, 20]);
