// The notifications on screen, stacked below each other (loaded by app/ui/notifications.tsx
// once the page is hydrated, with react-hot-toast's headless core). Its JSX compiles to
// React's createElement: the automatic runtime would be shared with the entry, and esbuild
// would split it into a chunk of its own that the first load then fetches.
/** @jsxRuntime classic */
import * as React from "react";
import { resolveValue, useToaster } from "react-hot-toast/headless";

/** The product's default; the distance from the top (65 px) is in app/ui/styles.css. */
const NOTIFICATION_DURATION_MS = 1500;
const GAP_PX = 8;

export default function Toaster() {
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
