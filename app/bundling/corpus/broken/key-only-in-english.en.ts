// expect error: message "page.titel" is only in en
const en = {
  "page.titel": "Home",
  "cart.items": "{count, plural, one {# item} other {# items}}",
  "cart.total": "Total: {amount, number, ::currency/EUR}",
  "user.greeting": "Hello {name}!",
  "user.pronoun": "{gender, select, female {She} male {He} other {They}} answered.",
  "race.rank": "{rank, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place",
  "build.line": "Version {version} of {date}",
};

export default en;

export { enUS as dateLocale } from "date-fns/locale/en-US";
