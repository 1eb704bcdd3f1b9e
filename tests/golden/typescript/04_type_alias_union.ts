type Status = "open" | "closed";
type Row = { id: number; status: Status };
const rows: Row[] = [{ id: 1, status: "open" }, { id: 2, status: "closed" }];
return rows.filter((r) => r.status === "open").length;
