// The streaming peer: Node's `http` streaming the app with React's `renderToPipeableStream`
// (bench/streaming/render.tsx, built for Node from app/), one worker per render thread of
// the host; with `compress`, through the npm `compression` middleware at its defaults
// (React flushes it after each part), with `plain`, without. It writes the host's streamed
// page: at start-up it reads the host's answer to a person for each path, and per request
// sends that document's head and headers at once (with a nonce of its own where the
// host's stood), React's markup as it comes, then the host's end around a boot state with
// the data its loader got from the same API the host calls, with the visitor's Cookie, as
// the host's loaders forward it.
// Usage: node bench/streaming/peer.mjs RENDER_CJS HOST_URL API_BASE WORKERS compress|plain PATH…
import { randomBytes } from "node:crypto";
import http from "node:http";
import { createRequire } from "node:module";
import { Writable } from "node:stream";
import compression from "compression";
import { runPeer } from "../peers/cluster.mjs";
import { bootStateOf, jsonForScript, pageHeaders, readAnswer } from "../peers/host-page.mjs";

const [renderPath, hostUrl, apiBase, workersArg, coding, ...paths] = process.argv.slice(2);
const workers = Number(workersArg);
if (!renderPath || !hostUrl || !apiBase || !Number.isInteger(workers) || workers < 1 || !["compress", "plain"].includes(coding) || paths.length === 0) {
  console.error("usage: node bench/streaming/peer.mjs RENDER_CJS HOST_URL API_BASE WORKERS compress|plain PATH…");
  process.exit(2);
}
const APP = '<div id="app">';

/** The host's streamed page for `path`, cut into what the peer sends as it is. */
async function hostPage(path) {
  const { status, headers, body } = await readAnswer(hostUrl + path);
  const nonce = headers["content-security-policy"]?.match(/'nonce-([^']+)'/)?.[1];
  if (!nonce) throw new Error(`the host's ${path} is not a streamed page (no nonce in its policy)`);
  const document = body.toString("utf8");
  const { boot, at, end } = bootStateOf(document);
  const { data: _data, ...bootWithoutData } = boot;
  const markupEnd = document.lastIndexOf("</div>", at);
  return {
    path,
    status,
    headers: pageHeaders(headers, ["content-security-policy"]),
    policy: headers["content-security-policy"].split(nonce),
    head: document.slice(0, document.indexOf(APP) + APP.length),
    boot: bootWithoutData,
    end: [document.slice(markupEnd, at), document.slice(end)],
  };
}

await runPeer({
  workers,
  prepare: () => Promise.all(paths.map(hostPage)),
  serve: (hostPages) => {
    const { streamPage } = createRequire(import.meta.url)(renderPath);
    const pages = new Map(hostPages.map((page) => [page.path, page]));
    const compress = coding === "compress" ? compression() : (_req, _res, next) => next();
    return http.createServer((req, res) =>
      compress(req, res, () => {
        const page = pages.get(new URL(req.url, "http://peer").pathname);
        if (!page) return res.writeHead(404).end("not a page this peer serves");
        // The middleware holds what is written until it is flushed; plain, it goes at once.
        const flush = () => res.flush?.();
        const nonce = randomBytes(16).toString("hex");
        res.writeHead(page.status, { ...page.headers, "content-security-policy": page.policy.join(nonce) });
        res.write(page.head);
        flush();
        streamPage(
          page.boot,
          apiBase,
          req.headers.cookie,
          nonce,
          (streaming) => {
            res.on("close", () => streaming.abort());
            const toResponse = new Writable({
              write: (chunk, _encoding, done) => (res.write(chunk) ? done() : res.once("drain", done)),
              final: (done) => {
                streaming.data.then((data) => {
                  const boot = jsonForScript(JSON.stringify({ ...page.boot, data }));
                  res.end(page.end[0] + boot + page.end[1]);
                  done();
                }, done);
              },
            });
            // React flushes its destination after each part it writes, when it can.
            toResponse.flush = flush;
            streaming.pipe(toResponse);
          },
          (error) => {
            console.error(error);
            res.destroy();
          },
        );
      }),
    );
  },
});
