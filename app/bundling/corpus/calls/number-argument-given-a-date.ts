import type { TranslateOf } from "../../../i18n/translate";
import type { Messages } from "./messages.generated";

declare const t: TranslateOf<Messages>;

export const text = t("race.rank", { rank: new Date() }); // expect: Type 'Date' is not assignable to type 'number'
