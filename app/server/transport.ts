// The shared client's transport in the server render: each call goes to the host, which
// answers it from its own /api (built in, or the upstream) with the visitor's Cookie,
// Authorization and Accept-Language, and refuses any URL outside /api. A call belongs to
// the page being rendered (the `job` the loader's client carries).
import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse } from "axios";
import buildFullPath from "axios/unsafe/core/buildFullPath.js";
import buildURL from "axios/unsafe/helpers/buildURL.js";
import { callHost } from "./exchange";

/** The request config field that names the page a call belongs to. */
export const JOB = "bilingueJob";

export const transport: AxiosAdapter = async (config) => {
  const job = (config as unknown as Record<string, unknown>)[JOB];
  if (typeof job !== "number") {
    throw new AxiosError("in the server render, only a route's loader may call the API", AxiosError.ERR_BAD_REQUEST, config);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(AxiosHeaders.from(config.headers).toJSON())) {
    if (value !== undefined && value !== null) headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  const body = config.data === undefined || config.data === null ? null : String(config.data);
  const answer = await callHost(job, {
    method: (config.method ?? "get").toUpperCase(),
    // The whole URL as axios builds it (base URL, path, query): the host checks it. What
    // `axios.getUri` does, less its merge of the config with axios's defaults, done already
    // by the time the transport has it: that second merge was ~12% of a visitor's page.
    url: buildURL(buildFullPath(config.baseURL, config.url, config.allowAbsoluteUrls, config), config.params, config.paramsSerializer),
    headers,
    body,
  });
  if (answer.error !== undefined || answer.status === undefined) {
    const code = answer.timedOut ? AxiosError.ECONNABORTED : AxiosError.ERR_NETWORK;
    throw new AxiosError(answer.error ?? "no answer", code, config);
  }
  const response: AxiosResponse = {
    data: answer.body ?? "",
    status: answer.status,
    statusText: "",
    headers: AxiosHeaders.from(Object.fromEntries(answer.headers ?? [])),
    config,
    request: {},
  };
  if (!config.validateStatus || config.validateStatus(answer.status)) return response;
  const code = answer.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST;
  throw new AxiosError(`Request failed with status code ${answer.status}`, code, config, null, response);
};
