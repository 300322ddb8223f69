// The app's own catalogue: a route's title key is a key of it.
import { eager, type RouteWithoutData } from "../../../data/route";

export const route: RouteWithoutData = {
  path: "/",
  screen: eager({ default: () => null }),
  titleKey: "home.titel", // expect: Type '"home.titel"' is not assignable to type 'PlainKey'
  descriptionKey: "home.description",
  indexable: true,
  sharing: { kind: "public" },
};
