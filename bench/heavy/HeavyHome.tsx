// The benchmark's heavy page (bench only, not part of the product): the home route of a
// server bundle built by bench/heavy/build.mjs shows this instead of the app's home. It is
// made of the app's own pieces (its translator and tables, plurals, dates in the pinned
// time zone, links, the language select) and comes to about 1,000 elements and 50 KB of
// HTML, the size of a real screen, where rendering rather than HTTP dominates.
import type { ScreenProps } from "../../app/data/route";
import { formatInZone } from "../../app/i18n/dates";
import { useLanguage } from "../../app/i18n/LanguageProvider";
import { Link } from "../../app/navigation";
import { LanguageSelect } from "../../app/ui/LanguageSelect";

const ROWS = 100;
const START = Date.UTC(2026, 0, 5, 8, 30);

export default function HeavyHome({ timeZone }: ScreenProps) {
  const { t, dateLocale } = useLanguage();
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    id: i + 1,
    at: START + i * 7_654_321_000,
    clicks: (i * 37) % 1_500,
    languages: (i % 3) + 1,
  }));
  return (
    <main className="screen">
      <LanguageSelect />
      <h1>{t("home.heading")}</h1>
      <p>{t("home.intro")}</p>
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>{t("status.time")}</th>
            <th>{t("status.version")}</th>
            <th>{t("status.languages")}</th>
            <th>{t("home.click")}</th>
            <th>{t("home.statusLink")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} title={t.text("home.description")}>
              <td>{row.id}</td>
              <td>
                <time dateTime={new Date(row.at).toISOString()}>{formatInZone(row.at, timeZone, "PPpp", dateLocale)}</time>
              </td>
              <td>{t("status.ok", { version: `0.${row.id}.0`, time: formatInZone(row.at, timeZone, "PPPP", dateLocale) })}</td>
              <td>
                {t("home.languages", { count: row.languages })} {t("home.intro")}
              </td>
              <td>
                <output>{t("home.clicks", { count: row.clicks })}</output>
              </td>
              <td>
                <Link to="status">{t("status.check")}</Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <Link to="home">{t("status.home")}</Link>
      </p>
    </main>
  );
}
