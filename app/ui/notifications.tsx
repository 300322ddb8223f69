// The notification facility, on react-hot-toast, with the specification's defaults:
// close after 1.5 s, 65 px from the top, centred horizontally.
import toast, { Toaster } from "react-hot-toast";

export const NOTIFICATION_DURATION_MS = 1500;
export const NOTIFICATION_TOP_PX = 65;

export function Notifications() {
  return (
    <Toaster
      position="top-center"
      containerStyle={{ top: NOTIFICATION_TOP_PX }}
      toastOptions={{ duration: NOTIFICATION_DURATION_MS }}
    />
  );
}

export const notify = {
  success: (message: string) => toast.success(message),
  error: (message: string) => toast.error(message),
};
