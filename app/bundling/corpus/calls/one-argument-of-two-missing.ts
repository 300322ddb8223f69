import type { TranslateOf } from "../../../i18n/translate";
import type { Messages } from "./messages.generated";

declare const t: TranslateOf<Messages>;

export const text = t("build.line", { version: "1.0" }); // expect: Property '"date"' is missing
