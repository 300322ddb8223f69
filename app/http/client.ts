// The shared HTTP client, over axios: base path /api, a 10-minute time-out, settable base
// URL, headers and Authorization (a token with an optional scheme; an empty token removes
// it), request and response interceptors. A failed call rejects with `ApiError`.
import axios, {
  type AxiosError,
  type AxiosInstance,
  type AxiosRequestConfig,
  type AxiosResponse,
  type CreateAxiosDefaults,
  type InternalAxiosRequestConfig,
} from "axios";
import { type ApiError, NO_RESPONSE_STATUS, toApiError } from "./errors";
import { transport } from "./transport";

export { type ApiError, NO_RESPONSE_STATUS, toApiError };

export const API_BASE_PATH = "/api";
export const REQUEST_TIMEOUT_MS = 600_000;
export type RequestConfig = AxiosRequestConfig;
export type RequestInterceptor = (
  config: InternalAxiosRequestConfig,
) => InternalAxiosRequestConfig | Promise<InternalAxiosRequestConfig>;
export type ResponseInterceptor = (response: AxiosResponse) => AxiosResponse | Promise<AxiosResponse>;
export type RejectedInterceptor = (error: unknown) => unknown;

export interface HttpClient {
  setBaseURL(url: string): void;
  setHeader(name: string, value: string): void;
  /** `token`, or `scheme + " " + token`; an empty token removes the header. */
  setAuthorization(token: string, scheme?: string): void;
  /** Each returns a function that removes the interceptor. */
  addRequestInterceptor(onFulfilled: RequestInterceptor, onRejected?: RejectedInterceptor): () => void;
  addResponseInterceptor(onFulfilled: ResponseInterceptor, onRejected?: RejectedInterceptor): () => void;
  request<T = unknown>(config: RequestConfig): Promise<T>;
  get<T = unknown>(url: string, config?: RequestConfig): Promise<T>;
  delete<T = unknown>(url: string, config?: RequestConfig): Promise<T>;
  post<T = unknown>(url: string, data?: unknown, config?: RequestConfig): Promise<T>;
  put<T = unknown>(url: string, data?: unknown, config?: RequestConfig): Promise<T>;
  patch<T = unknown>(url: string, data?: unknown, config?: RequestConfig): Promise<T>;
}

export function createHttpClient(options: CreateAxiosDefaults = {}): HttpClient {
  const instance: AxiosInstance = axios.create({
    baseURL: API_BASE_PATH,
    timeout: REQUEST_TIMEOUT_MS,
    ...(transport ? { adapter: transport } : {}),
    ...options,
  });

  const call = async <T>(config: RequestConfig): Promise<T> => {
    try {
      const response = await instance.request<T>(config);
      return response.data;
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status >= 500) console.error(error, (error as Partial<AxiosError>).config ?? config);
      throw apiError;
    }
  };

  return {
    setBaseURL(url) {
      instance.defaults.baseURL = url;
    },
    setHeader(name, value) {
      instance.defaults.headers.common[name] = value;
    },
    setAuthorization(token, scheme) {
      if (!token) delete instance.defaults.headers.common.Authorization;
      else instance.defaults.headers.common.Authorization = scheme ? `${scheme} ${token}` : token;
    },
    addRequestInterceptor(onFulfilled, onRejected) {
      const id = instance.interceptors.request.use(onFulfilled, onRejected);
      return () => instance.interceptors.request.eject(id);
    },
    addResponseInterceptor(onFulfilled, onRejected) {
      const id = instance.interceptors.response.use(onFulfilled, onRejected);
      return () => instance.interceptors.response.eject(id);
    },
    request: (config) => call(config),
    get: (url, config) => call({ ...config, method: "get", url }),
    delete: (url, config) => call({ ...config, method: "delete", url }),
    post: (url, data, config) => call({ ...config, method: "post", url, data }),
    put: (url, data, config) => call({ ...config, method: "put", url, data }),
    patch: (url, data, config) => call({ ...config, method: "patch", url, data }),
  };
}

/** `client`, each of its calls' configuration passed through `extra` first. */
export function withConfig(client: HttpClient, extra: (config?: RequestConfig) => RequestConfig): HttpClient {
  return {
    ...client,
    request: (config) => client.request(extra(config)),
    get: (url, config) => client.get(url, extra(config)),
    delete: (url, config) => client.delete(url, extra(config)),
    post: (url, data, config) => client.post(url, data, extra(config)),
    put: (url, data, config) => client.put(url, data, extra(config)),
    patch: (url, data, config) => client.patch(url, data, extra(config)),
  };
}

/** The application's shared client. */
const http = createHttpClient();
export default http;
