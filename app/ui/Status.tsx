// The server's status, from GET /api/status: in the first paint (the host loaded it, or,
// on a streamed page, sends it as soon as it comes: until then its fallback stands where
// the details go), then reloaded in place on demand, or when the language changes.
import { Suspense } from "react";
import { formatInZone } from "../i18n/dates";
import type { ServerStatus } from "../routes";
import { useScreenData, useScreenOutcome } from "../data/ScreenData";
import { useLanguage } from "../i18n/LanguageProvider";
import { Link } from "../navigation";
import { LanguageSelect } from "./LanguageSelect";

export function Status({ timeZone }: { timeZone: string }) {
  const { t } = useLanguage();
  const { loading, reload } = useScreenData<ServerStatus>();
  return (
    <main className="screen">
      <LanguageSelect />
      <h1>{t("status.heading")}</h1>
      <Suspense fallback={<Loading />}>
        <StatusDetails timeZone={timeZone} />
      </Suspense>
      <p>
        <button type="button" onClick={reload} disabled={loading}>
          {t("status.reload")}
        </button>
      </p>
      <p>
        <Link to="/">{t("status.home")}</Link>
      </p>
    </main>
  );
}

function Loading() {
  const { t } = useLanguage();
  return <p aria-busy="true">{t("loading.label")}</p>;
}

/** The part that shows the data: it waits for it on a streamed page. */
function StatusDetails({ timeZone }: { timeZone: string }) {
  const { t, dateLocale } = useLanguage();
  const { loading } = useScreenData<ServerStatus>();
  const outcome = useScreenOutcome<ServerStatus>();
  if (!outcome) return <Loading />;
  if (!outcome.ok) {
    return (
      <p className="load-failed" role="alert">
        {t("status.unavailable")} <small>{outcome.error.detail || outcome.error.message}</small>
      </p>
    );
  }
  return (
    <dl className="status" aria-busy={loading}>
      <dt>{t("status.version")}</dt>
      <dd>{outcome.data.version}</dd>
      <dt>{t("status.languages")}</dt>
      <dd>{outcome.data.languages.join(", ")}</dd>
      <dt>{t("status.time")}</dt>
      <dd>
        <time dateTime={outcome.data.serverTime}>
          {formatInZone(Date.parse(outcome.data.serverTime), timeZone, "PPpp", dateLocale)}
        </time>
      </dd>
    </dl>
  );
}
