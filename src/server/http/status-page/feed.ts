// The incidents of a public dashboard as an Atom feed: an entry when one opened,
// another when it resolved, titled generically (data.ts), text escaped (esc).
import { esc } from './page.js';
import type { PageData } from './data.js';
import type { FeedLinks } from './links.js';

export function renderFeed(data: PageData, links: FeedLinks): string {
  const entries = data.incidents.flatMap((i) => {
    const opened = { id: `${i.id}:opened`, title: `${i.title} (opened)`, at: i.startedAt };
    return i.endedAt === null
      ? [opened]
      : [{ id: `${i.id}:resolved`, title: `${i.title} (resolved)`, at: i.endedAt }, opened];
  });
  entries.sort((a, b) => b.at - a.at);
  const updated = new Date(entries[0]?.at ?? data.now).toISOString();
  const body = entries
    .map(
      (e) => `<entry>
<id>urn:checkwall:incident:${esc(e.id)}</id>
<title>${esc(e.title)}</title>
<updated>${new Date(e.at).toISOString()}</updated>
<link href="${esc(links.page)}"/>
</entry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${esc(links.id)}</id>
<title>${esc(data.dashboard.name)}: incidents</title>
<updated>${updated}</updated>
<link rel="self" href="${esc(links.self)}"/>
<link href="${esc(links.page)}"/>
${body}
</feed>
`;
}
