// Partial prerendering as a person meets it, in every engine: a page whose shell the host
// kept (its second visit) ends as the same document a host without prerendering gives,
// for every route; hydration is clean and the page's policy blocks nothing.
import assert from "node:assert/strict";
import { inEachEngine } from "./engines/index.mjs";
import { appPage, startHost } from "./support.mjs";

const NOT_FOUND = "/en/nowhere";
const A_PERSON = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
/** Every route in every language (at its path there), and a page not found. */
const paths = async () => [
  ...(await Promise.all(
    ["fr", "en"].flatMap((language) => [appPage(language, "home"), appPage(language, "status"), appPage(language, "languages", { code: "en" })]),
  )),
  NOT_FOUND,
];

/** The document a browser ends with, as comparable text: what varies with the clock or the answer (the server's time, nonces) taken out. */
async function finalDocument(page, path) {
  // A public page may come from the browser's cache the second time: the same document.
  await page.goto(path);
  await page.idle();
  await page.hydrated();
  // React has put every part that waited in its place.
  await page.waitUntil(() => !document.querySelector('#app template[id^="B:"], #app [hidden][id^="S:"]'));
  // And the app has shown what it adds once hydrated (the notifications' region).
  await page.waitFor({ css: "#app .notifications" });
  const html = await page.evaluate(
    () => `<html lang="${document.documentElement.lang}"><title>${document.title}</title>${document.getElementById("app").outerHTML}`,
  );
  // A page not found says so in the console of some engines: that is its status, not a problem.
  const problems = (await page.problems()).filter((problem) => !(path === NOT_FOUND && /\b404\b/.test(problem)));
  assert.deepEqual(problems, [], `${path}: a clean console and no policy violation`);
  return html
    .replace(/<time[^>]*>[^<]*<\/time>/g, "<time/>")
    .replace(/ nonce="[^"]*"/g, "");
}

/** By engine: the documents of the host that keeps shells, to compare with the one that does not. */
const prerendered = new Map();

// Its kept shells sent at once (`--shell-hold 0s`): with data this quick, a held shell would
// let the page go whole, which is the third path's document, not a resumed one.
inEachEngine({ site: () => startHost(["--render-threads", "1", "--shell-hold", "0s"]) }, ({ engine, scenario }) => {
  scenario("every route, its shell kept, ends as the document a whole render gives (prerender on)", async ({ page, site }) => {
    const documents = {};
    for (const path of await paths()) {
      // A person's first visit makes the page's shell, if it streams; the browser's is from the kept one.
      await (await fetch(site.baseUrl + path, { headers: { "user-agent": A_PERSON } })).text();
      documents[path] = await finalDocument(page, path);
    }
    prerendered.set(engine, documents);
  });
});

inEachEngine({ site: () => startHost(["--render-threads", "1", "--prerender", "off"]) }, ({ engine, scenario }) => {
  scenario("the same routes with --prerender off: the same documents", async ({ page }) => {
    const documents = prerendered.get(engine);
    assert.ok(documents, "the prerendered documents were taken first");
    for (const path of await paths()) assert.equal(documents[path], await finalDocument(page, path), path);
  });
});
