// Weekly triage summary: open issues grouped by label, oldest first.
interface Issue {
  id: number;
  title: string;
  labels: string[];
  assignee?: { login: string } | null;
  createdAt: string;
}

type Summary = { label: string; count: number; oldest?: Issue };

const repo: string = "acme/widgets";
const since = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString();

async function fetchAll<T>(fn: (page: number) => Promise<T[]>, max: number = 5): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= max; page++) {
    const batch = await fn(page);
    if (!batch.length) break;
    out.push(...batch);
  }
  return out;
}

const issues = await fetchAll<Issue>(async (page: number) => {
  const res = (await tools.github.list_issues({ repo, since, page, per_page: 100 })) as {
    items: Issue[];
  };
  return res.items;
});

const byLabel = new Map<string, Summary>();
for (const issue of issues) {
  for (const label of issue.labels) {
    const prev: Summary = byLabel.get(label) ?? { label, count: 0 };
    prev.count += 1;
    if (!prev.oldest || issue.createdAt < prev.oldest!.createdAt) {
      prev.oldest = issue;
    }
    byLabel.set(label, prev);
  }
}

const unassigned: Issue[] = issues.filter((i): i is Issue => !i.assignee);
const sorted = [...byLabel.values()].sort((a: Summary, b: Summary) => b.count - a.count);

function fmt(s: Summary): string {
  const oldest = s.oldest ? ` (oldest #${s.oldest.id}: ${s.oldest.title})` : "";
  return `${s.label.padEnd(20)} ${String(s.count).padStart(4)}${oldest}`;
}

const top = sorted.slice(0, 10).map(fmt) satisfies string[];
const report = {
  repo,
  total: issues.length,
  unassigned: unassigned.length,
  labels: sorted.length,
  top,
} as const;

if (unassigned.length > 0) {
  const first = unassigned[0]!;
  await tools.slack.post_message({
    channel: "#triage",
    text: `${unassigned.length} unassigned issues in ${repo}; first: #${first.id} ${first.title}`,
  });
}

console.log(top.join("\n"));
return report;
