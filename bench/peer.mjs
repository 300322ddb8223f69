// The peer: Node's `http` rendering OUR server bundle, one worker process per render
// thread of the host, writing the same document with the same headers as the host (the
// head from the build's manifest, absolute alternates, a fresh CSP nonce per response);
// with `compress`, through the npm `compression` middleware with its defaults, as Node
// users serve pages.
// Usage: node bench/peer.mjs BUNDLE MANIFEST WORKERS [compress|plain]
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
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

const [bundlePath, manifestPath, workersArg = "2", coding = "plain"] = process.argv.slice(2);
const workers = Number(workersArg);
if (!bundlePath || !manifestPath || !Number.isInteger(workers) || workers < 1 || !["compress", "plain"].includes(coding)) {
  console.error("usage: node bench/peer.mjs BUNDLE MANIFEST WORKERS [compress|plain]");
  process.exit(2);
}

if (cluster.isPrimary) {
  cluster.setupPrimary({ args: [bundlePath, manifestPath, workersArg, coding] });
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
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  const asset = (name) => `/assets/${name}`;
  const ogLocale = (code) => declared.languages.find((l) => l.code === code).locale.replace("-", "_");
  const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]);
  const escapeJson = (s) => s.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const compress = coding === "compress" ? compression() : (_req, _res, next) => next();
  let origin = "";
  const document = (language, rest, result, boot, nonce) => {
    const url = (code) => `${origin}/${code}${rest}`;
    const alternates = codes.map((l) => `\n<link rel="alternate" hreflang="${l}" href="${url(l)}">`).join("");
    const ogAlternates = codes.filter((l) => l !== language).map((l) => `\n<meta property="og:locale:alternate" content="${ogLocale(l)}">`).join("");
    const styles = manifest.css.map((c) => `\n<link rel="stylesheet" href="${asset(c)}">`).join("");
    const preloads = [...manifest.preload, ...(manifest.languageChunks[language] ?? [])]
      .map((c) => `\n<link rel="modulepreload" href="${asset(c)}" nonce="${nonce}">`)
      .join("");
    const title = escapeHtml(result.title);
    const description = escapeHtml(result.description);
    return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="content-language" content="${language}">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="icon" type="image/svg+xml" href="${asset(manifest.icon)}">
<link rel="canonical" href="${url(language)}">${alternates}
<link rel="alternate" hreflang="x-default" href="${origin}${rest}">
<meta property="og:type" content="website">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:locale" content="${ogLocale(language)}">${ogAlternates}
<meta property="og:url" content="${url(language)}">${styles}${preloads}
<script type="module" src="${asset(manifest.entry)}" nonce="${nonce}"></script>
</head>
<body>
<div id="app">${result.html}</div>
<script id="bilingue-boot" type="application/json" nonce="${nonce}">${escapeJson(JSON.stringify(boot))}</script>
</body>
</html>`;
  };
  const server = http.createServer((req, res) => compress(req, res, () => {
    const pathname = new URL(req.url, "http://x").pathname;
    const match = pathname.match(prefix);
    const language = match ? match[1] : declared.default;
    const rest = match ? match[2] ?? "/" : pathname;
    const boot = { language, path: rest, timeZone: "UTC" };
    // A page without a loader is done in the first outbox.
    const result = JSON.parse(render(JSON.stringify(boot), 0)).done[0].result;
    const nonce = randomBytes(16).toString("hex");
    const link = [...codes.map((l) => `<${origin}/${l}${rest}>; rel="alternate"; hreflang="${l}"`), `<${origin}${rest}>; rel="alternate"; hreflang="x-default"`].join(", ");
    const body = document(language, rest, result, boot, nonce);
    res.writeHead(result.status, {
      "content-type": "text/html; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      "content-security-policy": `default-src 'self'; script-src 'nonce-${nonce}' 'strict-dynamic' 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
      "content-language": language,
      "cache-control": "private, max-age=60",
      link,
      vary: "accept-encoding",
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-frame-options": "DENY",
    });
    res.end(body);
  }));
  server.listen(0, "127.0.0.1", () => (origin = `http://localhost:${server.address().port}`));
}
