import type { TranslateOf } from "../../../i18n/translate";
import type { Messages } from "./messages.generated";

declare const t: TranslateOf<Messages>;

export const text = t("cart.items"); // expect: Expected 2 arguments, but got 1
