let total!: number;
total = 5;
class Box { value!: string }
const b = new Box();
b.value = "v";
return [total, b.value];
