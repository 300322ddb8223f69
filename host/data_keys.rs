//! The purge keys a page's data names: each answer a page's loader had names the data it
//! gave in its `Surrogate-Key` (an upstream's own, or the built-in API's, `language-en`),
//! and the page carries them after its family's keys (`purge_keys`), so that a purge of
//! one piece of data drops exactly the pages that showed it.
//!
//! They come from an API's answer, never from the visitor, and are read strictly: a key is
//! 1 to [`LONGEST`] bytes of `[a-z0-9._-]` (a header, a Varnish `xkey`, a Cloudflare tag
//! and a log line can all hold it as it is); at most [`PER_ANSWER`] are taken from one
//! answer and [`PER_PAGE`] from all of a page's; a key that names what the host's own keys
//! name (a build, a family, a language, a route: [`is_the_hosts`]) is refused, since a
//! purge of that name must select what the host says it does (`lang-en` the English pages,
//! never a French page whose upstream said `lang-en`). What is dropped is logged, once a
//! process for each reason.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::http::{HeaderMap, HeaderName};

/// The longest key, in bytes.
pub const LONGEST: usize = 64;
/// The most keys taken from one answer.
pub const PER_ANSWER: usize = 16;
/// The most keys a page carries from all its answers.
pub const PER_PAGE: usize = 32;

/// The families of answers the host names (`purge_keys`): each is a key, and each name
/// followed by `-` starts one (`pages-build-ID`).
const FAMILIES: [&str; 4] = ["pages", "assets", "crawlers", "api"];
/// What the host's other keys start with: a build, a language, a route.
const THE_HOSTS_PREFIXES: [&str; 3] = ["build-", "lang-", "route-"];

const SURROGATE_KEY: HeaderName = HeaderName::from_static("surrogate-key");

/// A page's (or one answer's) data keys, in the order they first came, each once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DataKeys(Arc<[Box<str>]>);

/// Why a key was dropped; each is logged the first time only.
#[derive(Clone, Copy)]
enum Dropped {
    NotAKey,
    TheHosts,
    PastTheAnswersBound,
    PastThePagesBound,
}

impl Dropped {
    fn why(self) -> &'static str {
        match self {
            Dropped::NotAKey => "not 1 to 64 bytes of [a-z0-9._-]",
            Dropped::TheHosts => {
                "a name of the host's own keys (a build, family, language or route)"
            }
            Dropped::PastTheAnswersBound => "past the 16 keys taken from one answer",
            Dropped::PastThePagesBound => "past the 32 keys a page carries",
        }
    }
}

static LOGGED: [AtomicBool; 4] = [const { AtomicBool::new(false) }; 4];

fn dropped(reason: Dropped, key: &[u8], from: &dyn std::fmt::Display) {
    if LOGGED[reason as usize].swap(true, Ordering::Relaxed) {
        return;
    }
    let key = String::from_utf8_lossy(&key[..key.len().min(LONGEST + 16)]);
    let from = from.to_string();
    tracing::warn!(
        key = %key.escape_debug(),
        from = %from.escape_debug(),
        why = reason.why(),
        "a data key was dropped (logged once a process for this reason)"
    );
}

/// Whether `key` names what one of the host's own keys names.
pub fn is_the_hosts(key: &str) -> bool {
    FAMILIES.iter().any(|family| {
        key == *family
            || key
                .strip_prefix(family)
                .is_some_and(|rest| rest.starts_with('-'))
    }) || THE_HOSTS_PREFIXES
        .iter()
        .any(|prefix| key.starts_with(prefix))
}

/// `key` as a data key, or why it cannot be one.
fn checked(key: &[u8]) -> Result<&str, Dropped> {
    let allowed = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b".-_".contains(b);
    if key.is_empty() || key.len() > LONGEST || !key.iter().all(allowed) {
        return Err(Dropped::NotAKey);
    }
    let key = std::str::from_utf8(key).expect("ASCII");
    match is_the_hosts(key) {
        true => Err(Dropped::TheHosts),
        false => Ok(key),
    }
}

impl DataKeys {
    /// The keys an answer's `Surrogate-Key` fields name (space-separated); `from` names the
    /// answer in the log.
    pub fn of_answer(headers: &HeaderMap, from: &str) -> Self {
        let mut keys: Vec<Box<str>> = Vec::new();
        let named = headers
            .get_all(SURROGATE_KEY)
            .iter()
            .flat_map(|value| value.as_bytes().split(|b| *b == b' ' || *b == b'\t'))
            .filter(|key| !key.is_empty());
        for key in named {
            match checked(key) {
                Err(reason) => dropped(reason, key, &from),
                Ok(key) if keys.iter().any(|kept| &**kept == key) => {}
                Ok(key) if keys.len() == PER_ANSWER => {
                    dropped(Dropped::PastTheAnswersBound, key.as_bytes(), &from)
                }
                Ok(key) => keys.push(key.into()),
            }
        }
        Self(keys.into())
    }

    /// The built-in API's own key for its answer (`language-en`): made by the host from its
    /// own names, and checked all the same.
    pub fn own(key: &str) -> Option<Self> {
        checked(key.as_bytes())
            .ok()
            .map(|key| Self(Arc::new([key.into()])))
    }

    /// These keys and then `more`'s, each once, at most [`PER_PAGE`]; `from` names the page
    /// in the log.
    pub fn and(&self, more: &DataKeys, from: &dyn std::fmt::Display) -> Self {
        if more.is_empty() {
            return self.clone();
        }
        let mut keys: Vec<Box<str>> = self.0.to_vec();
        for key in more.iter() {
            if keys.iter().any(|kept| &**kept == key) {
                continue;
            }
            match keys.len() < PER_PAGE {
                true => keys.push(key.into()),
                false => dropped(Dropped::PastThePagesBound, key.as_bytes(), from),
            }
        }
        Self(keys.into())
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|key| &**key)
    }

    pub fn contains(&self, key: &str) -> bool {
        self.iter().any(|kept| kept == key)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The keys with `separator` between them.
    pub fn joined(&self, separator: &str) -> String {
        self.0.join(separator)
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn answer(fields: &[&[u8]]) -> DataKeys {
        let mut headers = HeaderMap::new();
        for field in fields {
            headers.append(SURROGATE_KEY, HeaderValue::from_bytes(field).unwrap());
        }
        DataKeys::of_answer(&headers, "/api/test")
    }

    fn listed(keys: &DataKeys) -> Vec<&str> {
        keys.iter().collect()
    }

    #[test]
    fn an_answer_names_its_keys_space_separated_in_one_field_or_several() {
        let keys = answer(&[b"language-en  item.42\tv_2", b"language-en other"]);
        assert_eq!(listed(&keys), ["language-en", "item.42", "v_2", "other"]);
        assert!(answer(&[]).is_empty());
        assert!(answer(&[b"   "]).is_empty());
    }

    #[test]
    fn a_key_is_short_lowercase_ascii_and_never_the_hosts() {
        let too_long = "k".repeat(LONGEST + 1);
        let longest = "k".repeat(LONGEST);
        let hostile: [&[u8]; 14] = [
            b"Language-EN",
            b"caf\xc3\xa9",
            b"a,b",
            b"a;b",
            b"%0d%0a",
            b"<script>",
            too_long.as_bytes(),
            b"build-ab12",
            b"pages",
            b"pages-build-ab12",
            b"lang-en",
            b"route-status",
            b"api",
            b"assets-previous",
        ];
        for key in hostile {
            assert!(
                answer(&[key]).is_empty(),
                "{:?}",
                String::from_utf8_lossy(key)
            );
        }
        for key in [
            "language-en",
            "pagesx",
            "api2",
            "building-7",
            "status",
            &longest,
        ] {
            assert_eq!(listed(&answer(&[key.as_bytes()])), [key]);
        }
    }

    #[test]
    fn an_answer_gives_at_most_sixteen_keys_and_a_page_carries_at_most_thirty_two() {
        let many: Vec<String> = (0..40).map(|i| format!("k{i}")).collect();
        let one = answer(&[many.join(" ").as_bytes()]);
        assert_eq!(
            listed(&one),
            many[..PER_ANSWER]
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
        );
        let other = answer(&[many[16..].join(" ").as_bytes()]);
        let third = answer(&[many[32..].join(" ").as_bytes()]);
        let page = DataKeys::default()
            .and(&one, &"/fr/x")
            .and(&one, &"/fr/x")
            .and(&other, &"/fr/x")
            .and(&third, &"/fr/x");
        assert_eq!(
            listed(&page),
            many[..PER_PAGE]
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn the_log_says_the_bounds_there_are() {
        let said = |reason: Dropped| reason.why().to_string();
        assert!(said(Dropped::NotAKey).contains(&format!("1 to {LONGEST} bytes")));
        assert!(said(Dropped::PastTheAnswersBound).contains(&format!("{PER_ANSWER} keys")));
        assert!(said(Dropped::PastThePagesBound).contains(&format!("{PER_PAGE} keys")));
    }

    #[test]
    fn the_built_in_apis_own_keys_are_checked_too() {
        assert_eq!(
            listed(&DataKeys::own("language-en").unwrap()),
            ["language-en"]
        );
        assert!(DataKeys::own("language-fr-XA").is_none());
        assert!(DataKeys::own("lang-en").is_none());
    }
}
