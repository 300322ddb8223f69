import { useLanguage } from "../i18n/LanguageProvider";
import { LANGUAGES } from "../i18n/languages";
import { Link } from "../navigation";

/** A link to each supported language's page, each named in its own language. */
export function LanguagePages() {
  const { t } = useLanguage();
  return (
    <nav aria-label={t.text("home.languagePages")}>
      <ul className="language-pages">
        {LANGUAGES.map(({ code, name }) => (
          <li key={code} lang={code}>
            <Link to="languages" params={{ code }}>
              {name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
