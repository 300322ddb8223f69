//! Escaping for what the host writes into HTML outside askama's own escaping.

/// JSON made safe inside `<script type="application/json">`: `<`, `>` and `&` can only
/// stand inside JSON strings, where their `\u` escapes mean the same; U+2028 and U+2029
/// are escaped for old parsers that treat them as line ends.
pub fn json_for_script(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::json_for_script;

    #[test]
    fn a_closing_script_tag_cannot_end_the_block() {
        assert_eq!(
            json_for_script(r#"{"p":"</script><script>x"}"#),
            r#"{"p":"\u003c/script\u003e\u003cscript\u003ex"}"#
        );
    }

    #[test]
    fn an_html_comment_opener_is_escaped() {
        assert_eq!(json_for_script(r#"{"p":"<!--"}"#), r#"{"p":"\u003c!--"}"#);
    }

    #[test]
    fn line_and_paragraph_separators_are_escaped() {
        assert_eq!(
            json_for_script("\"\u{2028}\u{2029}\""),
            "\"\\u2028\\u2029\""
        );
    }

    #[test]
    fn the_result_is_still_the_same_json() {
        let json = r#"{"a":"<b>&amp;</b>","c":[1,2]}"#;
        let back: serde_json::Value = serde_json::from_str(&json_for_script(json)).unwrap();
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(json).unwrap()
        );
    }
}
