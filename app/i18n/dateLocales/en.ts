export { enUS as default } from "date-fns/locale/en-US";
