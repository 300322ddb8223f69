import { useLanguage } from "../i18n/LanguageProvider";
import { LanguageSelect } from "./LanguageSelect";

/** A language whose resources failed to load: say so, in the language being left, and offer a retry. */
export default function LanguageLoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useLanguage();
  return (
    <main className="screen">
      <LanguageSelect />
      <div className="load-failed" role="alert">
        <p>{t("loading.failed")}</p>
        <button type="button" onClick={onRetry}>
          {t("loading.retry")}
        </button>
      </div>
    </main>
  );
}
