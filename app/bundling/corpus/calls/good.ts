import type { TranslateOf } from "../../../i18n/translate";
import type { Messages } from "./messages.generated";

declare const t: TranslateOf<Messages>;

// Every kind of call done right: no error.
export const texts = [
  t("page.title"),
  t("cart.items", { count: 3 }),
  t("cart.total", { amount: 12.5 }),
  t("user.greeting", { name: "Zoé" }),
  t("user.greeting", { name: 7 }),
  t("user.pronoun", { gender: "female" }),
  t("user.pronoun", { gender: "other" }),
  t("race.rank", { rank: 2 }),
  t("build.line", { version: "1.0", date: "1 mai" }),
  t.dynamic(`page.${"title"}`),
  t.dynamic("cart.items", { count: 1 }),
];
