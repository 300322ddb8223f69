// The peer: Node's `http` rendering OUR server bundle, one worker process per render
// thread of the host, writing the same document; with `compress`, through the npm
// `compression` middleware with its defaults, as Node users serve pages.
// Usage: node bench/peer.mjs BUNDLE WORKERS [compress|plain]
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import compression from "compression";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const declared = JSON.parse(readFileSync(path.join(root, "app/i18n/languages.json"), "utf8"));
const codes = declared.languages.map((l) => l.code);
const prefix = new RegExp(`^/(${codes.join("|")})(/.*)?$`);

const [bundlePath, workersArg = "2", coding = "plain"] = process.argv.slice(2);
const workers = Number(workersArg);

if (cluster.isPrimary) {
  cluster.setupPrimary({ args: [bundlePath, workersArg, coding] });
  let listening = 0;
  cluster.on("listening", (_worker, address) => {
    if (++listening === workers) console.log(`peer listening on http://127.0.0.1:${address.port}`);
  });
  // Workers that all listen on port 0 share the one port the primary picks for them.
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers)) worker.kill();
    process.exit(0);
  });
} else {
  vm.runInThisContext(readFileSync(bundlePath, "utf8"), { filename: "server.js" });
  const render = globalThis.bilingueRender;
  const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const escapeJson = (s) => s.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const compress = coding === "compress" ? compression() : (_req, _res, next) => next();
  http
    .createServer((req, res) => compress(req, res, () => {
      const pathname = new URL(req.url, "http://x").pathname;
      const match = pathname.match(prefix);
      const language = match ? match[1] : declared.default;
      const rest = match ? match[2] ?? "/" : pathname;
      const boot = { language, path: rest, timeZone: "UTC" };
      // A page without a loader is done in the first outbox.
      const result = JSON.parse(render(JSON.stringify(boot), 0)).done[0].result;
      const alternates = codes.map((l) => `<link rel="alternate" hreflang="${l}" href="/${l}${rest}">`).join("");
      const body = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta http-equiv="content-language" content="${language}"><title>${escapeHtml(result.title)}</title>${alternates}<link rel="alternate" hreflang="x-default" href="${rest}"></head><body><div id="app">${result.html}</div><script id="bilingue-boot" type="application/json">${escapeJson(JSON.stringify(boot))}</script></body></html>`;
      res.writeHead(result.status, { "content-type": "text/html; charset=utf-8", "content-language": language });
      res.end(body);
    }))
    .listen(0, "127.0.0.1");
}
