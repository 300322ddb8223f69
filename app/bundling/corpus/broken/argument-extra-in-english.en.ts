// expect error: message "page.title" (en) takes name: string | number, but in fr it takes no argument
const en = {
  "page.title": "Home of {name}",
  "cart.items": "{count, plural, one {# item} other {# items}}",
  "cart.total": "Total: {amount, number, ::currency/EUR}",
  "user.greeting": "Hello {name}!",
  "user.pronoun": "{gender, select, female {She} male {He} other {They}} answered.",
  "race.rank": "{rank, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place",
  "build.line": "Version {version} of {date}",
};

export default en;

export { enUS as dateLocale } from "date-fns/locale/en-US";
