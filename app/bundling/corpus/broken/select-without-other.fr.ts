// expect error: message "user.pronoun" (fr) selects on "gender" without an `other` case
const fr = {
  "page.title": "Accueil",
  "cart.items": "{count, plural, one {# article} many {# d’articles} other {# articles}}",
  "cart.total": "Total : {amount, number, ::currency/EUR}",
  "user.greeting": "Bonjour {name} !",
  "user.pronoun": "{gender, select, female {Elle} male {Il}} a répondu.",
  "race.rank": "{rank, selectordinal, one {#re} other {#e}} place",
  "build.line": "Version {version} du {date}",
};

export default fr;

export { fr as dateLocale } from "date-fns/locale/fr";
