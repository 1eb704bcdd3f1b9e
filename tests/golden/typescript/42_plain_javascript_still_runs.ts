const xs = [3, 1, 2];
xs.sort((a, b) => a - b);
return xs;
