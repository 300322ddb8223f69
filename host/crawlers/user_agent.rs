//! Tells a crawler's user agent from a person's, by isbot's list as the build read it: when
//! a render fails, a crawler is told to come back (503) instead of indexing an empty page.

use axum::http::{HeaderMap, header};

use crate::manifest::CrawlerList;

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
const USER_AGENT_READ: usize = 1024;

impl CrawlerTest {
    pub fn new(list: &CrawlerList) -> Result<Self, String> {
        let (lookarounds, plain): (Vec<&String>, Vec<&String>) =
            list.patterns.iter().partition(|pattern| {
                ["(?<", "(?=", "(?!"]
                    .iter()
                    .any(|look| pattern.contains(look))
            });
        let any = plain
            .iter()
            .map(|pattern| format!("(?:{pattern})"))
            .collect::<Vec<_>>()
            .join("|");
        let plain = regex::Regex::new(&format!("(?i){any}"))
            .map_err(|e| format!("the crawler list does not compile: {e}"))?;
        let relaxed = regex::RegexSet::new(
            lookarounds
                .iter()
                .map(|pattern| format!("(?i){}", without_lookarounds(pattern))),
        )
        .map_err(|e| format!("the crawler list does not compile without lookarounds: {e}"))?;
        let lookarounds = lookarounds
            .iter()
            .map(|pattern| {
                fancy_regex::Regex::new(&format!("(?i){pattern}"))
                    .map_err(|e| format!("the crawler pattern {pattern:?} does not compile: {e}"))
            })
            .collect::<Result<_, _>>()?;
        let test = Self {
            plain,
            relaxed,
            lookarounds,
        };
        // The patterns were rewritten for these engines: they must agree with isbot itself.
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

/// `pattern` with its lookaround groups (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`) taken out:
/// a pattern that matches wherever `pattern` does, and more.
fn without_lookarounds(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut in_class = false;
    let mut chars = pattern.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let rest = &pattern[at..];
        if !in_class
            && ["(?=", "(?!", "(?<=", "(?<!"]
                .iter()
                .any(|look| rest.starts_with(look))
        {
            let end = at + group_length(rest);
            while chars.peek().is_some_and(|(next, _)| *next < end) {
                chars.next();
            }
            continue;
        }
        out.push(c);
        match c {
            // An escape is copied whole: `\(` opens no group, `\]` closes no class.
            '\\' => out.extend(chars.next().map(|(_, escaped)| escaped)),
            '[' => in_class = true,
            ']' => in_class = false,
            _ => {}
        }
    }
    out
}

/// The length of the group `text` starts with, up to its closing parenthesis (escapes and
/// character classes taken into account).
fn group_length(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut in_class, mut at) = (0usize, false, 0);
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'(' if !in_class => depth += 1,
            b')' if !in_class => {
                depth -= 1;
                if depth == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
        at += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    use crate::manifest::EMBEDDED;

    #[test]
    fn the_crawler_test_agrees_with_isbot_on_its_samples() {
        let list = &EMBEDDED.crawlers;
        assert!(
            list.patterns.len() > 100,
            "isbot's list: {}",
            list.patterns.len()
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

    #[test]
    fn a_lookaround_pattern_is_loosened_without_its_lookarounds() {
        assert_eq!(without_lookarounds("(?<!cam)scan"), "scan");
        assert_eq!(without_lookarounds("java(?!;)"), "java");
        assert_eq!(
            without_lookarounds(r"(?<! channel/)(?<!google/)google(?!(?:wv|app|/google| pixel))"),
            "google"
        );
        assert_eq!(
            without_lookarounds(r"(?:^|[^g])news(?!sapphire)"),
            "(?:^|[^g])news"
        );
        assert_eq!(
            without_lookarounds(r"a\(?!b)c[(?!]x(?!y)"),
            r"a\(?!b)c[(?!]x"
        );
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
        let started = std::time::Instant::now();
        for _ in 0..1000 {
            test.is_crawler(&headers);
        }
        let each = started.elapsed() / 1000;
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
        let started = std::time::Instant::now();
        for _ in 0..20 {
            test.is_crawler(&headers);
        }
        // 48 ms each with one backtracking alternation; here, well under a millisecond.
        let each = started.elapsed() / 20;
        assert!(
            each < std::time::Duration::from_millis(5),
            "{each:?} per match"
        );
    }
}
