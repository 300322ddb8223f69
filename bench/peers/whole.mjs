// The whole-page peer: Node's `http` rendering OUR server bundle, one worker process per
// render thread of the host, and writing the host's page: at start-up it reads the host's
// answer for each path it serves, and per request writes that document, with those
// headers, around the markup it renders itself (a content length and a validator of its
// own, as the host computes them). With `compress`, it answers through the npm
// `compression` middleware at its defaults, as Node users serve pages.
// Usage: node bench/peers/whole.mjs BUNDLE HOST_URL WORKERS compress|plain PATH…
import { readFileSync } from "node:fs";
import http from "node:http";
import vm from "node:vm";
import compression from "compression";
import { runPeer } from "./cluster.mjs";
import { bootStateOf, frameAround, pageHeaders, readAnswer, validatorOf } from "./host-page.mjs";

const [bundlePath, hostUrl, workersArg, coding, ...paths] = process.argv.slice(2);
const workers = Number(workersArg);
if (!bundlePath || !hostUrl || !Number.isInteger(workers) || workers < 1 || !["compress", "plain"].includes(coding) || paths.length === 0) {
  console.error("usage: node bench/peers/whole.mjs BUNDLE HOST_URL WORKERS compress|plain PATH…");
  process.exit(2);
}

await runPeer({
  workers,
  // The host's page, plain (no Accept-Encoding), for each path.
  prepare: () =>
    Promise.all(
      paths.map(async (path) => {
        const { status, headers, body } = await readAnswer(hostUrl + path);
        if (status !== 200) throw new Error(`the host answers ${path} with ${status}`);
        return { path, headers, document: body.toString("utf8") };
      }),
    ),
  serve: async (hostPages) => {
    // The host's ops, as a host has them (app/contract.ts, HostOps): the page a render
    // hands over is kept for the answer, the console's lines printed.
    let rendered = null;
    const ops = {
      op_bilingue_rendered: (_job, html, result) => (rendered = { ...JSON.parse(result), html }),
      op_bilingue_failed: (_job, why) => {
        throw new Error(why);
      },
      op_bilingue_log: (level, message) => process.stderr.write(`[${level}] ${message}\n`),
    };
    globalThis.Deno = { core: { ops } };
    vm.runInThisContext(readFileSync(bundlePath, "utf8"), { filename: "server.js" });
    const render = globalThis.bilingueRender;
    /** The host's render request (`RenderRequest`, app/contract.ts) for a page rendered whole. */
    const requestFor = (boot) => JSON.stringify({ boot, streamNonce: null, shell: { kind: "none" } });
    // A page without a loader is handed over within the call once its screen's module is
    // there; a lazy screen's first render waits a microtask for it (app/server.tsx), so
    // each page is rendered once first, and handed over after that wait.
    for (const { document } of hostPages) {
      rendered = null;
      render(requestFor(bootStateOf(document).boot), 0);
      if (rendered === null) await new Promise((resolve) => setImmediate(resolve));
      if (rendered === null) throw new Error("a page without a loader did not finish once its screen's module was there");
    }
    const renderPage = (boot) => {
      rendered = null;
      render(requestFor(boot), 0);
      return rendered;
    };
    const pages = new Map(
      hostPages.map(({ path, headers, document }) => {
        const { boot } = bootStateOf(document);
        const { before, after } = frameAround(document, renderPage(boot).html, path);
        const validated = "etag" in headers;
        return [path, { boot, before, after, validated, headers: pageHeaders(headers, ["content-length", "etag"]) }];
      }),
    );
    const compress = coding === "compress" ? compression() : (_req, _res, next) => next();
    return http.createServer((req, res) =>
      compress(req, res, () => {
        const page = pages.get(new URL(req.url, "http://peer").pathname);
        if (!page) return res.writeHead(404).end("not a page this peer serves");
        const result = renderPage(page.boot);
        const body = Buffer.from(page.before + result.html + page.after);
        const own = { "content-length": body.length, ...(page.validated ? { etag: validatorOf(body) } : {}) };
        res.writeHead(result.status, { ...page.headers, ...own });
        res.end(body);
      }),
    );
  },
});
