import assert from "node:assert/strict";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { renderToString } from "react-dom/server";
import type { ScreenData } from "./data/route";
import { hrefIn, pageOf } from "./data/router";
import { LanguageProvider } from "./i18n/LanguageProvider";
import { languageOf, languageUrl as languageUrlOf, stripLanguagePrefix } from "./i18n/languages";
import { loadResources } from "./i18n/resources";
import { bootMatch } from "./bootMatch";
import { landedOn, NavigationProvider, type ResolvePage, useNavigation } from "./navigation";
import { resolveRoute, ROUTES } from "./routes";

// V8's own view of an object, as the natives syntax gives it (compiled after the flag).
setFlagsFromString("--allow-natives-syntax");
const hasFastProperties = new Function("object", "return %HasFastProperties(object)") as (object: object) => boolean;

test("the screen's data is a fast object, made at every render without filling V8's old generation", async () => {
  const language = languageOf("fr");
  const resources = await loadResources(language);
  const seen: ScreenData<unknown>[] = [];
  function Probe() {
    seen.push(useNavigation().data);
    return null;
  }
  for (let n = 0; n < 2; n++) {
    renderToString(
      <LanguageProvider initialLanguage={language} initialResources={resources} load={loadResources} urlIn={() => null}>
        <NavigationProvider resolve={resolveRoute} pageOf={(page) => pageOf(ROUTES, page)} initial={{ match: resolveRoute(language, "/"), outcome: null, language }}>
          <Probe />
        </NavigationProvider>
      </LanguageProvider>,
    );
  }
  assert.equal(seen.length, 2);
  // An object literal with a getter is one in dictionary mode: one per page render made
  // V8 run a mark-compact every ~28,000 renders rather than one in 200,000 (1db61f0).
  for (const data of seen) assert.ok(hasFastProperties(data), "the data is in dictionary mode");
  assert.equal(seen[0].outcome, null);
});

test("the back and forward buttons land on the page the entry keeps where this build writes it there, else on the one its path names", async () => {
  const language = languageOf("fr");
  // The language's words for its routes' paths come with its module.
  await loadResources(language);
  const asked: string[] = [];
  const resolve: ResolvePage = (language, path, page) => {
    asked.push(page ? `page ${page.route}` : `path ${path}`);
    return bootMatch({ language, path, page });
  };
  // The URLs as this build writes them, whatever its words.
  const languagePage = { route: "languages", params: { code: "en" } };
  const languageUrl = hrefIn(pageOf(ROUTES, { to: "languages", params: { code: "en" } }), language);
  const statusUrl = hrefIn(pageOf(ROUTES, { to: "status" }), language);
  const statusPath = stripLanguagePrefix(statusUrl);
  // The languages page of "en", kept by its entry at its URL: no path is matched again.
  const kept = landedOn(resolve, language, languageUrl, languagePage);
  assert.equal(kept.name, "languages");
  assert.deepEqual(kept.params, { code: "en" });
  assert.deepEqual(asked.splice(0), ["page languages"]);
  // An entry nothing wrote, one of a route this build does not declare, one whose page this
  // build writes at another URL (an earlier build's), and a not-found entry (this build
  // may have a route there now): the path says.
  assert.equal(landedOn(resolve, language, statusUrl, undefined).name, "status");
  assert.equal(landedOn(resolve, language, statusUrl, { route: "gone", params: {} }).name, "status");
  assert.equal(landedOn(resolve, language, statusUrl, languagePage).name, "status");
  assert.equal(landedOn(resolve, language, statusUrl, { route: null, params: {}, asked: statusPath }).name, "status");
  const nowhere = "/nowhere-0f-this-site";
  const missing = landedOn(resolve, language, languageUrlOf(language, nowhere), { route: null, params: {}, asked: nowhere });
  assert.equal(missing.name, null);
  assert.equal(missing.asked, nowhere);
  const byPath = [`path ${statusPath}`, "page gone", `path ${statusPath}`, "page languages", `path ${statusPath}`, `path ${statusPath}`, `path ${nowhere}`];
  assert.deepEqual(asked, byPath);
});
