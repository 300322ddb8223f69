import type { TranslateOf } from "../../../i18n/translate";
import type { Messages } from "./messages.generated";

declare const t: TranslateOf<Messages>;

export const text = t("user.greeting", { nme: "Zoé" }); // expect: 'nme' does not exist in type '{ name: string | number; }'
