// How the shared client reaches the API: in the browser, axios's own (XMLHttpRequest). The
// server bundle replaces this module with app/server/transport.ts, where the host makes
// each call (app/bundling/server-substitutes.json).
import type { AxiosAdapter } from "axios";

export const transport: AxiosAdapter | undefined = undefined;
