// Time to first byte of pages that wait for slow data: requests that start one after
// another at a steady pace (a page view every `everyMs`, whatever the answers take, as
// visitors arrive), each timed from the moment it is sent to the first byte of its body
// and to its end, over keep-alive connections, asking as browsers ask.
import http from "node:http";

/** The value at quantile `q` of sorted `values` (nearest rank). */
export function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Sends one request and times it: the first byte of its body, its end, and its body. */
function timed(url, headers, agent) {
  return new Promise((resolve, reject) => {
    const sent = performance.now();
    let firstByte;
    const chunks = [];
    http
      .get(url, { headers, agent }, (response) => {
        response.on("data", (chunk) => {
          firstByte ??= performance.now() - sent;
          chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({ status: response.statusCode, headers: response.headers, firstByte, whole: performance.now() - sent, body: Buffer.concat(chunks) }),
        );
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

/**
 * `count` requests to `url`, one every `everyMs`; resolves with each one's timings (ms),
 * status, headers and body, in the order they were sent.
 */
export async function paced(url, { count, everyMs, headers }) {
  const agent = new http.Agent({ keepAlive: true });
  const answers = [];
  for (let i = 0; i < count; i++) {
    answers.push(timed(url, headers, agent));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  const settled = await Promise.allSettled(answers);
  agent.destroy();
  return settled.map((s) => (s.status === "fulfilled" ? s.value : { error: s.reason.code ?? s.reason.message }));
}

/** Median, p99 and slowest of the first bytes and of the whole answers; the failures, counted. */
export function summarise(answers) {
  const ok = answers.filter((a) => !a.error && a.status === 200);
  const sorted = (key) => ok.map((a) => a[key]).sort((a, b) => a - b);
  const [firstBytes, wholes] = [sorted("firstByte"), sorted("whole")];
  return {
    requests: answers.length,
    failed: answers.length - ok.length,
    firstByte: { p50: quantile(firstBytes, 0.5), p99: quantile(firstBytes, 0.99), max: firstBytes.at(-1) },
    whole: { p50: quantile(wholes, 0.5), p99: quantile(wholes, 0.99), max: wholes.at(-1) },
  };
}
