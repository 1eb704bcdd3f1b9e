try {
  await echo_tool({ value: 1 as unknown as string });
} catch (e: any) {
  return [e.code, e.effectStatus, String(e.location).includes("user.js:2")];
}
return "not thrown";
