interface Ticket {
  id: number;
  title: string;
  tags?: string[];
}
const tickets: Ticket[] = [{ id: 1, title: "first" }, { id: 2, title: "second", tags: ["x"] }];
return tickets.map((t: Ticket) => t.title);
