// The API upstream the benchmark puts behind the host (`--api-upstream`) and the streaming
// peer, and how a page shows that its data came. Every call answers the same status after
// a delay; its version names the visitor's session (`Cookie: session=…`) when the call
// carried one, so a page that shows it got ITS visitor's data, forwarded by its loader.
// The generated site's calls (`/api/site/…`) get the site's data instead (bench/site/api.mjs).
import http from "node:http";
import { siteAnswer } from "./site/api.mjs";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

/** The status's version without a session; with one, this and `-SESSION`. */
export const UPSTREAM_VERSION = "bench-upstream";

/** The session a Cookie header names, if any (letters, digits and `-`). */
const sessionOf = (cookie) => cookie?.match(/(?:^|;\s*)session=([\w-]+)/)?.[1] ?? null;

/** The version the upstream answers a call carrying this Cookie header. */
export const versionFor = (cookie) => {
  const session = sessionOf(cookie);
  return session ? `${UPSTREAM_VERSION}-${session}` : UPSTREAM_VERSION;
};

/**
 * An upstream whose every call takes `delayMs`, or what `delayFor(session)` says for a
 * call of that session (`undefined`: `delayMs`). Resolves with its URL and `close`.
 */
export async function startUpstream(delayMs, { delayFor = () => undefined } = {}) {
  const server = http.createServer((req, res) => {
    const cookie = req.headers.cookie;
    const site = siteAnswer(new URL(req.url, "http://upstream").pathname);
    const body = site?.body ?? JSON.stringify({ version: versionFor(cookie), languages: ["fr", "en"], serverTime: "2026-01-01T00:00:00.000Z" });
    const send = () => res.writeHead(site?.status ?? 200, { "content-type": "application/json" }).end(body);
    const delay = delayFor(sessionOf(cookie)) ?? delayMs;
    if (delay > 0) setTimeout(send, delay);
    else send();
  });
  // The crowd's calls all come at once: the kernel must hold them until they are taken.
  await new Promise((resolve) => server.listen({ port: 0, host: "127.0.0.1", backlog: 8192 }, resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/** A body as its Content-Encoding sent it, decoded. */
export function decoded({ headers, body }) {
  const coding = headers["content-encoding"];
  return coding === "gzip" ? gunzipSync(body) : coding === "br" ? brotliDecompressSync(body) : body;
}

/**
 * Whether the data's markup came in the answer (`{ headers, body }`) of a visitor whose
 * Cookie header was `cookie`: the version the upstream gave that visitor, before the boot
 * state.
 */
export function carriesData(answer, cookie = undefined) {
  const html = decoded(answer).toString("utf8");
  const at = html.indexOf(`>${versionFor(cookie)}<`);
  return at >= 0 && at < html.indexOf('id="bilingue-boot"');
}
