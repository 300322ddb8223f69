// One visitor's page, asked over a connection of its own (raw TCP, HTTP/1.1, keep-alive as
// browsers ask) and timed from the moment it starts to connect: to the first byte of the
// body, and to its end. Raw sockets and not node:http: thousands of them at once cost this
// process little, so what is timed is the server.
import net from "node:net";

/** Gives up on an answer after this long (a host that never answers must not hang the run). */
const GIVE_UP_MS = 30_000;

/** A reader of a chunked body: fed the bytes as they come, it hands on the data; true at its end. */
function chunked() {
  let pending = Buffer.alloc(0);
  let remaining = 0;
  let state = "size";
  return (input, onData) => {
    pending = pending.length > 0 ? Buffer.concat([pending, input]) : input;
    for (;;) {
      if (state === "size" || state === "trailer") {
        const eol = pending.indexOf("\r\n");
        if (eol < 0) return false;
        const line = pending.subarray(0, eol).toString("latin1");
        pending = pending.subarray(eol + 2);
        if (state === "trailer") {
          if (line === "") return true;
          continue;
        }
        const size = Number.parseInt(line.split(";")[0], 16);
        if (Number.isNaN(size)) throw new Error(`not a chunk size: ${JSON.stringify(line)}`);
        [state, remaining] = size === 0 ? ["trailer", 0] : ["data", size];
      } else if (state === "data") {
        if (pending.length === 0) return false;
        const data = pending.subarray(0, remaining);
        pending = pending.subarray(data.length);
        remaining -= data.length;
        onData(data);
        if (remaining === 0) state = "crlf";
      } else {
        if (pending.length < 2) return false;
        pending = pending.subarray(2);
        state = "size";
      }
    }
  };
}

/**
 * GETs `url` with `headers` (an object) on a new connection, from `from` (a local address:
 * a visitor of its own, `127.0.x.y` on loopback) when given. Resolves with its status,
 * headers (lower-case names), body (as sent: not decoded) and the times in ms from the
 * start of the connection: `firstByte` (of the body) and `whole`; rejects on a failure.
 */
export function visit(url, headers, from) {
  const { hostname, port, pathname, search } = new URL(url);
  const lines = [`GET ${pathname}${search} HTTP/1.1`, `Host: ${hostname}:${port}`, "Connection: keep-alive"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const request = `${lines.join("\r\n")}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect({ host: hostname, port: Number(port), ...(from ? { localAddress: from } : {}) });
    socket.setNoDelay(true);
    const timer = setTimeout(() => fail(new Error(`no whole answer in ${GIVE_UP_MS} ms`)), GIVE_UP_MS);
    let head = Buffer.alloc(0);
    let answer = null;
    let readBody = null;
    const chunks = [];
    let firstByte;
    const fail = (error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...answer, body: Buffer.concat(chunks), firstByte, whole: performance.now() - started });
    };
    const onData = (data) => {
      if (data.length === 0) return;
      firstByte ??= performance.now() - started;
      chunks.push(data);
    };
    socket.on("connect", () => socket.write(request));
    socket.on("data", (input) => {
      try {
        if (!answer) {
          head = Buffer.concat([head, input]);
          const end = head.indexOf("\r\n\r\n");
          if (end < 0) return;
          const [statusLine, ...fields] = head.subarray(0, end).toString("latin1").split("\r\n");
          const headersOut = {};
          for (const field of fields) {
            const colon = field.indexOf(":");
            headersOut[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
          }
          answer = { status: Number(statusLine.split(" ")[1]), headers: headersOut };
          input = head.subarray(end + 4);
          if (headersOut["transfer-encoding"]?.includes("chunked")) {
            const reader = chunked();
            readBody = (bytes) => reader(bytes, onData);
          } else if (headersOut["content-length"] !== undefined) {
            let remaining = Number(headersOut["content-length"]);
            readBody = (bytes) => {
              onData(bytes.subarray(0, remaining));
              remaining -= Math.min(remaining, bytes.length);
              return remaining === 0;
            };
          } else {
            readBody = (bytes) => (onData(bytes), false);
          }
        }
        if (readBody(input)) finish();
      } catch (error) {
        fail(error);
      }
    });
    socket.on("end", () => (answer && !answer.headers["content-length"] && !answer.headers["transfer-encoding"] ? finish() : fail(new Error("the connection closed mid-answer"))));
    socket.on("error", fail);
  });
}
