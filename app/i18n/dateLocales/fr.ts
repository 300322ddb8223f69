export { fr as default } from "date-fns/locale/fr";
