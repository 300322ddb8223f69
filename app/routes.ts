// The screens of the app by path (without the language prefix). Shared by server and client.
export type Screen = "home" | "notFound";

export interface Route {
  screen: Screen;
  status: 200 | 404;
  titleKey: string;
  /** The render depends only on (path, language, build): the host may cache it. */
  cacheable: boolean;
}

const routes: Record<string, Route> = {
  "/": { screen: "home", status: 200, titleKey: "home.title", cacheable: true },
};

const notFound: Route = { screen: "notFound", status: 404, titleKey: "notFound.title", cacheable: true };

export function resolveRoute(pathWithoutPrefix: string): Route {
  return Object.prototype.hasOwnProperty.call(routes, pathWithoutPrefix) ? routes[pathWithoutPrefix] : notFound;
}
