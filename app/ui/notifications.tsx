// The notification facility, on react-hot-toast, with the product's defaults: a
// notification closes after 1.5 s and sits 65 px from the top, centred horizontally. The library loads after
// hydration (notifications only follow what the user does), keeping it out of the
// first-load JavaScript; the server renders nothing for it, so hydration matches.
import { lazy, Suspense, useEffect, useState } from "react";

export const NOTIFICATION_DURATION_MS = 1500;
export const NOTIFICATION_TOP_PX = 65;

const Toaster = lazy(async () => {
  const { Toaster } = await import("react-hot-toast");
  return {
    default: () => (
      <Toaster
        position="top-center"
        containerStyle={{ top: NOTIFICATION_TOP_PX }}
        toastOptions={{ duration: NOTIFICATION_DURATION_MS }}
      />
    ),
  };
});

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
  success: async (message: string) => (await import("react-hot-toast")).default.success(message),
  error: async (message: string) => (await import("react-hot-toast")).default.error(message),
};
