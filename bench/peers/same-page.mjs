// The checks that each peer writes the host's page, before any row compares them: the same
// status, bytes and headers, but those of the connection (asked plain, so that neither
// compresses). A streamed page carries a nonce of its own per response: each side's, which
// its policy names, is set aside; every other byte must be the host's.
import { PER_CONNECTION, readAnswer } from "./host-page.mjs";

/** The parts of an answer that must be the host's, as text. */
function comparable({ status, headers, body }, nonce = null) {
  const withoutNonce = (text) => (nonce ? text.split(nonce).join("{nonce}") : text);
  const kept = Object.entries(headers)
    .filter(([name]) => !PER_CONNECTION.includes(name))
    .map(([name, value]) => `${name}: ${withoutNonce(String(value))}`)
    .sort();
  return { status: String(status), headers: kept.join("\n"), body: withoutNonce(body.toString("utf8")) };
}

/** The nonce an answer's policy names. */
const nonceOf = (answer) => answer.headers["content-security-policy"]?.match(/'nonce-([^']+)'/)?.[1] ?? null;

function expectSame(what, ours, theirs) {
  for (const part of ["status", "headers", "body"]) {
    if (ours[part] !== theirs[part]) {
      throw new Error(`${what}: the peer does not write the host's page (${part}):\n${ours[part]}\n--- the peer's:\n${theirs[part]}`);
    }
  }
}

/** Throws unless `peerUrl` answers exactly what `hostUrl` does. */
export async function expectHostsPage(hostUrl, peerUrl) {
  expectSame(peerUrl, comparable(await readAnswer(hostUrl)), comparable(await readAnswer(peerUrl)));
}

/**
 * Throws unless the streamed page at `peerUrl` is the host's at `hostUrl`, each with its own
 * nonce, both asked with `headers` (a visitor's Cookie, say).
 */
export async function expectHostsStreamedPage(hostUrl, peerUrl, headers = {}) {
  const [ours, theirs] = await Promise.all([readAnswer(hostUrl, headers), readAnswer(peerUrl, headers)]);
  for (const [who, answer] of [["the host", ours], ["the peer", theirs]]) {
    if (!nonceOf(answer)) throw new Error(`${who} did not stream ${hostUrl}: no nonce in its policy`);
  }
  expectSame(peerUrl, comparable(ours, nonceOf(ours)), comparable(theirs, nonceOf(theirs)));
}
