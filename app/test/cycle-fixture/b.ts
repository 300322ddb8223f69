// The other half: a dynamic import closes the cycle.
export type B = string;
export const load = () => import("./a");
