// How the shared client reaches the API: in the browser, axios's own (XMLHttpRequest). The
// server bundle replaces this module (app/bundling/server-substitutes.json) with
// app/server/transport.ts, where
// the host makes each call.
import type { AxiosAdapter } from "axios";

export const transport: AxiosAdapter | undefined = undefined;
