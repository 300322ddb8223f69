// The site's languages: 30, French first (the default, as in the app), then an order that
// puts a right-to-left language among the first three, so a small site (`--languages 3`)
// has one. Each names where its data comes from:
//   code     the URL prefix and the table's name (app/i18n/tables/<code>.ts)
//   locale   the BCP 47 locale Intl formats with (languages.json's "locale")
//   cldr     the CLDR locale its text is read from (Norwegian Bokmål's annotations are
//            CLDR's "no")
//   dateFns  the date-fns locale module its table exports as its date locale
//   direction which way its text runs
// A regional variant (fr-CA, en-GB, pt-PT) names its `parent` among the site's languages
// (languages.json's "parent") and its `cldr` is the variant's: `cldrChain` (./cldr.mjs)
// reads it through CLDR's parentLocales, then its language, and its table keeps only what
// differs from its parent's (docs/pages-and-languages.md: a regional variant); the rest is
// its parent's on its pages.
export const SITE_LANGUAGES = [
  { code: "fr", locale: "fr-FR", cldr: "fr", dateFns: "fr", direction: "ltr" },
  { code: "en", locale: "en-US", cldr: "en", dateFns: "en-US", direction: "ltr" },
  { code: "ar", locale: "ar-EG", cldr: "ar", dateFns: "ar", direction: "rtl" },
  { code: "de", locale: "de-DE", cldr: "de", dateFns: "de", direction: "ltr" },
  { code: "es", locale: "es-ES", cldr: "es", dateFns: "es", direction: "ltr" },
  { code: "he", locale: "he-IL", cldr: "he", dateFns: "he", direction: "rtl" },
  { code: "ja", locale: "ja-JP", cldr: "ja", dateFns: "ja", direction: "ltr" },
  { code: "ru", locale: "ru-RU", cldr: "ru", dateFns: "ru", direction: "ltr" },
  { code: "zh", locale: "zh-CN", cldr: "zh", dateFns: "zh-CN", direction: "ltr" },
  { code: "fa", locale: "fa-IR", cldr: "fa", dateFns: "fa-IR", direction: "rtl" },
  { code: "it", locale: "it-IT", cldr: "it", dateFns: "it", direction: "ltr" },
  { code: "pt", locale: "pt-BR", cldr: "pt", dateFns: "pt-BR", direction: "ltr" },
  { code: "nl", locale: "nl-NL", cldr: "nl", dateFns: "nl", direction: "ltr" },
  { code: "pl", locale: "pl-PL", cldr: "pl", dateFns: "pl", direction: "ltr" },
  { code: "uk", locale: "uk-UA", cldr: "uk", dateFns: "uk", direction: "ltr" },
  { code: "cs", locale: "cs-CZ", cldr: "cs", dateFns: "cs", direction: "ltr" },
  { code: "sv", locale: "sv-SE", cldr: "sv", dateFns: "sv", direction: "ltr" },
  { code: "da", locale: "da-DK", cldr: "da", dateFns: "da", direction: "ltr" },
  { code: "fi", locale: "fi-FI", cldr: "fi", dateFns: "fi", direction: "ltr" },
  { code: "nb", locale: "nb-NO", cldr: "no", dateFns: "nb", direction: "ltr" },
  { code: "tr", locale: "tr-TR", cldr: "tr", dateFns: "tr", direction: "ltr" },
  { code: "el", locale: "el-GR", cldr: "el", dateFns: "el", direction: "ltr" },
  { code: "hu", locale: "hu-HU", cldr: "hu", dateFns: "hu", direction: "ltr" },
  { code: "ro", locale: "ro-RO", cldr: "ro", dateFns: "ro", direction: "ltr" },
  { code: "bg", locale: "bg-BG", cldr: "bg", dateFns: "bg", direction: "ltr" },
  { code: "hr", locale: "hr-HR", cldr: "hr", dateFns: "hr", direction: "ltr" },
  { code: "ko", locale: "ko-KR", cldr: "ko", dateFns: "ko", direction: "ltr" },
  { code: "hi", locale: "hi-IN", cldr: "hi", dateFns: "hi", direction: "ltr" },
  { code: "th", locale: "th-TH", cldr: "th", dateFns: "th", direction: "ltr" },
  { code: "vi", locale: "vi-VN", cldr: "vi", dateFns: "vi", direction: "ltr" },
  { code: "fr-CA", locale: "fr-CA", cldr: "fr-CA", dateFns: "fr-CA", direction: "ltr", parent: "fr" },
  { code: "en-GB", locale: "en-GB", cldr: "en-GB", dateFns: "en-GB", direction: "ltr", parent: "en" },
  { code: "pt-PT", locale: "pt-PT", cldr: "pt-PT", dateFns: "pt", direction: "ltr", parent: "pt" },
];

/** date-fns's export name for a locale module: `en-US` → `enUS`. */
export const dateFnsExport = (module) => module.replace(/-(\w)/g, (_, letter) => letter.toUpperCase());
