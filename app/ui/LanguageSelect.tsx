import { useId } from "react";
import { useLanguage } from "../i18n/LanguageProvider";
import { isLanguage, LANGUAGES } from "../i18n/languages";

export function LanguageSelect() {
  const { t, requestedLanguage, changeLanguage } = useLanguage();
  const id = useId();
  return (
    <div className="language-select">
      <label htmlFor={id}>{t("language.label")}</label>
      <select
        id={id}
        value={requestedLanguage}
        onChange={(event) => {
          if (isLanguage(event.target.value)) changeLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map(({ code, name }) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
