const pair: [string, number] = ["age", 30];
const [key, value]: [string, number] = pair;
return `${key}=${value}`;
