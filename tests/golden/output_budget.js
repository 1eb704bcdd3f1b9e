// limits: {"max_output_bytes": 1024}
// GA-4.8: output past maxOutputBytes becomes a marker describing the original.
text("progress ".repeat(200));
await yield_control();
text("after the budget");
return Array.from({ length: 300 }, (_, i) => i);
