// expect error: message "user.greeting" (fr) has an apostrophe at column 13 that quotes {name…} as text
const fr = {
  "page.title": "Accueil",
  "cart.items": "{count, plural, one {# article} many {# d’articles} other {# articles}}",
  "cart.total": "Total : {amount, number, ::currency/EUR}",
  "user.greeting": "Le message d'{name}' !",
  "user.pronoun": "{gender, select, female {Elle} male {Il} other {Iel}} a répondu.",
  "race.rank": "{rank, selectordinal, one {#re} other {#e}} place",
  "build.line": "Version {version} du {date}",
};

export default fr;

export { fr as dateLocale } from "date-fns/locale/fr";
