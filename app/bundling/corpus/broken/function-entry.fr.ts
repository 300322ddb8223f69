// expect error: message "build.line" (fr) is code, a function: write it as an ICU message
const fr = {
  "page.title": "Accueil",
  "cart.items": "{count, plural, one {# article} many {# d’articles} other {# articles}}",
  "cart.total": "Total : {amount, number, ::currency/EUR}",
  "user.greeting": "Bonjour {name} !",
  "user.pronoun": "{gender, select, female {Elle} male {Il} other {Iel}} a répondu.",
  "race.rank": "{rank, selectordinal, one {#re} other {#e}} place",
  "build.line": (p: { version: string; date: string }) => `Version ${p.version} du ${p.date}`,
};

export default fr;

export { fr as dateLocale } from "date-fns/locale/fr";
