// The part of a screen that shows its data: on a streamed page's server render the data is
// still to come, and that part (inside a `<Suspense>` boundary the screen declares) waits
// for it while the rest of the page is sent.
import { use } from "react";
import type { LoadOutcome } from "./loader";
import type { ScreenData } from "./route";

/**
 * The loader's outcome for the part of the screen that shows it; on a streamed page's
 * server render, suspends until it comes (call it inside a `<Suspense>` boundary).
 */
export function useScreenOutcome<Data>(data: ScreenData<Data>): LoadOutcome<Data> | null {
  return data.pending ? use(data.pending) : data.outcome;
}
