//! One path segment as a URL writes it, and whether it could lead elsewhere than where it
//! stands once some URL parser or server had its way with it. The API refuses a call
//! whose path has such a segment (`api::path_problem`), and a route's parameter with one
//! names nothing (`manifest`), as the app's router says too (app/data/params.ts; both are
//! held to app/data/unnameable-segments.json).

/// Why `segment` could lead elsewhere than where it stands, if it could: `.` and `..`,
/// plain, percent-encoded, encoded twice, with `;parameters` (as Java servers read them),
/// or in look-alike dots; an encoded slash or backslash; NUL; bytes that are not UTF-8
/// (overlong encodings of a dot).
pub fn segment_problem(segment: &str) -> Option<&'static str> {
    let once = percent_decoded(segment);
    let Ok(once) = String::from_utf8(once) else {
        return Some("a path segment must be UTF-8 once decoded");
    };
    let twice = String::from_utf8_lossy(&percent_decoded(&once)).into_owned();
    for decoded in [&once, &twice] {
        let name = decoded.split(';').next().unwrap_or_default();
        let dots: String = name
            .chars()
            .map(|c| match c {
                '\u{FF0E}' | '\u{2024}' | '\u{FE52}' => '.',
                c => c,
            })
            .collect();
        if dots == "." || dots == ".." {
            return Some("a path segment may not be . or ..");
        }
        if decoded.contains(['/', '\\', '\0']) {
            return Some("a path segment may not hold a slash, a backslash or a NUL");
        }
    }
    None
}

/// `segment` with its `%XX` escapes decoded (a malformed escape is kept as it is).
pub fn percent_decoded(segment: &str) -> Vec<u8> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(high), Some(low)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((high * 16 + low) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}
