import type { TranslateOf } from "../../../i18n/translate";
import type { Messages } from "./messages.generated";

declare const t: TranslateOf<Messages>;

const section = "page";
export const text = t(`${section}.title` as string); // expect: Argument of type 'string' is not assignable to parameter of type 'keyof Messages'
