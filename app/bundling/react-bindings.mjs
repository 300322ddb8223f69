// The app imports React's modules by name (`import { useContext } from "react"`, and the
// JSX runtime at every element). React ships them as CommonJS, so esbuild reads each such
// import through a getter of its interop wrapper, at every call: one getter shared by all
// the names, whose keyed read V8 cannot specialise. Here, for the app's own code, each of
// these modules is an ES module of constants, read from React's once, at load: a JSX
// element or a hook is then a direct call. React's own modules require each other as they are.
import { createRequire } from "node:module";
import path from "node:path";

const MODULES = /^react(?:\/jsx-runtime|\/jsx-dev-runtime)?$/;
const NAMESPACE = "react-bindings";

export function reactBindings(root) {
  const require = createRequire(path.join(root, "package.json"));
  return {
    name: "react-bindings",
    setup(b) {
      b.onResolve({ filter: MODULES }, (args) =>
        args.namespace === NAMESPACE || /[\\/]node_modules[\\/]/.test(args.importer) ? undefined : { path: args.path, namespace: NAMESPACE },
      );
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const names = Object.keys(require(args.path)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== "default");
        return {
          contents: `import * as react from ${JSON.stringify(args.path)};\nexport default react.default;\nexport const { ${names.join(", ")} } = react;\n`,
          resolveDir: root,
          loader: "js",
        };
      });
    },
  };
}
