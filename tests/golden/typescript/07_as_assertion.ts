const raw: unknown = { id: 42 };
return (raw as { id: number }).id;
