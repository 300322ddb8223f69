// expect error: message "cart.items" (fr): its plural on "count" lacks many, other of fr-FR's categories (many, one, other), and has no `other`
const fr = {
  "page.title": "Accueil",
  "cart.items": "{count, plural, one {# article}}",
  "cart.total": "Total : {amount, number, ::currency/EUR}",
  "user.greeting": "Bonjour {name} !",
  "user.pronoun": "{gender, select, female {Elle} male {Il} other {Iel}} a répondu.",
  "race.rank": "{rank, selectordinal, one {#re} other {#e}} place",
  "build.line": "Version {version} du {date}",
};

export default fr;

export { fr as dateLocale } from "date-fns/locale/fr";
