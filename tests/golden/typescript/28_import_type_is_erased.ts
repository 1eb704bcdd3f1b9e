import type { Ticket } from "./types";
import type * as Api from "./api";
const t: Ticket = { id: 7 } as Ticket;
const id: Api.Id = t.id;
return id;
