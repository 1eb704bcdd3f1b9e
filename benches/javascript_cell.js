// Weekly triage summary: open issues grouped by label, oldest first.
// (The JavaScript twin of typescript_cell.ts: the same cell without its types.)
const repo = "acme/widgets";
const since = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString();

async function fetchAll(fn, max = 5) {
  const out = [];
  for (let page = 1; page <= max; page++) {
    const batch = await fn(page);
    if (!batch.length) break;
    out.push(...batch);
  }
  return out;
}

const issues = await fetchAll(async (page) => {
  const res = await tools.github.list_issues({ repo, since, page, per_page: 100 });
  return res.items;
});

const byLabel = new Map();
for (const issue of issues) {
  for (const label of issue.labels) {
    const prev = byLabel.get(label) ?? { label, count: 0 };
    prev.count += 1;
    if (!prev.oldest || issue.createdAt < prev.oldest.createdAt) {
      prev.oldest = issue;
    }
    byLabel.set(label, prev);
  }
}

const unassigned = issues.filter((i) => !i.assignee);
const sorted = [...byLabel.values()].sort((a, b) => b.count - a.count);

function fmt(s) {
  const oldest = s.oldest ? ` (oldest #${s.oldest.id}: ${s.oldest.title})` : "";
  return `${s.label.padEnd(20)} ${String(s.count).padStart(4)}${oldest}`;
}

const top = sorted.slice(0, 10).map(fmt);
const report = {
  repo,
  total: issues.length,
  unassigned: unassigned.length,
  labels: sorted.length,
  top,
};

if (unassigned.length > 0) {
  const first = unassigned[0];
  await tools.slack.post_message({
    channel: "#triage",
    text: `${unassigned.length} unassigned issues in ${repo}; first: #${first.id} ${first.title}`,
  });
}

console.log(top.join("\n"));
return report;
