// The notification facility, on react-hot-toast's headless core, with the product's
// defaults: a notification closes after 1.5 s and sits 65 px from the top, centred
// horizontally. The markup and its look are ours (app/ui/styles.css): the library's own
// styles are injected at run time, which a strict Content-Security-Policy forbids. The
// library loads after hydration (notifications only follow what the user does), keeping
// it out of the first-load JavaScript; the server renders nothing for it, so hydration
// matches.
import { lazy, Suspense, useEffect, useState } from "react";

// The toaster's code comes with the library, after hydration.
const Toaster = lazy(() => import("./Toaster"));

export function Notifications() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export const notify = {
  success: async (message: string) => (await import("react-hot-toast/headless")).toast.success(message),
  error: async (message: string) => (await import("react-hot-toast/headless")).toast.error(message),
};
