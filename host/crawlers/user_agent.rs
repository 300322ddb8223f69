//! Tells a crawler's user agent from a person's, by isbot's list, which the build made ready
//! for this host's engines (`app/bundling/crawlers.mjs`): when a render fails, a crawler is
//! told to come back (503) instead of indexing an empty page.

use axum::http::{HeaderMap, header};

use crate::manifest::{CrawlerList, LookaroundPattern};

/// Tells a crawler's user agent from a browser's, on every page a person asks for (it
/// decides whether the page may stream), so it must cost next to nothing. Most of isbot's
/// patterns are plain: they are matched together by a linear-time engine, in one pass. The
/// few with lookarounds go to a backtracking engine, each alone, and only when the same
/// pattern without its lookarounds (which can only match more) matched in that pass too.
/// Measured in the test build, on a browser's user agent: ~0.2 µs, where one alternation
/// of every pattern in the backtracking engine took ~1 ms (48 ms for 14 KB of `a `), and
/// the six lookaround patterns alone 35 µs.
pub struct CrawlerTest {
    plain: regex::Regex,
    /// Each lookaround pattern without its lookarounds, matched together.
    relaxed: regex::RegexSet,
    lookarounds: Vec<fancy_regex::Regex>,
}

/// A user agent is read this far at most: no browser's is longer, and the rest could
/// only be there to make the match expensive.
pub const USER_AGENT_READ: usize = 1024;

impl CrawlerTest {
    /// Compiles the patterns the build made ready (`app/bundling/crawlers.mjs`), then checks
    /// them against isbot's own verdicts on the build's samples.
    pub fn new(list: &CrawlerList) -> Result<Self, String> {
        let any = list
            .plain
            .iter()
            .map(|pattern| format!("(?:{pattern})"))
            .collect::<Vec<_>>()
            .join("|");
        let plain = regex::Regex::new(&format!("(?i){any}"))
            .map_err(|e| format!("the crawler list does not compile: {e}"))?;
        let relaxed = regex::RegexSet::new(
            list.lookarounds
                .iter()
                .map(|pattern| format!("(?i){}", pattern.relaxed)),
        )
        .map_err(|e| format!("the crawler list does not compile without lookarounds: {e}"))?;
        let lookarounds = list
            .lookarounds
            .iter()
            .map(|LookaroundPattern { pattern, .. }| {
                fancy_regex::Regex::new(&format!("(?i){pattern}"))
                    .map_err(|e| format!("the crawler pattern {pattern:?} does not compile: {e}"))
            })
            .collect::<Result<_, _>>()?;
        let test = Self {
            plain,
            relaxed,
            lookarounds,
        };
        for (agent, crawler) in &list.samples {
            if test.is_crawler_agent(agent) != *crawler {
                return Err(format!(
                    "the crawler list and isbot disagree on {agent:?} (isbot: {crawler})"
                ));
            }
        }
        Ok(test)
    }

    fn is_crawler_agent(&self, agent: &str) -> bool {
        let mut end = agent.len().min(USER_AGENT_READ);
        while !agent.is_char_boundary(end) {
            end -= 1;
        }
        let agent = &agent[..end];
        // A user agent the backtracking engine gives up on (its limit) is a person's.
        self.plain.is_match(agent)
            || self
                .relaxed
                .matches(agent)
                .iter()
                .any(|index| self.lookarounds[index].is_match(agent).unwrap_or(false))
    }

    pub fn is_crawler(&self, headers: &HeaderMap) -> bool {
        headers
            .get(header::USER_AGENT)
            .and_then(|agent| agent.to_str().ok())
            .is_some_and(|agent| self.is_crawler_agent(agent))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    use crate::manifest::EMBEDDED;
    use crate::test_support::node;

    #[test]
    fn the_crawler_test_agrees_with_isbot_on_its_samples() {
        let list = &EMBEDDED.crawlers;
        assert!(
            list.plain.len() > 100 && !list.lookarounds.is_empty(),
            "isbot's list: {} plain, {} with lookarounds",
            list.plain.len(),
            list.lookarounds.len()
        );
        let test = CrawlerTest::new(list).unwrap();
        let mut crawlers = 0;
        for (agent, expected) in &list.samples {
            let mut headers = HeaderMap::new();
            headers.insert(header::USER_AGENT, HeaderValue::from_str(agent).unwrap());
            assert_eq!(test.is_crawler(&headers), *expected, "{agent}");
            crawlers += usize::from(*expected);
        }
        assert!(
            crawlers > 0 && crawlers < list.samples.len(),
            "both kinds are sampled"
        );
        assert!(
            !test.is_crawler(&HeaderMap::new()),
            "no user agent: a person"
        );
    }

    /// isbot's own corpus, one user agent a line: its fixtures `crawlers.yml` and
    /// `browsers.yml` (isbot 5.2.1), 623 crawlers and 555 browsers.
    const CORPUS: &str = "tests/fixtures/isbot-user-agents.txt";

    #[test]
    fn the_crawler_test_agrees_with_isbot_on_isbots_own_corpus() {
        let verdicts: Vec<(String, bool)> = serde_json::from_str(&node(
            r#"import { isbot } from "isbot";
            import { readFileSync } from "node:fs";
            const agents = readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean);
            process.stdout.write(JSON.stringify(agents.map((agent) => [agent, isbot(agent)])));"#,
            &[CORPUS],
        ))
        .unwrap();
        let crawlers = verdicts.iter().filter(|(_, crawler)| *crawler).count();
        assert!(
            crawlers > 500 && verdicts.len() - crawlers > 500,
            "{crawlers} crawlers of {}",
            verdicts.len()
        );
        let test = CrawlerTest::new(&EMBEDDED.crawlers).unwrap();
        let disagreements: Vec<&(String, bool)> = verdicts
            .iter()
            .filter(|(agent, crawler)| test.is_crawler_agent(agent) != *crawler)
            .collect();
        assert!(
            disagreements.is_empty(),
            "isbot's verdict, then the user agent: {disagreements:#?}"
        );
    }

    #[test]
    fn the_build_loosens_a_lookaround_pattern_by_taking_its_lookarounds_out() {
        let cases = [
            ("(?<!cam)scan", "scan"),
            ("java(?!;)", "java"),
            (
                r"(?<! channel/)(?<!google/)google(?!(?:wv|app|/google| pixel))",
                "google",
            ),
            (r"(?:^|[^g])news(?!sapphire)", "(?:^|[^g])news"),
            (r"a\(?!b)c[(?!]x(?!y)", r"a\(?!b)c[(?!]x"),
        ];
        let loosened: Vec<String> = serde_json::from_str(&node(
            r#"import { withoutLookarounds } from "./app/bundling/crawlers.mjs";
            const patterns = JSON.parse(process.argv[1]);
            process.stdout.write(JSON.stringify(patterns.map(withoutLookarounds)));"#,
            &[&serde_json::to_string(&cases.map(|(pattern, _)| pattern)).unwrap()],
        ))
        .unwrap();
        assert_eq!(loosened, cases.map(|(_, loose)| loose));
        for pattern in &EMBEDDED.crawlers.lookarounds {
            assert!(
                !["(?=", "(?!", "(?<=", "(?<!"]
                    .iter()
                    .any(|look| pattern.relaxed.contains(look)),
                "{pattern:?}"
            );
        }
    }

    /// The time one check takes, in the fastest of five rounds of `checks`: a round the
    /// scheduler interrupted (the tests share two cores with the rest) does not count.
    fn fastest_of_five_rounds(checks: u32, check: impl Fn() -> bool) -> std::time::Duration {
        (0..5)
            .map(|_| {
                let started = std::time::Instant::now();
                for _ in 0..checks {
                    std::hint::black_box(check());
                }
                started.elapsed() / checks
            })
            .min()
            .expect("five rounds")
    }

    #[test]
    fn a_browsers_user_agent_is_told_at_once() {
        let test = CrawlerTest::new(&EMBEDDED.crawlers).unwrap();
        let mut headers = HeaderMap::new();
        headers.insert(
            header::USER_AGENT,
            HeaderValue::from_static(
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
            ),
        );
        assert!(!test.is_crawler(&headers));
        let each = fastest_of_five_rounds(1000, || test.is_crawler(&headers));
        // ~0.2 µs in the test build; the backtracking engine took ~1 ms.
        assert!(
            each < std::time::Duration::from_micros(20),
            "{each:?} per check"
        );
    }

    #[test]
    fn a_user_agent_built_to_be_slow_to_match_is_read_quickly() {
        let test = CrawlerTest::new(&EMBEDDED.crawlers).unwrap();
        let mut headers = HeaderMap::new();
        let hostile = format!("{}!", "a ".repeat(7000));
        headers.insert(header::USER_AGENT, HeaderValue::from_str(&hostile).unwrap());
        test.is_crawler(&headers);
        // 48 ms each with one backtracking alternation; here, well under a millisecond.
        let each = fastest_of_five_rounds(20, || test.is_crawler(&headers));
        assert!(
            each < std::time::Duration::from_millis(5),
            "{each:?} per match"
        );
    }
}
