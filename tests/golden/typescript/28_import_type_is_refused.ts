import type { Ticket } from "./types";
const t: Ticket = {} as Ticket;
return t;
