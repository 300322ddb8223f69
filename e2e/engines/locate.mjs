// Finding elements as a person names them (by role and accessible name, by label, or by
// selector and text), in the page, the same way in every engine. A simplification of the
// accessible-name rules that covers what this app renders.

/**
 * @typedef {{
 *   role?: "button" | "link" | "heading" | "combobox" | "status" | "alert",
 *   name?: string,
 *   label?: string,
 *   css?: string,
 *   text?: string,
 * }} Query
 * `name` and `label` match the whole accessible name; `text` a part of the text content.
 */

/**
 * Runs in the page: the visible elements matching `query`, in document order.
 * @param {Query} query
 * @returns {Element[]}
 */
function locate(query) {
  const ROLES = {
    button: 'button, input[type="button"], input[type="submit"], input[type="reset"], [role="button"]',
    link: 'a[href], [role="link"]',
    heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
    combobox: 'select:not([multiple]), [role="combobox"]',
    status: '[role="status"]',
    alert: '[role="alert"]',
  };
  const NAMED_BY_CONTENT = ["button", "link", "heading"];
  const squash = (/** @type {string | null | undefined} */ text) => (text ?? "").replace(/\s+/g, " ").trim();
  const labelOf = (/** @type {Element} */ el) => {
    if (el.getAttribute("aria-label")) return squash(el.getAttribute("aria-label"));
    const by = el.getAttribute("aria-labelledby");
    if (by) return squash(by.split(/\s+/).map((id) => document.getElementById(id)?.textContent).join(" "));
    const labels = /** @type {HTMLInputElement} */ (el).labels;
    if (labels && labels.length) return squash([...labels].map((l) => l.textContent).join(" "));
    return null;
  };
  const nameOf = (/** @type {Element} */ el, /** @type {string | undefined} */ role) => {
    const label = labelOf(el);
    if (label !== null) return label;
    return role && NAMED_BY_CONTENT.includes(role) ? squash(el.textContent) : "";
  };
  const visible = (/** @type {Element} */ el) =>
    !el.closest('[aria-hidden="true"]') &&
    (typeof el.checkVisibility === "function" ? el.checkVisibility() : el.getClientRects().length > 0);

  const selector = query.css ?? (query.role ? ROLES[query.role] : "*");
  return [...document.querySelectorAll(selector)].filter(
    (el) =>
      visible(el) &&
      (query.name === undefined || nameOf(el, query.role) === query.name) &&
      (query.label === undefined || labelOf(el) === query.label) &&
      (query.text === undefined || squash(el.textContent).includes(query.text)),
  );
}

/** An expression for the page: the elements matching `query`. */
export const matching = (/** @type {Query} */ query) => `(${locate})(${JSON.stringify(query)})`;

/** Says `query` as a person would, for messages. */
export const describeQuery = (/** @type {Query} */ query) => JSON.stringify(query);
