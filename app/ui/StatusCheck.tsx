import { formatInZone } from "../i18n/dates";
import { useState } from "react";
import { useLanguage } from "../i18n/LanguageProvider";
import { notify } from "./notifications";

/** What the host's GET /api/status answers. */
interface Status {
  version: string;
  languages: string[];
  serverTime: string;
}

/** Calls the host's /api and tells the result in a notification. */
export function StatusCheck({ timeZone }: { timeZone: string }) {
  const { t, dateLocale } = useLanguage();
  const [busy, setBusy] = useState(false);
  const check = async () => {
    setBusy(true);
    try {
      // The client loads on first use: it is not part of the first-load JavaScript.
      const { default: http, toApiError } = await import("../http/client");
      try {
        const status = await http.get<Status>("/status");
        const time = formatInZone(Date.parse(status.serverTime), timeZone, "PPpp", dateLocale);
        notify.success(t.text("status.ok", { version: status.version, time }));
      } catch (error) {
        const { detail, message } = toApiError(error);
        notify.error(t.text("status.failed", { detail: detail || message }));
      }
    } catch (error) {
      notify.error(t.text("status.failed", { detail: error instanceof Error ? error.message : String(error) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <p>
      <button type="button" onClick={check} disabled={busy}>
        {t("status.check")}
      </button>
    </p>
  );
}
