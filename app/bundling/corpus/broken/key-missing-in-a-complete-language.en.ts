// expect error: message "user.greeting" is missing in en, which is complete
// complete: true
const en = {
  "page.title": "Home",
  "cart.items": "{count, plural, one {# item} other {# items}}",
  "cart.total": "Total: {amount, number, ::currency/EUR}",
  "user.pronoun": "{gender, select, female {She} male {He} other {They}} answered.",
  "race.rank": "{rank, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place",
  "build.line": "Version {version} of {date}",
};

export default en;

export { enUS as dateLocale } from "date-fns/locale/en-US";
