import { type Ticket, load } from "./api";
return load as Ticket;
