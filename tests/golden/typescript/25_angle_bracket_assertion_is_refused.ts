const value: unknown = "text";
const length = (<string>value).length;
return length;
