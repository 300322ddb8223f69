// The server's status, from GET /api/status: in the first paint (the host loaded it, or,
// on a streamed page, sends it as soon as it comes: until then its fallback stands where
// the details go), then reloaded in place on demand, or when the language changes.
import { Suspense } from "react";
import type { ScreenData, ScreenProps } from "../data/route";
import { type Checked, list, object, string, time } from "../data/shape";
import { formatInZone } from "../i18n/dates";
import { useLanguage } from "../i18n/LanguageProvider";
import { Link } from "../navigation";
import { LanguageSelect } from "./LanguageSelect";

/** What the host's GET /api/status answers, as this screen reads it. */
export const data = object({ version: string, languages: list(string), serverTime: time });
export type ServerStatus = Checked<typeof data>;

export default function Status({ data, timeZone }: ScreenProps<ServerStatus>) {
  const { t } = useLanguage();
  return (
    <main className="screen">
      <LanguageSelect />
      <h1>{t("status.heading")}</h1>
      <Suspense fallback={<Loading />}>
        <StatusDetails data={data} timeZone={timeZone} />
      </Suspense>
      <p>
        <button type="button" onClick={data.reload} disabled={data.loading}>
          {t("status.reload")}
        </button>
      </p>
      <p>
        <Link to="home">{t("status.home")}</Link>
      </p>
    </main>
  );
}

function Loading() {
  const { t } = useLanguage();
  return <p aria-busy="true">{t("loading.label")}</p>;
}

/** The part that shows the data: it waits for it on a streamed page. */
function StatusDetails({ data, timeZone }: { data: ScreenData<ServerStatus>; timeZone: string }) {
  const { t, dateLocale } = useLanguage();
  const { outcome } = data;
  if (!outcome) return <Loading />;
  if (!outcome.ok) {
    // The translated message alone: what the API or the host said is not the visitor's to read.
    return (
      <p className="load-failed" role="alert">
        {t("status.unavailable")}
      </p>
    );
  }
  return (
    <dl className="status" aria-busy={data.loading}>
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
