import type { TranslateOf } from "../../../i18n/translate";
import type { Messages } from "./messages.generated";

declare const t: TranslateOf<Messages>;

export const text = t("cart.items", { count: "3" }); // expect: Type 'string' is not assignable to type 'number'
