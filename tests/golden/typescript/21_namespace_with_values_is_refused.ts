namespace Util {
  export const twice = (n: number) => n * 2;
}
return Util.twice(2);
