//! Which of the site's languages a visitor's `Accept-Language` asks for: RFC 4647 §3.4
//! lookup. The ranges are taken by weight (the highest `q` first, the earlier of equal
//! ones; `q=0` is "not this"), and each is truncated subtag by subtag until it is one of
//! the site's tags (`fr-CA-x-y` → `fr-CA` → `fr`); the first range that reaches one wins.
//! Lookup truncates the range, never the site's tags: `pt-BR` does not reach `pt-PT`, and
//! `fr` does not reach `fr-CA`. The wildcard `*` stands for the site's default language.
//!
//! The header is anyone's bytes, so it is read strictly and within bounds: its fields as
//! one list (RFC 9110 §5.3), the elements wholly within its first `READ_AT_MOST` bytes, the
//! first `ELEMENTS_AT_MOST` of them, and an element that is not exactly `language-range
//! [weight]` (RFC 4647 §2.1, RFC 9110 §12.4.2 and §12.5.4) is skipped. What it leaves out
//! is what a browser never sends. Reading the header reduced to one tag gives that tag
//! again, so a cache may reduce it first (`deploy/varnish.vcl` does, the same way: its
//! block is generated from these constants, `super::varnish_vcl`).

use std::borrow::Cow;

/// Past this many bytes, only the elements that end within them are read.
pub const READ_AT_MOST: usize = 512;
/// Only this many list elements are read (empty ones count).
pub const ELEMENTS_AT_MOST: usize = 16;

/// What the header asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preferred<L> {
    /// One of the site's languages.
    Language(L),
    /// `*`: any language, so the site's default.
    Any,
}

/// The site's language the header's fields ask for, by RFC 4647 lookup; `None` when no
/// range reaches one. `site` finds the site's language of a tag, in any case.
pub fn lookup<'a, L>(
    fields: impl IntoIterator<Item = &'a [u8]>,
    site: impl Fn(&str) -> Option<L>,
) -> Option<Preferred<L>> {
    let value = one_list(fields);
    let mut best: Option<(u16, Preferred<L>)> = None;
    for element in within_bounds(&value)
        .split(|b| *b == b',')
        .take(ELEMENTS_AT_MOST)
    {
        let Some((range, weight)) = language_range(element) else {
            continue;
        };
        // A range no heavier than the best so far cannot win (the earlier wins a tie).
        if weight == 0 || best.as_ref().is_some_and(|(best, _)| *best >= weight) {
            continue;
        }
        let found = match range {
            "*" => Some(Preferred::Any),
            range => truncations(range).find_map(&site).map(Preferred::Language),
        };
        if let Some(found) = found {
            best = Some((weight, found));
        }
    }
    best.map(|(_, found)| found)
}

/// Several fields of one name are one list, joined as a proxy joins them (`, `).
fn one_list<'a>(fields: impl IntoIterator<Item = &'a [u8]>) -> Cow<'a, [u8]> {
    let mut fields = fields.into_iter();
    let Some(first) = fields.next() else {
        return Cow::Borrowed(b"");
    };
    let Some(second) = fields.next() else {
        return Cow::Borrowed(first);
    };
    let mut joined = first.to_vec();
    for field in std::iter::once(second).chain(fields) {
        if joined.len() > READ_AT_MOST {
            break;
        }
        joined.extend_from_slice(b", ");
        joined.extend_from_slice(field);
    }
    Cow::Owned(joined)
}

/// The value, or past `READ_AT_MOST` bytes the elements wholly within them (up to the last
/// comma at or before that byte), or nothing when no comma is there.
fn within_bounds(value: &[u8]) -> &[u8] {
    if value.len() <= READ_AT_MOST {
        return value;
    }
    match value[..=READ_AT_MOST].iter().rposition(|b| *b == b',') {
        Some(comma) => &value[..comma],
        None => b"",
    }
}

/// An element's range and weight in thousandths (`q=0.5` is 500, none is 1000), when it is
/// exactly `OWS language-range [OWS ";" OWS "q=" qvalue] OWS`; anything else is none.
fn language_range(element: &[u8]) -> Option<(&str, u16)> {
    let element = trim_ows(element);
    let (range, weight) = match element.iter().position(|b| *b == b';') {
        None => (element, 1000),
        Some(semicolon) => (
            trim_ows(&element[..semicolon]),
            weight(trim_ows(&element[semicolon + 1..]))?,
        ),
    };
    if !is_language_range(range) {
        return None;
    }
    // A range is ASCII: a `str` as it is.
    Some((std::str::from_utf8(range).ok()?, weight))
}

fn trim_ows(bytes: &[u8]) -> &[u8] {
    let is_ows = |b: &u8| *b == b' ' || *b == b'\t';
    let start = bytes.iter().position(|b| !is_ows(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !is_ows(b))
        .map_or(start, |end| end + 1);
    &bytes[start..end]
}

/// `q=` then a qvalue (RFC 9110 §12.4.2: `0`, `0.` to `0.999`, `1`, `1.` to `1.000`; the
/// parameter's name in either case), in thousandths.
fn weight(parameter: &[u8]) -> Option<u16> {
    let value = parameter
        .strip_prefix(b"q=")
        .or_else(|| parameter.strip_prefix(b"Q="))?;
    let (whole, fraction) = match value.iter().position(|b| *b == b'.') {
        Some(dot) => (&value[..dot], &value[dot + 1..]),
        None => (value, &b""[..]),
    };
    if fraction.len() > 3 || !fraction.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let thousandths = fraction
        .iter()
        .chain(std::iter::repeat(&b'0'))
        .take(3)
        .fold(0, |sum, digit| sum * 10 + u16::from(digit - b'0'));
    match whole {
        b"0" => Some(thousandths),
        b"1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// `*`, or `1*8ALPHA *("-" 1*8alphanum)` (RFC 4647 §2.1).
fn is_language_range(range: &[u8]) -> bool {
    if range == b"*" {
        return true;
    }
    let mut subtags = range.split(|b| *b == b'-');
    let primary = subtags.next().unwrap_or_default();
    (1..=8).contains(&primary.len())
        && primary.iter().all(u8::is_ascii_alphabetic)
        && subtags.all(|subtag| {
            (1..=8).contains(&subtag.len()) && subtag.iter().all(u8::is_ascii_alphanumeric)
        })
}

/// `fr-CA-x` → `fr-CA-x`, `fr-CA`, `fr`.
fn truncations(range: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(Some(range), |range| {
        range.rfind('-').map(|dash| &range[..dash])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::Random;

    /// A list with regional variants and a partial language (`de`, five messages), written
    /// as `app/i18n/languages.json` is; `pt-PT` without `pt`.
    const SITE: &str = r#"{"default":"fr","cookie":"c","languages":[
        {"code":"fr","locale":"fr-FR","name":"Français","direction":"ltr"},
        {"code":"en","locale":"en-US","name":"English","direction":"ltr"},
        {"code":"fr-CA","locale":"fr-CA","name":"Français (Canada)","direction":"ltr","parent":"fr"},
        {"code":"en-GB","locale":"en-GB","name":"English (UK)","direction":"ltr","parent":"en"},
        {"code":"pt-PT","locale":"pt-PT","name":"Português","direction":"ltr"},
        {"code":"de","locale":"de-DE","name":"Deutsch","direction":"ltr","complete":false}]}"#;

    fn site_tags() -> Vec<String> {
        let list: serde_json::Value = serde_json::from_str(SITE).unwrap();
        list["languages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|language| language["code"].as_str().unwrap().to_string())
            .collect()
    }

    /// The lookup over `SITE`: the tag it reaches, `*` for the wildcard, `-` for none.
    fn looked_up(fields: &[&[u8]]) -> String {
        let tags = site_tags();
        let site = |tag: &str| tags.iter().find(|code| code.eq_ignore_ascii_case(tag));
        match lookup(fields.iter().copied(), site) {
            Some(Preferred::Language(code)) => code.clone(),
            Some(Preferred::Any) => "*".into(),
            None => "-".into(),
        }
    }

    fn header(value: &str) -> String {
        looked_up(&[value.as_bytes()])
    }

    #[test]
    fn a_range_is_truncated_to_the_sites_longest_tag_and_never_extended() {
        for (asked, reached) in [
            ("fr-CA", "fr-CA"),
            ("FR-ca", "fr-CA"),
            ("fr-CA-x-private", "fr-CA"),
            ("fr-BE", "fr"),
            ("fr", "fr"),
            ("de-AT", "de"),
            ("de-Latn-AT-1996", "de"),
            ("en-US", "en"),
            ("en-GB", "en-GB"),
            ("pt-PT", "pt-PT"),
            // Lookup truncates the range, not the site's tags.
            ("pt-BR", "-"),
            ("pt", "-"),
            ("zh-Hant-TW", "-"),
            ("zh", "-"),
        ] {
            assert_eq!(header(asked), reached, "{asked}");
        }
    }

    #[test]
    fn the_heaviest_range_that_reaches_a_language_wins_and_the_earlier_of_equals() {
        for (asked, reached) in [
            ("fr-CA,fr;q=0.9,en;q=0.8", "fr-CA"),
            ("en-GB,en-US;q=0.9", "en-GB"),
            ("en;q=0.5, fr", "fr"),
            ("en, fr", "en"),
            ("en;q=0.8, de;q=0.8", "en"),
            ("zh, pt-BR;q=0.9, en;q=0.3", "en"),
            ("ja;q=0.9, de-CH;q=0.91", "de"),
            ("de;q=0, en;q=0.001", "en"),
            ("en;Q=0.5, de;q=0.4", "en"),
            ("de;q=0.", "-"),
            ("de;q=1., en", "de"),
            ("de;q=1.000", "de"),
            ("en ;q=0.5 ,\tde\t; q=0.6 ", "de"),
        ] {
            assert_eq!(header(asked), reached, "{asked}");
        }
    }

    #[test]
    fn the_wildcard_stands_for_the_default_at_its_weight() {
        assert_eq!(header("*"), "*");
        assert_eq!(header("en;q=0.5, *"), "*");
        assert_eq!(header("*;q=0.1, en"), "en");
        assert_eq!(header("*;q=0, zh"), "-");
    }

    #[test]
    fn an_element_that_is_not_exactly_a_range_and_a_weight_is_skipped() {
        for malformed in [
            "en;q=2",
            "en;q=1.001",
            "en;q=0.5555",
            "en;q=.5",
            "en;q=0,5",
            "en;q=",
            "en;x=1",
            "en;q=0.5;q=0.4",
            "en;;q=1",
            "e n",
            "en_GB",
            "123",
            "toolongtag",
            "en-toolongtag",
            "-en",
            "en-",
            "en--GB",
            "*-GB",
            "en*",
            "\"en\"",
            "\u{e9}n",
        ] {
            assert_eq!(
                header(&format!("{malformed}, de;q=0.1")),
                "de",
                "{malformed}"
            );
        }
        assert_eq!(looked_up(&[b"\xff\xfe, en"]), "en");
        assert_eq!(looked_up(&[b"\xc3\xa9"]), "-");
        for nothing in ["", " ", ",", ", ,", ";q=1"] {
            assert_eq!(header(nothing), "-", "{nothing:?}");
        }
    }

    #[test]
    fn several_fields_are_one_list() {
        assert_eq!(looked_up(&[b"de;q=0.5", b"en"]), "en");
        assert_eq!(looked_up(&[b"zh", b"", b"fr-CA;q=0.2"]), "fr-CA");
        assert_eq!(looked_up(&[]), "-");
    }

    #[test]
    fn only_whole_elements_within_the_first_bytes_and_the_first_elements_are_read() {
        // The element that crosses byte 512 (`fr-CA`, the heaviest) is not read, nor what
        // follows.
        let crossing = format!("{},en;q=0.5,fr-CA{}", "a".repeat(500), ",de".repeat(200));
        assert_eq!(crossing.find("fr-CA"), Some(510));
        assert_eq!(header(&crossing), "en");
        let exactly = format!("{},en", "a".repeat(READ_AT_MOST - 3));
        assert_eq!(exactly.len(), READ_AT_MOST);
        assert_eq!(header(&exactly), "en");
        assert_eq!(header(&format!("{exactly}x")), "-", "no comma in the bound");
        assert_eq!(header(&"a".repeat(4096)), "-");
        assert_eq!(header(&"en-GB,".repeat(700)), "en-GB");
        // Empty elements count.
        let elements = |before: usize| format!("{}en", ",".repeat(before));
        assert_eq!(header(&elements(ELEMENTS_AT_MOST - 1)), "en");
        assert_eq!(header(&elements(ELEMENTS_AT_MOST)), "-");
        let zh = |count: usize| format!("{}en;q=0.1", "zh, ".repeat(count));
        assert_eq!(header(&zh(ELEMENTS_AT_MOST - 1)), "en");
        assert_eq!(header(&zh(ELEMENTS_AT_MOST)), "-");
    }

    #[test]
    fn any_header_reaches_one_of_the_sites_tags_or_nothing_and_that_tag_reaches_itself() {
        let tags = site_tags();
        for tag in &tags {
            assert_eq!(&header(tag), tag, "a tag reduced is read as it is");
        }
        let mut random = Random(0xacce97);
        const PIECES: [&str; 16] = [
            "fr", "en", "-CA", "-GB", "pt", "-BR", "de", "*", ",", ";", "q=", "0.5", "1", " ",
            "\u{e9}", "x",
        ];
        for _ in 0..20_000 {
            let header_value: String = (0..random.next() % 14)
                .map(|_| PIECES[(random.next() % PIECES.len() as u64) as usize])
                .collect();
            let reached = header(&header_value);
            assert!(
                reached == "-" || reached == "*" || tags.contains(&reached),
                "{header_value:?}: {reached}"
            );
            if reached != "-" {
                assert_eq!(header(&reached), reached, "{header_value:?}");
            }
            let bytes = random.text();
            let _ = looked_up(&[&bytes]);
        }
    }
}
