// What the Node peers take from the host, so that they write the host's page and not a copy
// of it: the host's answer for a page, read raw (its status, its headers as sent, its bytes),
// and the document around the markup, cut where the peer's own render of the same bundle
// stands in it. A peer whose markup is not the host's cannot cut the host's document: it
// fails at start-up, saying so.
import { createHash } from "node:crypto";
import http from "node:http";

/** A person's browser and a crawler, as their User-Agent says: the host serves them apart. */
export const PERSON = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
export const CRAWLER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** Headers that belong to a connection or a moment, not to a page (`server-timing`: where
 * this answer's time went). */
export const PER_CONNECTION = ["date", "connection", "keep-alive", "transfer-encoding", "server-timing"];

/** GETs `url` and reads the whole answer: status, headers (lower-case names), body bytes. */
export function readAnswer(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "user-agent": PERSON, ...headers }, agent: false }, (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

/** The boot state the host wrote into its document (the JSON data block). */
const BOOT_OPEN = '<script id="bilingue-boot" type="application/json">';
export function bootStateOf(document) {
  const start = document.indexOf(BOOT_OPEN);
  const end = document.indexOf("</script>", start);
  if (start < 0 || end < 0) throw new Error(`no boot state in the host's document:\n${document}`);
  return { boot: JSON.parse(document.slice(start + BOOT_OPEN.length, end)), at: start + BOOT_OPEN.length, end };
}

/**
 * The host's document around `markup` (`<div id="app">` + markup + `</div>`): what comes
 * before it, and after. Throws when the host's document does not hold that markup.
 */
export function frameAround(document, markup, what) {
  const app = `<div id="app">${markup}</div>`;
  const at = document.indexOf(app);
  if (at < 0 || document.indexOf(app, at + 1) >= 0) {
    throw new Error(`${what}: the peer's render is not the markup of the host's document (is the peer's bundle the host's build?)\n--- host:\n${document}\n--- peer's markup:\n${markup}`);
  }
  return { before: document.slice(0, at + '<div id="app">'.length), after: document.slice(at + app.length - "</div>".length) };
}

/** The host's headers a peer sends as they are: all but those of the connection, and `except`. */
export function pageHeaders(headers, except = []) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_CONNECTION.includes(name) && !except.includes(name)));
}

/** The host's validator for exactly these bytes (host/pages/answer.rs): 128 bits of their SHA-256. */
export function validatorOf(bytes) {
  return `"${createHash("sha256").update(bytes).digest().subarray(0, 16).toString("base64url")}"`;
}

/** JSON made safe inside `<script type="application/json">`, as the host escapes it (host/pages/escape.rs). */
export function jsonForScript(json) {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
