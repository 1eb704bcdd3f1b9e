const enum Direction { Up = "UP" }
return Direction.Up;
