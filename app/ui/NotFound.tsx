import { useLanguage } from "../i18n/LanguageProvider";
import { useNavigation } from "../navigation";
import { LanguageSelect } from "./LanguageSelect";

export default function NotFound() {
  const { t } = useLanguage();
  const { href } = useNavigation();
  return (
    <main className="screen">
      <LanguageSelect />
      <h1>{t("notFound.heading")}</h1>
      <p>{t("notFound.text")}</p>
      <p>
        <a href={href({ to: "home" })}>{t("notFound.home")}</a>
      </p>
    </main>
  );
}
