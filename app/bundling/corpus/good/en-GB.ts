// A regional variant: what differs from en, its parent; the rest is en's, then fr's.
const enGB = {
  "page.title": "Home page",
};

export default enGB;

export { enGB as dateLocale } from "date-fns/locale/en-GB";
