import { useLanguage } from "../i18n/LanguageProvider";
import { localizedPath } from "../i18n/languages";
import { LanguageSelect } from "./LanguageSelect";

export default function NotFound() {
  const { t, language } = useLanguage();
  return (
    <main className="screen">
      <LanguageSelect />
      <h1>{t("notFound.heading")}</h1>
      <p>{t("notFound.text")}</p>
      <p>
        <a href={localizedPath(language, "/")}>{t("notFound.home")}</a>
      </p>
    </main>
  );
}
