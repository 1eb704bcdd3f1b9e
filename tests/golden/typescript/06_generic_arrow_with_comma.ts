const wrap = <T,>(value: T): { value: T } => ({ value });
return wrap<string>("boxed");
