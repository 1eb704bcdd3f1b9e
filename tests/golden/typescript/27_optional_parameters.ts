function greet(name?: string, punctuation?: string): string {
  return `hi ${name ?? "there"}${punctuation ?? "!"}`;
}
return [greet(), greet("Ana", ".")];
