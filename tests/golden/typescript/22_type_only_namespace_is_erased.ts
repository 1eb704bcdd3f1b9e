declare namespace Api { type Id = string }
const id: Api.Id = "x1";
return id;
