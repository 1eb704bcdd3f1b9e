type User = { profile?: { name?: string } };
const user: User | null = { profile: { name: "Lin" } };
return user!.profile?.name!.toUpperCase();
