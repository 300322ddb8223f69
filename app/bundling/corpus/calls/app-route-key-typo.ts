// The app's own catalogue: a route's title key is a key of it.
import type { Route } from "../../../routes";

export const route: Route = {
  screen: "home",
  status: 200,
  titleKey: "home.titel", // expect: Type '"home.titel"' is not assignable to type 'PlainKey'
  descriptionKey: "home.description",
  indexable: true,
  cacheable: true,
};
