// Imports a, outside the cycle.
import type { A } from "./a";
export const none: A = [];
