// expect error: message "user.pronoun" (en) takes gender: "female" | "other", but in fr it takes gender: "female" | "male" | "other"
const en = {
  "page.title": "Home",
  "cart.items": "{count, plural, one {# item} other {# items}}",
  "cart.total": "Total: {amount, number, ::currency/EUR}",
  "user.greeting": "Hello {name}!",
  "user.pronoun": "{gender, select, female {She} other {They}} answered.",
  "race.rank": "{rank, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place",
  "build.line": "Version {version} of {date}",
};

export default en;

export { enUS as dateLocale } from "date-fns/locale/en-US";
