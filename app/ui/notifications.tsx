// The notification facility, on react-hot-toast's headless core, with the product's
// defaults: a notification closes after 1.5 s and sits 65 px from the top, centred
// horizontally. The markup and its look are ours (app/ui/styles.css): the library's own
// styles are injected at run time, which a strict Content-Security-Policy forbids. The
// library loads after hydration (notifications only follow what the user does), keeping
// it out of the first-load JavaScript; the server renders nothing for it, so hydration
// matches.
import { lazy, Suspense, useEffect, useState } from "react";

export const NOTIFICATION_DURATION_MS = 1500;
/** The distance from the top: `top` of `.notifications` in app/ui/styles.css. */
export const NOTIFICATION_TOP_PX = 65;
const GAP_PX = 8;

const Toaster = lazy(async () => {
  const { resolveValue, useToaster } = await import("react-hot-toast/headless");
  function Toaster() {
    const { toasts, handlers } = useToaster({ duration: NOTIFICATION_DURATION_MS });
    return (
      <div className="notifications" onMouseEnter={handlers.startPause} onMouseLeave={handlers.endPause}>
        {toasts.map((toast) => {
          // Each notification is measured once, so that the next ones stack below it.
          const measure = (element: HTMLDivElement | null) => {
            if (element && typeof toast.height !== "number") handlers.updateHeight(toast.id, element.getBoundingClientRect().height);
          };
          const offset = handlers.calculateOffset(toast, { gutter: GAP_PX });
          return (
            <div key={toast.id} className="notification-slot" style={{ transform: `translateY(${offset}px)` }}>
              <div
                ref={measure}
                className={`notification notification-${toast.type}${toast.visible ? "" : " notification-leaving"}`}
                {...toast.ariaProps}
              >
                {resolveValue(toast.message, toast)}
              </div>
            </div>
          );
        })}
      </div>
    );
  }
  return { default: Toaster };
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
  success: async (message: string) => (await import("react-hot-toast/headless")).toast.success(message),
  error: async (message: string) => (await import("react-hot-toast/headless")).toast.error(message),
};
