enum Color {
  Red,
  Green,
}
return Color.Red;
