// Module kinds esbuild bundles that TypeScript does not know by itself.
declare module "*.css";

// Which messages each page ships (app/bundling/message-groups.mjs), for the server bundle to
// render each page with them; null in a bundle built without them.
declare module "bilingue:message-groups" {
  const groups: { firstLoad: readonly string[]; routes: Readonly<Record<string, readonly string[]>> } | null;
  export default groups;
}
