// isbot's list of crawler user agents, made ready for the host's regex engines here, once:
// the host compiles what this writes into the manifest (host/crawlers/user_agent.rs) and
// rewrites nothing. Its tests prove the two agree with isbot itself on isbot's own corpus.
import { isbot, list as isbotList } from "isbot";

const LOOKAROUNDS = ["(?=", "(?!", "(?<=", "(?<!"];

/**
 * The manifest's `crawlers`: isbot's patterns in the syntax of Rust's `regex` crate, apart
 * from those with lookarounds, which only fancy-regex (backtracking) can run; each of those
 * comes with itself without its lookarounds (`relaxed`, for `regex`), which matches
 * wherever it does and more, so the host runs the slow engine only after the fast one
 * matched. With them, user agents and isbot's own verdict on each, checked at every start.
 */
export function crawlerRules() {
  const patterns = isbotList.map(forRust);
  const withLookarounds = (pattern) => LOOKAROUNDS.some((look) => pattern.includes(look));
  return {
    plain: patterns.filter((pattern) => !withLookarounds(pattern)),
    lookarounds: patterns.filter(withLookarounds).map((pattern) => ({ pattern, relaxed: withoutLookarounds(pattern) })),
    samples: SAMPLES.map((userAgent) => [userAgent, isbot(userAgent)]),
  };
}

/**
 * A JavaScript pattern of isbot's, as the Rust engines read it: a negative lookbehind with
 * alternatives of different lengths becomes one lookbehind per alternative (the same test),
 * and a `-` that JavaScript reads as a literal beside a class escape is escaped.
 */
export function forRust(pattern) {
  const splitLookbehinds = pattern.replace(/\(\?<!([^()]*)\)/g, (_, inner) =>
    inner.split("|").map((alternative) => `(?<!${alternative})`).join(""),
  );
  return splitLookbehinds.replace(/(\\[wdsWDS])-/g, "$1\\-").replace(/-(\\[wdsWDS])/g, "\\-$1");
}

/**
 * `pattern` with its lookaround groups (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`) taken out: a
 * pattern that matches wherever `pattern` does, and more.
 */
export function withoutLookarounds(pattern) {
  let out = "";
  let inClass = false;
  for (let at = 0; at < pattern.length; at++) {
    const rest = pattern.slice(at);
    if (!inClass && LOOKAROUNDS.some((look) => rest.startsWith(look))) {
      at += groupLength(rest) - 1;
      continue;
    }
    const c = pattern[at];
    out += c;
    if (c === "\\") {
      // An escape is copied whole: `\(` opens no group, `\]` closes no class.
      at++;
      if (at < pattern.length) out += pattern[at];
    } else if (c === "[") {
      inClass = true;
    } else if (c === "]") {
      inClass = false;
    }
  }
  return out;
}

/** The length of the group `text` starts with, up to its closing parenthesis (escapes and classes taken into account). */
function groupLength(text) {
  let depth = 0;
  let inClass = false;
  for (let at = 0; at < text.length; at++) {
    const c = text[at];
    if (c === "\\") at++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "(" && !inClass) depth++;
    else if (c === ")" && !inClass) {
      depth--;
      if (depth === 0) return at + 1;
    }
  }
  return text.length;
}

/** Crawlers and browsers the host checks itself against at start-up, with isbot's verdicts. */
const SAMPLES = [
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
  "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse",
  "curl/8.5.0",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0",
];
