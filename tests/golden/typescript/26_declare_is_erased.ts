declare const injected: number;
declare function helper(x: string): void;
return typeof injected;
