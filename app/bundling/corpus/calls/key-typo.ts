import type { TranslateOf } from "../../../i18n/translate";
import type { Messages } from "./messages.generated";

declare const t: TranslateOf<Messages>;

export const text = t("page.titel"); // expect: Argument of type '"page.titel"' is not assignable to parameter of type 'keyof Messages'
