// One half of a cycle, for app/test/importCycles.test.ts.
import type { B } from "./b";
export type A = B[];
