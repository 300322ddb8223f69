// Module kinds esbuild bundles that TypeScript does not know by itself.
declare module "*.css";
