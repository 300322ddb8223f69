import type { TranslateOf } from "../../../i18n/translate";
import type { Messages } from "./messages.generated";

declare const t: TranslateOf<Messages>;

export const text = t("page.title", { count: 1 }); // expect: Expected 1 arguments, but got 2
