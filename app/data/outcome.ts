// What a screen's loader gave: its data, or the error object of the failed call.
import type { ApiError } from "../http/errors";

export type LoadOutcome<Data> = { ok: true; data: Data } | { ok: false; error: ApiError };
