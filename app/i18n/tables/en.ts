import type fr from "./fr";

// Typed against the French table, key by key: a key missing here, or one extra, fails the
// type check (the build checks every language's messages and arguments: docs/translations.md).
const en: { [K in keyof typeof fr]: (typeof fr)[K] } = {
  "app.name": "Bilingue",
  "language.label": "Language",
  "loading.label": "Loading…",
  "loading.failed": "The chosen language could not be loaded. Check your connection and try again.",
  "loading.retry": "Try again",
  "home.title": "Home · Bilingue",
  "home.description": "Bilingue renders every page on the server, in French or in English, then brings it to life in your browser.",
  "status.description": "The Bilingue server’s version, languages and time, right now.",
  "notFound.description": "This address matches no page on Bilingue.",
  "home.heading": "Welcome to Bilingue",
  "home.intro": "This page was rendered by the server in your language, then brought to life in your browser.",
  "home.languages": "This application speaks {count, plural, one {# language} other {# languages}}.",
  "home.clicks": "{count, plural, =0 {No clicks yet} one {# click} other {# clicks}}",
  "home.click": "Click",
  "home.builtOn": "Version {version}, built on {date} at {time} ({timeZone}).",
  "home.statusLink": "The server’s status",
  "status.title": "Server status · Bilingue",
  "status.heading": "Server status",
  "status.version": "Version",
  "status.languages": "Languages",
  "status.time": "Server time",
  "status.reload": "Reload",
  "status.unavailable": "The server’s status could not be obtained.",
  "status.home": "Back to the home page",
  "status.check": "Check the server",
  "status.ok": "The server answers: version {version}, {time}.",
  "status.failed": "The server does not answer: {detail}",
  "screen.failed": "This screen could not be shown. Reload the page to try again.",
  "notFound.title": "Page not found · Bilingue",
  "notFound.heading": "Page not found",
  "notFound.text": "This address matches no page.",
  "notFound.home": "Back to the home page",
  "home.languagePages": "The languages’ pages",
  "navigation.pending": "Loading the page…",
  "languages.title": "A language of Bilingue · Bilingue",
  "languages.description": "The name of a language of Bilingue, its locale, its direction, and a date and a plural written in it.",
  "languages.code": "Code",
  "languages.locale": "Locale",
  "languages.direction": "Direction",
  "languages.ltr": "Left to right",
  "languages.rtl": "Right to left",
  "languages.sampleDate": "A date",
  "languages.samplePluralLabel": "A plural",
  "languages.samplePlural": "{count, plural, one {# language spoken} other {# languages spoken}}",
  "languages.unknown": "Unknown language",
  "languages.unavailable": "This language could not be obtained.",
};

export default en;

// The words and formats its dates are written with, fetched in the same chunk.
export { enUS as dateLocale } from "date-fns/locale/en-US";
