// limits: {"max_output_bytes": 1024}
// GA-4.8: an oversized error keeps its head and says it was cut.
throw new Error("DIAGNOSTIC " + "detail ".repeat(1000));
