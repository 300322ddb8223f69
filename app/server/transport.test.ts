import assert from "node:assert/strict";
import { test } from "node:test";
import axios, { type AxiosAdapter, type AxiosRequestConfig, type InternalAxiosRequestConfig } from "axios";
import { handedOver } from "./test-host";
import { deliver } from "./exchange";
import { JOB, transport } from "./transport";

test("the URL a loader's call goes to is the one axios's getUri gives", async () => {
  // What the transport was given, to compare with what it once sent: getUri of it.
  let given: InternalAxiosRequestConfig | undefined;
  const seeing: AxiosAdapter = (config) => {
    given = config;
    return transport(config);
  };
  const client = axios.create({ baseURL: "/api", adapter: seeing });
  const configs: AxiosRequestConfig[] = [
    { url: "status" },
    { url: "/status", params: { q: "a b&c", list: [1, 2], none: undefined } },
    { url: "search?x=1#top", params: { y: "é" } },
    { url: "items", params: { n: 2 }, paramsSerializer: (params) => `custom=${Object.keys(params).join(",")}` },
    { url: "dates", params: { at: new Date(Date.UTC(2026, 0, 5)) }, paramsSerializer: { indexes: true } },
    { url: "http://elsewhere.example/api/x" },
    { baseURL: "/api/v2/", url: "/things" },
  ];
  for (const config of configs) {
    const call = client.request({ ...config, [JOB]: 1 } as AxiosRequestConfig).catch(() => undefined);
    const fetches = handedOver().flatMap((h) => (h.op === "fetch" ? [h.call] : []));
    assert.equal(fetches.length, 1);
    assert.equal(fetches[0].url, client.getUri(config), JSON.stringify(config));
    assert.equal(fetches[0].url, axios.getUri(given), JSON.stringify(config));
    deliver([{ id: fetches[0].id, status: 204, headers: [], body: "", timedOut: false }]);
    await call;
  }
});
