const label: string = "waiting";
const r = (await yield_control(label)) as { status: string; reason: string };
return r.reason;
