// The HTTP proxy between the browser and the site under test, the same for every engine.
// It records what the browser asks and which documents it gets, lets a scenario hold,
// fail, answer or rewrite chosen requests, collects the Content-Security-Policy violation
// reports the browser sends, and can pause a document before its first script (see
// `holdNextDocument`). A page's body reaches the browser as the site wrote it; only its
// transfer changes: documents are sent decoded (the proxy reads them whole to record
// them), and every policy gets a `report-uri` pointing back here. Every engine asks in the same
// language, whatever the machine's locale: a browser's Accept-Language decides where `/` leads.
import http from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";

const REPORT_PATH = "/__e2e/csp-report";
const DECODERS = { br: promisify(zlib.brotliDecompress), gzip: promisify(zlib.gunzip), deflate: promisify(zlib.inflate) };
// Headers that describe one hop, not the answer.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"]);
// What a French visitor's browser sends; the engines' own value follows the machine's locale.
export const BROWSER_LANGUAGE = "fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7";

/**
 * @typedef {{ method: string, path: string, status: number | null }} Request
 * @typedef {{ path: string, status: number, headers: Record<string, string>, text: string }} ServedDocument
 * @typedef {{ status?: number, type?: string, body?: string }} Answer
 * @typedef {{
 *   path: string,
 *   forward: (options?: { rewrite?: (html: string) => string }) => Promise<void>,
 *   fail: () => void,
 *   fulfill: (answer: Answer) => void,
 *   clientGone: Promise<void>,
 * }} InterceptedRequest
 */

/** Starts a proxy in front of `upstream` (a base URL); resolves once it listens. */
export async function startProxy(upstream) {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  /** @type {Request[]} */
  const requests = [];
  /** @type {string[]} */
  const reports = [];
  /** @type {ServedDocument[]} */
  const documents = [];
  /** @type {{ pattern: RegExp, handle: (intercepted: InterceptedRequest) => unknown }[]} */
  let interceptors = [];
  /** @type {null | { arrived: () => void, released: Promise<void> }} */
  let documentHold = null;
  let inFlight = 0;
  let lastActivity = Date.now();

  /** Sends `request` to the site; answers `response` with what comes back. */
  function forward(request, response, record, { rewrite = (/** @type {string} */ html) => html } = {}, retried = false) {
    return new Promise((resolve, reject) => {
      const headers = { ...request.headers, host: target.host, "accept-language": BROWSER_LANGUAGE };
      const upstreamRequest = http.request(
        { host: target.hostname, port: target.port, method: request.method, path: request.url, headers, agent },
        async (answer) => {
          try {
            record.status = answer.statusCode ?? 0;
            const out = Object.fromEntries(
              Object.entries(answer.headers).filter(([name, value]) => !HOP_BY_HOP.has(name) && value !== undefined),
            );
            const policy = answer.headers["content-security-policy"];
            if (policy) out["content-security-policy"] = `${policy}; report-uri ${REPORT_PATH}`;
            if (!String(answer.headers["content-type"] ?? "").startsWith("text/html")) {
              if (String(answer.headers["content-type"] ?? "").startsWith("text/event-stream")) streamStarted(record);
              response.writeHead(record.status, out);
              answer.pipe(response);
              answer.on("end", resolve);
              answer.on("error", reject);
              return;
            }
            const chunks = [];
            for await (const chunk of answer) chunks.push(chunk);
            const encoding = answer.headers["content-encoding"];
            const raw = Buffer.concat(chunks);
            const decoded = encoding ? await DECODERS[/** @type {keyof DECODERS} */ (encoding)](raw) : raw;
            const text = rewrite(decoded.toString("utf8"));
            documents.push({
              path: request.url ?? "",
              status: record.status,
              headers: /** @type {Record<string, string>} */ (answer.headers),
              text,
            });
            const body = Buffer.from(text, "utf8");
            delete out["content-encoding"];
            out["content-length"] = String(body.length);
            response.writeHead(record.status, out);
            const hold = documentHold;
            documentHold = null;
            if (hold && request.method === "GET") {
              // Up to its first script: the document exists, and none of its scripts has run.
              const cut = Math.max(0, body.toString("latin1").search(/<script/i));
              response.write(body.subarray(0, cut));
              hold.arrived();
              await hold.released;
              response.end(body.subarray(cut));
            } else {
              response.end(body);
            }
            resolve(undefined);
          } catch (error) {
            reject(error);
          }
        },
      );
      upstreamRequest.on("error", (error) => {
        // A kept connection the site closed as idle just as this request took it: the
        // request never reached the site, and a browser would send it again. Once.
        const resent = upstreamRequest.reusedSocket && /** @type {NodeJS.ErrnoException} */ (error).code === "ECONNRESET";
        if (resent && !retried && (request.method === "GET" || request.method === "HEAD")) {
          forward(request, response, record, { rewrite }, true).then(resolve, reject);
        } else {
          reject(error);
        }
      });
      request.pipe(upstreamRequest);
    });
  }

  /** A server-sent event stream stays open for good: it does not keep the network busy. */
  function streamStarted(record) {
    if (record.streaming) return;
    record.streaming = true;
    inFlight -= 1;
  }

  async function collectReport(request, response) {
    let body = "";
    for await (const chunk of request) body += chunk;
    try {
      const report = JSON.parse(body)["csp-report"] ?? {};
      const directive = report["effective-directive"] ?? report["violated-directive"];
      reports.push(`csp report: ${directive} ${report["blocked-uri"]} on ${new URL(report["document-uri"]).pathname}`);
    } catch {
      reports.push(`csp report (unreadable): ${body}`);
    }
    response.writeHead(204).end();
  }

  const server = http.createServer(async (request, response) => {
    if (request.url === REPORT_PATH && request.method === "POST") return collectReport(request, response);
    /** @type {Request & { streaming?: boolean }} */
    const record = { method: request.method ?? "GET", path: request.url ?? "/", status: null };
    requests.push(record);
    inFlight += 1;
    lastActivity = Date.now();
    response.on("close", () => {
      if (!record.streaming) inFlight -= 1;
      lastActivity = Date.now();
    });
    /** @type {InterceptedRequest} */
    const intercepted = {
      path: record.path,
      forward: (options) => forward(request, response, record, options),
      fail: () => {
        record.status = 0;
        request.socket.destroy();
      },
      fulfill: ({ status = 200, type = "text/plain", body = "" }) => {
        record.status = status;
        response.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) }).end(body);
      },
      // Settles when the client gives up on the request (an aborted call) before its answer ends.
      clientGone: new Promise((resolve) => response.on("close", () => !response.writableFinished && resolve(undefined))),
    };
    try {
      const interceptor = interceptors.find(({ pattern }) => pattern.test(record.path));
      await (interceptor ? interceptor.handle(intercepted) : intercepted.forward());
    } catch {
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());

  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    /** A position in the proxy's records, to read only what came after it. */
    mark: () => ({ requests: requests.length, reports: reports.length, documents: documents.length }),
    requestsSince: (/** @type {{ requests: number }} */ mark) => requests.slice(mark.requests),
    reportsSince: (/** @type {{ reports: number }} */ mark) => reports.slice(mark.reports),
    documentsSince: (/** @type {{ documents: number }} */ mark) => documents.slice(mark.documents),
    /** Lets `handle` answer the requests whose path matches `pattern`; returns its removal. */
    intercept(/** @type {RegExp} */ pattern, /** @type {(intercepted: InterceptedRequest) => unknown} */ handle) {
      const entry = { pattern, handle };
      interceptors = [entry, ...interceptors];
      return () => {
        interceptors = interceptors.filter((e) => e !== entry);
      };
    },
    /**
     * The next document the browser gets stops before its first script until `release()`:
     * the page exists and none of its scripts has run. For an engine whose driver cannot
     * run a script before the page's.
     */
    holdNextDocument() {
      /** @type {() => void} */
      let release = () => {};
      /** @type {() => void} */
      let arrived = () => {};
      const released = new Promise((resolve) => (release = () => resolve(undefined)));
      const arrival = new Promise((resolve) => (arrived = () => resolve(undefined)));
      const hold = { arrived, released };
      documentHold = hold;
      return {
        arrival,
        release,
        cancel: () => {
          if (documentHold === hold) documentHold = null;
          release();
        },
      };
    },
    /** Resolves once no request has been under way for `quietMs` (as Playwright's "networkidle"). */
    async idle(quietMs = 500, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (inFlight > 0 || Date.now() - lastActivity < quietMs) {
        if (Date.now() > until) throw new Error(`the network stayed busy for ${timeoutMs} ms (${inFlight} under way)`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

/** @typedef {Awaited<ReturnType<typeof startProxy>>} Proxy */
