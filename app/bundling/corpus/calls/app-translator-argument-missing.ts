// The app's own catalogue, through the translator the app makes.
import { createTranslator } from "../../../i18n/translate";
import fr from "../../../i18n/tables/fr";

export const text = createTranslator(fr, "fr-FR")("home.clicks"); // expect: Expected 2 arguments, but got 1
