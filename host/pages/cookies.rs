//! The `Cookie` fields of a page request: the visitor's saved language (read on an
//! unprefixed path), and what a loader's API calls may carry for them (every cookie but
//! that choice, which is the host's). Nothing here trusts its input: any bytes are read.

use axum::http::HeaderValue;

use crate::lang::{Language, Languages};

/// The saved choice from `Cookie` header values; an unknown or malformed value is ignored.
pub fn saved_language<'a>(
    languages: &Languages,
    cookie_headers: impl IntoIterator<Item = &'a [u8]>,
) -> Option<Language> {
    cookie_headers
        .into_iter()
        .filter_map(|value| std::str::from_utf8(value).ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.split_once('='))
        .filter(|(name, _)| name.trim() == languages.cookie_name())
        .find_map(|(_, value)| languages.by_code(value.trim().trim_matches('"')))
}

/// The cookies of `Cookie` header values but the saved language choice, as one header
/// value; `None` when nothing else was sent. Anything that is not exactly
/// `NAME=<a supported language>` is kept: a nameless cookie, a second value, whatever the
/// visitor sent that this parse would not understand.
pub fn all_but_the_choice<'a>(
    languages: &Languages,
    cookie_headers: impl IntoIterator<Item = &'a [u8]>,
) -> Option<HeaderValue> {
    let mut kept: Vec<&[u8]> = Vec::new();
    for value in cookie_headers {
        for pair in value.split(|b| *b == b';') {
            let pair = pair.trim_ascii();
            if pair.is_empty() || is_language_choice(languages, pair) {
                continue;
            }
            kept.push(pair);
        }
    }
    if kept.is_empty() {
        return None;
    }
    HeaderValue::from_bytes(&kept.join(&b"; "[..])).ok()
}

fn is_language_choice(languages: &Languages, pair: &[u8]) -> bool {
    let Ok(pair) = std::str::from_utf8(pair) else {
        return false;
    };
    pair.split_once('=').is_some_and(|(name, value)| {
        name == languages.cookie_name() && languages.by_code(value).is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::Random;

    fn lang(code: &str) -> Language {
        crate::lang::demo().by_code(code).unwrap()
    }

    #[test]
    fn the_saved_choice_is_read_from_any_cookie_header() {
        let headers: [&[u8]; 2] = [b"a=1; theme=dark", b"x=y; bilingue_lang=en"];
        assert_eq!(
            saved_language(&crate::lang::demo(), headers),
            Some(lang("en"))
        );
    }

    #[test]
    fn unknown_or_broken_cookies_are_ignored() {
        let headers: [&[u8]; 4] = [
            b"bilingue_lang=de",
            b"bilingue_lang",
            b"\xff\xfe=\x00",
            b";;=;",
        ];
        assert_eq!(saved_language(&crate::lang::demo(), headers), None);
    }

    #[test]
    fn only_a_well_formed_language_choice_is_left_out_of_the_cookies_forwarded() {
        let forwarded = |values: &[&[u8]]| {
            all_but_the_choice(&crate::lang::demo(), values.iter().copied())
                .map(|v| String::from_utf8(v.as_bytes().to_vec()).unwrap())
        };
        assert_eq!(forwarded(&[b"bilingue_lang=en"]), None);
        assert_eq!(forwarded(&[b" bilingue_lang=fr ; ;"]), None);
        assert_eq!(
            forwarded(&[b"session=1; bilingue_lang=en", b"b=2"]),
            Some("session=1; b=2".into())
        );
        for kept in [
            &b"alice-token"[..],
            b"=alice-token",
            b"bilingue_lang=alice",
            b"bilingue_lang",
            b"bilingue_lang=\"en\"",
            b"Bilingue_lang=en",
        ] {
            assert!(
                forwarded(&[kept]).is_some(),
                "{}",
                String::from_utf8_lossy(kept)
            );
        }
    }

    #[test]
    fn any_cookie_header_gives_a_supported_language_or_none() {
        let mut random = Random(0xc00c1e);
        for _ in 0..20_000 {
            let header = random.text();
            if let Some(language) = saved_language(&crate::lang::demo(), [header.as_slice()]) {
                assert!(crate::lang::demo().all().any(|l| l == language));
                assert!(
                    String::from_utf8_lossy(&header).contains(crate::lang::demo().cookie_name())
                );
            }
        }
    }
}
