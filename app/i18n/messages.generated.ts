// GENERATED from app/i18n/tables/fr.ts and the other tables: do not edit. After a change to a
// table, run `node app/bundling/catalogue.mjs` (npm run dev does, after each build) and
// commit this file: app/bundling/declarations.test.mjs fails when it is not what they make.

/** Each message's arguments, by key (null: it takes none). */
export interface Messages {
  "app.name": null;
  "language.label": null;
  "loading.label": null;
  "loading.failed": null;
  "loading.retry": null;
  "home.title": null;
  "home.description": null;
  "status.description": null;
  "notFound.description": null;
  "home.heading": null;
  "home.intro": null;
  "home.languages": { "count": number };
  "home.clicks": { "count": number };
  "home.click": null;
  "home.builtOn": { "version": string | number; "date": string | number; "time": string | number; "timeZone": string | number };
  "home.statusLink": null;
  "status.title": null;
  "status.heading": null;
  "status.version": null;
  "status.languages": null;
  "status.time": null;
  "status.reload": null;
  "status.unavailable": null;
  "status.home": null;
  "status.check": null;
  "status.ok": { "version": string | number; "time": string | number };
  "status.failed": { "detail": string | number };
  "screen.failed": null;
  "notFound.title": null;
  "notFound.heading": null;
  "notFound.text": null;
  "notFound.home": null;
  "home.languagePages": null;
  "navigation.pending": null;
  "languages.title": null;
  "languages.description": null;
  "languages.code": null;
  "languages.locale": null;
  "languages.direction": null;
  "languages.ltr": null;
  "languages.rtl": null;
  "languages.sampleDate": null;
  "languages.samplePluralLabel": null;
  "languages.samplePlural": { "count": number };
  "languages.unknown": null;
  "languages.unavailable": null;
  "host.serverError": null;
  "host.comeBackLater": null;
  "host.errorPageTitle": null;
  "host.errorPageText": null;
}

/** The keys of messages that take no argument. */
export type PlainKey = "app.name" | "language.label" | "loading.label" | "loading.failed" | "loading.retry" | "home.title" | "home.description" | "status.description" | "notFound.description" | "home.heading" | "home.intro" | "home.click" | "home.statusLink" | "status.title" | "status.heading" | "status.version" | "status.languages" | "status.time" | "status.reload" | "status.unavailable" | "status.home" | "status.check" | "screen.failed" | "notFound.title" | "notFound.heading" | "notFound.text" | "notFound.home" | "home.languagePages" | "navigation.pending" | "languages.title" | "languages.description" | "languages.code" | "languages.locale" | "languages.direction" | "languages.ltr" | "languages.rtl" | "languages.sampleDate" | "languages.samplePluralLabel" | "languages.unknown" | "languages.unavailable" | "host.serverError" | "host.comeBackLater" | "host.errorPageTitle" | "host.errorPageText";

/**
 * A table that may say only some messages (a regional variant, a language not finished yet):
 * `const frCA = { … } satisfies PartialTable;` checks its keys; the rest comes along its chain.
 */
export type PartialTable = { readonly [Key in keyof Messages]?: string };
