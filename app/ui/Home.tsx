import { useState } from "react";
import type { ScreenProps } from "../data/route";
import { formatInZone } from "../i18n/dates";
import { useLanguage } from "../i18n/LanguageProvider";
import { LANGUAGES } from "../i18n/languages";
import { Link } from "../navigation";
import { LanguagePages } from "./LanguagePages";
import { LanguageSelect } from "./LanguageSelect";
import { StatusCheck } from "./StatusCheck";

export default function Home({ timeZone }: ScreenProps) {
  const { t, dateLocale } = useLanguage();
  const [clicks, setClicks] = useState(0);
  return (
    <main className="screen">
      <LanguageSelect />
      <h1>{t("home.heading")}</h1>
      <p>{t("home.intro")}</p>
      <p>{t("home.languages", { count: LANGUAGES.length })}</p>
      <p className="counter">
        <button type="button" onClick={() => setClicks((n) => n + 1)}>
          {t("home.click")}
        </button>{" "}
        <output>{t("home.clicks", { count: clicks })}</output>
      </p>
      <StatusCheck timeZone={timeZone} />
      <p>
        <Link to="status">{t("home.statusLink")}</Link>
      </p>
      <LanguagePages />
      <p className="build">
        {t("home.builtOn", {
          version: BILINGUE_VERSION,
          date: formatInZone(BILINGUE_BUILD_TIME, timeZone, "PPPP", dateLocale),
          time: formatInZone(BILINGUE_BUILD_TIME, timeZone, "p", dateLocale),
          timeZone,
        })}
      </p>
    </main>
  );
}
