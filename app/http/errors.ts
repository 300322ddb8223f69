// The error catalogue: what every failed call of the shared client rejects with. Apart
// from the client, so that code which only reads errors (a screen's loader outcome) does
// not bring the HTTP library into the first-load JavaScript.
import type { AxiosError } from "axios";

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
