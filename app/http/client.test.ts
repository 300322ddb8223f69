// The shared client against a real local HTTP server: one test per catalogue row, setter
// and interceptor.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import http, { API_BASE_PATH, type ApiError, createHttpClient } from "./client";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const routes: Record<string, Handler> = {
  "/api/echo": (req, res, body) => json(res, 200, { method: req.method, url: req.url, headers: req.headers, body }),
  "/api/error-field": (_req, res) => json(res, 422, { error: "Le nom est requis", field: "name" }),
  "/api/string-body": (_req, res) => text(res, 409, "conflit de version"),
  "/api/empty-body": (_req, res) => text(res, 404, ""),
  "/api/object-without-error": (_req, res) => json(res, 403, { reason: "interdit" }),
  "/api/empty-error-string-body": (_req, res) => json(res, 400, { error: "" }),
  "/api/server-error": (_req, res) => json(res, 503, { error: "maintenance" }),
  "/api/slow": (_req, res) => setTimeout(() => json(res, 200, {}), 2000),
};
function json(res: ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}
function text(res: ServerResponse, status: number, value: string) {
  res.writeHead(status, { "content-type": "text/plain" }).end(value);
}

let server: Server;
let origin: string;
before(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => (routes[(req.url ?? "").split("?")[0]] ?? ((_q, r) => json(r, 404, { error: "nope" })))(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const client = () => createHttpClient({ baseURL: `${origin}${API_BASE_PATH}` });
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("the call was expected to fail");
}

test("the defaults: base path /api, time-out 10 minutes", async () => {
  const seen: { baseURL?: string; timeout?: number }[] = [];
  const remove = http.addRequestInterceptor((config) => {
    seen.push({ baseURL: config.baseURL, timeout: config.timeout });
    throw new Error("stop here");
  });
  await failure(http.get("/status"));
  remove();
  assert.deepEqual(seen, [{ baseURL: "/api", timeout: 600_000 }]);
});

test("calls resolve with the response body, with every method", async () => {
  const c = client();
  assert.equal(((await c.get("/echo?x=1")) as { url: string }).url, "/api/echo?x=1");
  assert.equal(((await c.delete("/echo")) as { method: string }).method, "DELETE");
  for (const method of ["post", "put", "patch"] as const) {
    const answer = (await c[method]("/echo", { n: 1 })) as { method: string; body: string };
    assert.equal(answer.method, method.toUpperCase());
    assert.equal(answer.body, '{"n":1}');
  }
  assert.equal(((await c.request({ url: "/echo", method: "get" })) as { method: string }).method, "GET");
});

test("detail is the body's error field, data the body", async () => {
  const error = await failure(client().post("/error-field", {}));
  assert.deepEqual(error, {
    message: "Request failed with status code 422",
    detail: "Le nom est requis",
    data: { error: "Le nom est requis", field: "name" },
    status: 422,
  });
});

test("detail is the body when the body is a non-empty string; data is then empty", async () => {
  const error = await failure(client().get("/string-body"));
  assert.deepEqual(error, { message: "Request failed with status code 409", detail: "conflit de version", data: {}, status: 409 });
});

test("an empty body gives an empty detail", async () => {
  const error = await failure(client().get("/empty-body"));
  assert.deepEqual(error, { message: "Request failed with status code 404", detail: "", data: {}, status: 404 });
});

test("an object body without an error field gives an empty detail and the object as data", async () => {
  const error = await failure(client().get("/object-without-error"));
  assert.deepEqual(error, { message: "Request failed with status code 403", detail: "", data: { reason: "interdit" }, status: 403 });
});

test("an empty error field gives an empty detail", async () => {
  const error = await failure(client().get("/empty-error-string-body"));
  assert.equal(error.detail, "");
  assert.deepEqual(error.data, { error: "" });
});

test("no response (connection refused) is status 400", async () => {
  const c = createHttpClient({ baseURL: "http://127.0.0.1:1/api" });
  const error = await failure(c.get("/x"));
  assert.equal(error.status, 400);
  assert.equal(error.detail, "");
  assert.deepEqual(error.data, {});
  assert.ok(error.message.length > 0);
});

test("a time-out is status 400 with the client's own message", async () => {
  const error = await failure(client().get("/slow", { timeout: 100 }));
  assert.deepEqual(error, { message: "timeout of 100ms exceeded", detail: "", data: {}, status: 400 });
});

test("an aborted call is status 400", async () => {
  const controller = new AbortController();
  const pending = client().get("/slow", { signal: controller.signal });
  controller.abort();
  const error = await failure(pending);
  assert.equal(error.status, 400);
  assert.equal(error.message, "canceled");
});

test("status 500 or above logs the error and the request configuration", async (t) => {
  const logged: unknown[][] = [];
  t.mock.method(console, "error", (...args: unknown[]) => logged.push(args));
  const error = await failure(client().get("/server-error"));
  assert.equal(error.status, 503);
  assert.equal(error.detail, "maintenance");
  assert.equal(logged.length, 1);
  assert.equal((logged[0][0] as Error).message, "Request failed with status code 503");
  assert.equal((logged[0][1] as { url: string }).url, "/server-error");
});

test("status below 500 logs nothing", async (t) => {
  const logged: unknown[] = [];
  t.mock.method(console, "error", (...args: unknown[]) => logged.push(args));
  await failure(client().get("/error-field"));
  assert.equal(logged.length, 0);
});

test("setBaseURL changes where calls go", async () => {
  const c = createHttpClient();
  c.setBaseURL(`${origin}/api`);
  assert.equal(((await c.get("/echo")) as { url: string }).url, "/api/echo");
});

test("setHeader sends the header on every call", async () => {
  const c = client();
  c.setHeader("X-Trace", "abc");
  const answer = (await c.get("/echo")) as { headers: Record<string, string> };
  assert.equal(answer.headers["x-trace"], "abc");
});

test("setAuthorization sets the token, with or without a scheme, and an empty value removes it", async () => {
  const c = client();
  const authorization = async () => ((await c.get("/echo")) as { headers: Record<string, string> }).headers.authorization;
  c.setAuthorization("t0k3n");
  assert.equal(await authorization(), "t0k3n");
  c.setAuthorization("t0k3n", "Bearer");
  assert.equal(await authorization(), "Bearer t0k3n");
  c.setAuthorization("");
  assert.equal(await authorization(), undefined);
});

test("a request interceptor sees the configuration and can change it; removing it stops it", async () => {
  const c = client();
  let seen: { url?: string; method?: string; baseURL?: string; timeout?: number } = {};
  const remove = c.addRequestInterceptor((config) => {
    seen = { url: config.url, method: config.method, baseURL: config.baseURL, timeout: config.timeout };
    config.headers.set("X-From-Interceptor", "yes");
    return config;
  });
  const answer = (await c.get("/echo")) as { headers: Record<string, string> };
  assert.deepEqual(seen, { url: "/echo", method: "get", baseURL: `${origin}/api`, timeout: 600_000 });
  assert.equal(answer.headers["x-from-interceptor"], "yes");
  remove();
  const after = (await c.get("/echo")) as { headers: Record<string, string> };
  assert.equal(after.headers["x-from-interceptor"], undefined);
});

test("a response interceptor can change the response, and its rejection handler sees failures", async () => {
  const c = client();
  const failures: number[] = [];
  const remove = c.addResponseInterceptor(
    (response) => ({ ...response, data: { wrapped: response.data } }),
    (error) => {
      failures.push((error as { response: { status: number } }).response.status);
      return Promise.reject(error);
    },
  );
  assert.ok(((await c.get("/echo")) as { wrapped: unknown }).wrapped);
  const error = await failure(c.get("/error-field"));
  assert.equal(error.detail, "Le nom est requis", "the catalogue object still comes out");
  assert.deepEqual(failures, [422]);
  remove();
  assert.equal(((await c.get("/echo")) as { wrapped?: unknown }).wrapped, undefined);
});

test("toApiError leaves a catalogue object as it is", async () => {
  const { toApiError } = await import("./client");
  const error = await failure(client().get("/error-field"));
  assert.equal(toApiError(error), error);
});
