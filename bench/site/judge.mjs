// The arithmetic of the real-size site's gates (bench/site/bench.mjs), kept apart and pure
// so that every run, the smoke included, first checks it on figures whose answer is known
// (`checkArithmetic`): a gate that sums, subtracts or compares wrongly would pass unseen.
import assert from "node:assert/strict";

/** The middle value (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The page with the most first-load bytes: [{ page, bytes, files }] → that entry. */
export function largest(loads) {
  if (loads.length === 0) throw new Error("no page was measured");
  return loads.reduce((most, load) => (load.bytes > most.bytes ? load : most));
}

/**
 * How much the largest first load grew from the small site to the full one (whichever page
 * is the largest on each): { bytes, from, to } (from and to: each site's largest entry).
 */
export function largestGrowth(small, full) {
  const [from, to] = [largest(small), largest(full)];
  return { bytes: to.bytes - from.bytes, from, to };
}

/**
 * How much each page's first load grew from the small site to the full one (the same
 * routes in the same languages): the page that grew most, { page, bytes, from, to }.
 * A page measured on one site and not on the other is a mistake of the harness.
 */
export function mostGrowth(small, full) {
  const before = new Map(small.map((load) => [load.page, load.bytes]));
  if (before.size !== full.length) throw new Error(`the two sites have ${before.size} and ${full.length} pages: they must have the same routes and languages`);
  let most = null;
  for (const { page, bytes } of full) {
    if (!before.has(page)) throw new Error(`${page} is on the full site only`);
    const grown = { page, bytes: bytes - before.get(page), from: before.get(page), to: bytes };
    if (!most || grown.bytes > most.bytes) most = grown;
  }
  return most;
}

/**
 * Whether memory stayed flat in the last half of a crawl: samples [{ done, rss }] (pages
 * crawled when read, RSS in MB), of a crawl of `total` pages. The last half is the samples
 * read once half the pages were crawled; its spread is its highest minus its lowest.
 */
export function lastHalf(samples, total) {
  const half = samples.filter(({ done }) => done >= total / 2);
  if (half.length < 2) return { samples: half.length, max: NaN, min: NaN, spread: NaN };
  const values = half.map(({ rss }) => rss);
  const max = Math.max(...values);
  const min = Math.min(...values);
  return { samples: half.length, max, min, spread: max - min };
}

/** Requests a second of one contender ÷ another's. */
export const ratio = (ours, theirs) => ours.rps / theirs.rps;

/** The contender's middle round by requests a second: [{ rps, … }] → that round. */
export const middleRound = (rounds) => [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)];

/** Checks the functions above on figures whose answer is known; throws on the first wrong one. */
export function checkArithmetic() {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 3);
  const small = [
    { page: "/fr/", bytes: 70_000 },
    { page: "/fr/monde", bytes: 71_000 },
    { page: "/en/", bytes: 69_000 },
  ];
  const full = [
    { page: "/fr/", bytes: 70_500 },
    { page: "/fr/monde", bytes: 74_100 },
    { page: "/en/", bytes: 68_000 },
  ];
  assert.deepEqual(largest(full), { page: "/fr/monde", bytes: 74_100 });
  assert.deepEqual(largestGrowth(small, full), { bytes: 3_100, from: { page: "/fr/monde", bytes: 71_000 }, to: { page: "/fr/monde", bytes: 74_100 } });
  assert.equal(largestGrowth([{ page: "/fr/", bytes: 9 }, { page: "/en/", bytes: 5 }], [{ page: "/fr/", bytes: 8 }, { page: "/en/", bytes: 12 }]).bytes, 3);
  assert.deepEqual(mostGrowth(small, full), { page: "/fr/monde", bytes: 3_100, from: 71_000, to: 74_100 });
  assert.throws(() => mostGrowth(small, full.slice(1)), /same routes/);
  assert.throws(() => mostGrowth(small, [...full.slice(1), { page: "/ar/", bytes: 1 }]), /full site only/);
  // 10 pages crawled: the last half is read from the sample at 5 pages on.
  const samples = [0, 2, 4, 5, 7, 10].map((done, i) => ({ done, rss: [90, 140, 150, 152, 149, 155][i] }));
  assert.deepEqual(lastHalf(samples, 10), { samples: 3, max: 155, min: 149, spread: 6 });
  assert.ok(Number.isNaN(lastHalf(samples.slice(0, 4), 10).spread), "one sample is no judgement of flatness");
  assert.equal(ratio({ rps: 3000 }, { rps: 1000 }), 3);
  assert.deepEqual(middleRound([{ rps: 5 }, { rps: 9 }, { rps: 7 }]), { rps: 7 });
}
