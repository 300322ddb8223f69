//! The block of `deploy/varnish.vcl` that reduces `Accept-Language` before Varnish's cache
//! looks, generated from what the host reads it with: the site's languages
//! (`app/i18n/languages.json`), `accept_language`'s bounds and grammar, and the crawler
//! test (isbot's patterns, as the build made them ready). A test fails when the committed
//! block is not what they make, naming the command that rewrites it
//! (`BILINGUE_WRITE_VCL=1 cargo test --lib varnish_vcl`); docs/development.md, "Generated
//! files". What the block does is the host's lookup in VCL, step by step; `tests/shipped_vcl.rs`
//! holds the two to the same answers, through the real Varnish.

use super::accept_language::{ELEMENTS_AT_MOST, READ_AT_MOST};
use crate::crawlers::USER_AGENT_READ;
use crate::manifest::EMBEDDED;

const VCL: &str = "deploy/varnish.vcl";
const BEGIN: &str = "# BEGIN GENERATED";
const END: &str = "# END GENERATED";

/// The block, from its first marker line to its last.
fn block() -> String {
    let languages = crate::lang::demo();
    let default = languages.default_language();
    let default = default.code();
    let mut tags: Vec<String> = languages.all().map(|l| l.code().to_owned()).collect();
    // A range takes the longest of the site's tags it starts with.
    tags.sort_by_key(|tag| std::cmp::Reverse(tag.len()));
    let mut site_language = String::new();
    for tag in tags {
        site_language.push_str(&format!(
            "    if (req.http.bilingue-range ~ \"^{}(-|$)\") {{\n        set req.http.bilingue-language = \"{tag}\";\n        return;\n    }}\n",
            tag.to_ascii_lowercase()
        ));
    }
    let segments = languages
        .all()
        .map(|l| l.segment().to_owned())
        .collect::<Vec<_>>()
        .join("|");
    let calls = vec!["call bilingue_next_language_range;"; ELEMENTS_AT_MOST]
        .chunks(2)
        .map(|pair| format!("    {}\n", pair.join(" ")))
        .collect::<String>();
    let crawlers = &EMBEDDED.crawlers;
    let crawler_pattern = format!(
        "(?i){}",
        crawlers
            .plain
            .iter()
            .chain(crawlers.lookarounds.iter().map(|l| &l.pattern))
            .map(|pattern| format!("(?:{pattern})"))
            .collect::<Vec<_>>()
            .join("|")
    );
    assert!(
        !crawler_pattern.contains("\"}"),
        "a VCL long string cannot hold \"}}"
    );
    let after_bound = READ_AT_MOST + 1;
    format!(
        r#"{BEGIN} by `BILINGUE_WRITE_VCL=1 cargo test --lib varnish_vcl`, from the site's
# languages (app/i18n/languages.json), the host's reading of Accept-Language
# (host/pages/accept_language.rs) and its crawler test (isbot's patterns, made ready by
# app/bundling/crawlers.mjs). Not by hand: a test fails when it is not what those make.

# Accept-Language, reduced to the one site's tag the host leads a path without a prefix
# to for it (RFC 4647 lookup, as host/pages/accept_language.rs reads it; nothing found:
# the default), so that Varnish keeps that way (`Vary: Accept-Language, Cookie`) once per
# language, whatever browsers send. A crawler's: the default, as the host leads it. Left
# as sent to /api/ (an upstream may read it), /assets/ and a language's pages (never read).
sub bilingue_reduce_accept_language {{
    if (req.url ~ "^/(api|assets)/" || req.url ~ "^/({segments})([/?]|$)") {{
        return;
    }}
    std.collect(req.http.accept-language);
    unset req.http.bilingue-rest;
    if (req.http.accept-language) {{
        set req.http.bilingue-rest = std.tolower(req.http.accept-language);
    }}
    # Past {READ_AT_MOST} bytes, the elements wholly within them.
    if (req.http.bilingue-rest ~ "^.{{{after_bound}}}") {{
        set req.http.bilingue-rest = regsub(req.http.bilingue-rest, "^(.{{0,{READ_AT_MOST}}}),.*$", "\1");
        if (req.http.bilingue-rest ~ "^.{{{after_bound}}}") {{
            unset req.http.bilingue-rest;
        }}
    }}
    unset req.http.bilingue-best;
    set req.http.bilingue-best-q = "0";
    # The first {ELEMENTS_AT_MOST} elements.
{calls}    if (req.http.bilingue-best) {{
        set req.http.accept-language = req.http.bilingue-best;
    }} else {{
        set req.http.accept-language = "{default}";
    }}
    # A crawler's user agent: visible ASCII, its first {USER_AGENT_READ} bytes.
    if (req.http.accept-language != "{default}" && req.http.user-agent
        && req.http.user-agent !~ "[^\t\x20-\x7e]"
        && regsub(req.http.user-agent, "^(.{{{USER_AGENT_READ}}}).*$", "\1") ~ {{"{crawler_pattern}"}}) {{
        set req.http.accept-language = "{default}";
    }}
    unset req.http.bilingue-rest;
    unset req.http.bilingue-best;
    unset req.http.bilingue-best-q;
    unset req.http.bilingue-element;
    unset req.http.bilingue-range;
    unset req.http.bilingue-q;
    unset req.http.bilingue-language;
}}

# The next element of the list, when it is `OWS language-range [OWS ";" OWS "q=" qvalue]
# OWS` (RFC 4647 §2.1, RFC 9110 §12.4.2), and weighs more than the best so far (the
# earlier wins a tie; q=0 never does): its site's language, if any, is the best. Once a
# language is found at q=1, nothing after it can win.
sub bilingue_next_language_range {{
    if (!req.http.bilingue-rest || std.real(req.http.bilingue-best-q, 0) >= 1) {{
        return;
    }}
    set req.http.bilingue-element = regsub(req.http.bilingue-rest, "^([^,]*).*$", "\1");
    if (req.http.bilingue-rest ~ ",") {{
        set req.http.bilingue-rest = regsub(req.http.bilingue-rest, "^[^,]*,", "");
    }} else {{
        unset req.http.bilingue-rest;
    }}
    if (req.http.bilingue-element !~ "^[ \t]*([a-z]{{1,8}}(-[a-z0-9]{{1,8}})*|\*)[ \t]*(;[ \t]*q=(0(\.[0-9]{{0,3}})?|1(\.0{{0,3}})?))?[ \t]*$") {{
        return;
    }}
    set req.http.bilingue-range = regsub(req.http.bilingue-element, "^[ \t]*([^ \t;]+).*$", "\1");
    set req.http.bilingue-q = "1";
    if (req.http.bilingue-element ~ ";") {{
        set req.http.bilingue-q = regsub(req.http.bilingue-element, "^.*=([0-9.]+)[ \t]*$", "\1");
    }}
    if (std.real(req.http.bilingue-q, 0) <= std.real(req.http.bilingue-best-q, 0)) {{
        return;
    }}
    unset req.http.bilingue-language;
    call bilingue_site_language;
    if (req.http.bilingue-language) {{
        set req.http.bilingue-best = req.http.bilingue-language;
        set req.http.bilingue-best-q = req.http.bilingue-q;
    }}
}}

# A range's language: the longest of the site's tags it is, or starts with followed by a
# subtag (lookup truncates the range, never the site's tags); `*`, the default.
sub bilingue_site_language {{
{site_language}    if (req.http.bilingue-range == "*") {{
        set req.http.bilingue-language = "{default}";
    }}
}}
{END}"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_varnish_vcl_block_is_the_one_the_languages_and_crawlers_make() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(VCL);
        let committed = std::fs::read_to_string(&path).unwrap();
        let (Some(begin), Some(end)) = (committed.find(BEGIN), committed.find(END)) else {
            panic!("{VCL} has no block between {BEGIN:?} and {END:?}");
        };
        let generated = block();
        if std::env::var_os("BILINGUE_WRITE_VCL").is_some() {
            let rewritten = format!(
                "{}{generated}{}",
                &committed[..begin],
                &committed[end + END.len()..]
            );
            std::fs::write(&path, rewritten).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap();
        let end = committed.find(END).unwrap() + END.len();
        assert!(
            committed[begin..end] == generated,
            "{VCL}'s generated block differs from what the languages, the host's reading of \
             Accept-Language and the crawler list make: run `BILINGUE_WRITE_VCL=1 cargo test \
             --lib varnish_vcl` and commit it"
        );
    }
}
