import { useLanguage } from "../i18n/LanguageProvider";

/** Shown instead of the application while a language's resources load. */
export function Spinner() {
  const { t } = useLanguage();
  const label = t.text("loading.label");
  return (
    <div className="spinner-screen" role="status" aria-live="polite" aria-label={label}>
      <div className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
