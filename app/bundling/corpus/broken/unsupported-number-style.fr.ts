// expect error: message "cart.total" (fr) formats "amount" with the number style "money"
const fr = {
  "page.title": "Accueil",
  "cart.items": "{count, plural, one {# article} many {# d’articles} other {# articles}}",
  "cart.total": "Total : {amount, number, money}",
  "user.greeting": "Bonjour {name} !",
  "user.pronoun": "{gender, select, female {Elle} male {Il} other {Iel}} a répondu.",
  "race.rank": "{rank, selectordinal, one {#re} other {#e}} place",
  "build.line": "Version {version} du {date}",
};

export default fr;

export { fr as dateLocale } from "date-fns/locale/fr";
