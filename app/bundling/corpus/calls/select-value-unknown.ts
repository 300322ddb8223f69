import type { TranslateOf } from "../../../i18n/translate";
import type { Messages } from "./messages.generated";

declare const t: TranslateOf<Messages>;

export const text = t("user.pronoun", { gender: "feminine" }); // expect: Type '"feminine"' is not assignable to type '"female" | "male" | "other"'
