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
import { transport } from "./transport";

export const API_BASE_PATH = "/api";
export const REQUEST_TIMEOUT_MS = 600_000;
/** The status a failure carries when no response came (network failure, time-out, abort). */
export const NO_RESPONSE_STATUS = 400;

/**
 * What every failed call rejects with: `message` is the client's own error message;
 * `detail` the response body's `error` field, else the body itself when it is a non-empty
 * string, else ""; `data` the body when it is an object, else {}; `status` the response's
 * status, or 400 when no response came. A status of 500 or more is also logged to the
 * console with the request's configuration.
 */
export interface ApiError {
  message: string;
  detail: string;
  data: Record<string, unknown>;
  status: number;
}

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isApiError(value: unknown): value is ApiError {
  return (
    isObject(value) &&
    !(value instanceof Error) &&
    typeof value.message === "string" &&
    typeof value.detail === "string" &&
    isObject(value.data) &&
    typeof value.status === "number"
  );
}

/** Maps any failure of a call to the catalogue's object. */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  const axiosError = error as Partial<AxiosError>;
  const response = axiosError.response;
  const body: unknown = response?.data;
  const errorField = isObject(body) ? body.error : undefined;
  let detail = "";
  if (errorField !== undefined && errorField !== null && errorField !== "") detail = String(errorField);
  else if (typeof body === "string" && body !== "") detail = body;
  return {
    message: typeof axiosError.message === "string" ? axiosError.message : String(error),
    detail,
    data: isObject(body) ? body : {},
    status: response?.status ?? NO_RESPONSE_STATUS,
  };
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

/** The application's shared client. */
const http = createHttpClient();
export default http;
