// Fresh visitors beside a crowd: one every EVERY_MS for FOR_MS, each on a new connection,
// taking turns at three kinds of page: a cached page (the French home page, which must come
// from the host's page cache), an uncached page (the status page for a crawler, rendered
// whole with its data, which the upstream gives a `fresh-` session at once) and a 404 (a
// path no route takes, a new one each time, so each is rendered). Prints one JSON line:
// for each kind, its first bytes (ms from the start of its connection) and what came
// wrong.
// Usage: node bench/crowd/fresh.mjs BASE_URL FOR_MS EVERY_MS
import { CRAWLER, PERSON } from "../peers/host-page.mjs";
import { quantile } from "../ttfb.mjs";
import { carriesData } from "../upstream.mjs";
import { visit } from "./visit.mjs";

const [baseUrl, forArg, everyArg] = process.argv.slice(2);
const [forMs, everyMs] = [Number(forArg), Number(everyArg)];
if (!baseUrl || !(forMs > 0) || !(everyMs > 0)) {
  console.error("usage: node bench/crowd/fresh.mjs BASE_URL FOR_MS EVERY_MS");
  process.exit(2);
}
const ACCEPTED = "gzip, deflate, br";

/** Each kind: what it is, its n-th request, and what is wrong with an answer (null: nothing). */
const KINDS = [
  {
    what: "a cached page (/fr/)",
    ask: () => [`${baseUrl}/fr/`, { "Accept-Encoding": ACCEPTED, "User-Agent": PERSON }],
    wrong: (a) => (a.status !== 200 ? `status ${a.status}` : a.headers["server-timing"]?.includes('cache;desc="hit"') ? null : "not from the page cache"),
  },
  {
    what: "an uncached page (/fr/etat for a crawler, whole, its data at once)",
    ask: (n) => [`${baseUrl}/fr/etat`, { "Accept-Encoding": ACCEPTED, "User-Agent": CRAWLER, Cookie: `session=fresh-${n}` }],
    wrong: (a, [, headers]) => (a.status !== 200 ? `status ${a.status}` : carriesData(a, headers.Cookie) ? null : "without its data"),
  },
  {
    what: "a 404 (a new path each time)",
    ask: (n) => [`${baseUrl}/fr/no-such-page-${n}`, { "Accept-Encoding": ACCEPTED, "User-Agent": PERSON }],
    wrong: (a) => (a.status === 404 ? null : `status ${a.status}`),
  },
];

const asked = KINDS.map(() => []);
const until = performance.now() + forMs;
for (let n = 0; performance.now() < until; n++) {
  const kind = n % KINDS.length;
  const request = KINDS[kind].ask(n);
  asked[kind].push(
    visit(...request).then(
      (answer) => ({ answer, problem: KINDS[kind].wrong(answer, request) }),
      (error) => ({ problem: error.code ?? error.message }),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, everyMs));
}
const kinds = [];
for (const [i, { what }] of KINDS.entries()) {
  const results = await Promise.all(asked[i]);
  const firstBytes = results.filter((r) => !r.problem).map((r) => r.answer.firstByte).sort((a, b) => a - b);
  const problems = results.filter((r) => r.problem).map((r) => r.problem);
  kinds.push({ what, requests: results.length, p50: quantile(firstBytes, 0.5), max: firstBytes.at(-1) ?? null, problems: [...new Set(problems)], failed: problems.length });
}
console.log(JSON.stringify(kinds));
