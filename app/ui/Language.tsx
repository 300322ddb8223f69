// One supported language, from GET /api/languages/:code: its name, its locale, its
// direction, and a date and a plural written in it (with its own table and date locale,
// fetched with the data: on the server for the first paint, in the browser after). An
// unknown code is the API's 404, and the page's.
import type { ScreenProps } from "../data/route";
import { object, oneOf, string } from "../data/shape";
import { formatInZone } from "../i18n/dates";
import { useLanguage } from "../i18n/LanguageProvider";
import { isLanguage } from "../i18n/languages";
import { pageResources } from "../i18n/resources";
import { createTranslator } from "../i18n/translate";
import { Link } from "../navigation";
import { LanguagePages } from "./LanguagePages";
import { LanguageSelect } from "./LanguageSelect";

/** The sample date (15 January 2026, in UTC) and count each language writes. */
const SAMPLE_DATE = Date.UTC(2026, 0, 15, 12);
const SAMPLE_COUNT = 2;

const answer = object({ code: string, name: string, locale: string, direction: oneOf("ltr", "rtl") });

/** The API's answer, checked, with the samples written in that language. */
export async function data(value: unknown) {
  const language = answer(value, "the language");
  if (!isLanguage(language.code)) throw new Error(`the language: "${language.code}" is not one of the app's`);
  const { table, fallbacks, dateLocale } = await pageResources(language.code, "languages");
  const t = createTranslator(table, language.locale, fallbacks, language.direction);
  return {
    ...language,
    sampleDate: formatInZone(SAMPLE_DATE, "UTC", "PPPP", dateLocale),
    samplePlural: t.text("languages.samplePlural", { count: SAMPLE_COUNT }),
  };
}
export type LanguageSample = Awaited<ReturnType<typeof data>>;

export default function LanguageScreen({ data: { outcome } }: ScreenProps<LanguageSample>) {
  const { t } = useLanguage();
  return (
    <main className="screen">
      <LanguageSelect />
      {!outcome ? (
        <p aria-busy="true">{t("loading.label")}</p>
      ) : !outcome.ok ? (
        // The translated message alone: what the API or the host said is not the visitor's to read.
        <h1>{t(outcome.error.status === 404 ? "languages.unknown" : "languages.unavailable")}</h1>
      ) : (
        <>
          <h1 lang={outcome.data.code} dir={outcome.data.direction}>
            {outcome.data.name}
          </h1>
          <dl className="status">
            <dt>{t("languages.code")}</dt>
            <dd>{outcome.data.code}</dd>
            <dt>{t("languages.locale")}</dt>
            <dd>{outcome.data.locale}</dd>
            <dt>{t("languages.direction")}</dt>
            <dd>{t(outcome.data.direction === "rtl" ? "languages.rtl" : "languages.ltr")}</dd>
            <dt>{t("languages.sampleDate")}</dt>
            <dd className="sample-date" lang={outcome.data.code} dir={outcome.data.direction}>
              {outcome.data.sampleDate}
            </dd>
            <dt>{t("languages.samplePluralLabel")}</dt>
            <dd className="sample-plural" lang={outcome.data.code} dir={outcome.data.direction}>
              {outcome.data.samplePlural}
            </dd>
          </dl>
        </>
      )}
      <LanguagePages />
      <p>
        <Link to="home">{t("status.home")}</Link>
      </p>
    </main>
  );
}
