//! The security headers every answer carries, and the one list of Content-Security-Policy
//! directives. Pages get the same policy with one change, their scripts: only those that
//! carry the response's nonce run, and what they load ('strict-dynamic'); 'self' is kept
//! for browsers older than CSP 3, which ignore the rest.

pub mod hyper_answers;

use std::sync::LazyLock;

use axum::body::Bytes;
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

/// The policy's directives, in order. Inline styles are allowed for the notification library.
const DIRECTIVES: [(&str, &str); 9] = [
    ("default-src", "'self'"),
    ("script-src", "'self'"),
    ("style-src", "'self' 'unsafe-inline'"),
    ("img-src", "'self' data:"),
    ("connect-src", "'self'"),
    ("object-src", "'none'"),
    ("base-uri", "'none'"),
    ("form-action", "'self'"),
    ("frame-ancestors", "'none'"),
];

/// The policy with `script-src` given `scripts`.
fn policy(scripts: &str) -> String {
    DIRECTIVES
        .iter()
        .map(|&(name, value)| match name {
            "script-src" => format!("{name} {scripts}"),
            _ => format!("{name} {value}"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

static POLICY: LazyLock<String> = LazyLock::new(|| policy("'self'"));

/// A page's policy around its nonce: what stands before it and after it.
static PAGE_POLICY: LazyLock<(String, String)> = LazyLock::new(|| {
    const SLOT: &str = "{nonce}";
    let whole = policy(&format!("'nonce-{SLOT}' 'strict-dynamic' 'self'"));
    let (before, after) = whole.split_once(SLOT).expect("the slot is in the policy");
    (before.to_string(), after.to_string())
});

/// A header every answer of the host carries: its absence marks an answer the host did
/// not write itself (see `hyper_answers`).
pub const MARKER: &str = "x-content-type-options";

/// The headers every answer carries, with the policy of answers that are not pages.
pub fn headers() -> [(HeaderName, &'static str); 4] {
    [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::CONTENT_SECURITY_POLICY, POLICY.as_str()),
    ]
}

/// A page's policy: only the scripts carrying this response's nonce run, and what they load.
pub fn page_policy(nonce: &str) -> HeaderValue {
    let (before, after) = &*PAGE_POLICY;
    let mut value = String::with_capacity(before.len() + 32 + after.len());
    value.push_str(before);
    value.push_str(nonce);
    value.push_str(after);
    HeaderValue::from_maybe_shared(Bytes::from(value)).expect("a nonce is hex digits")
}

/// Adds the security headers to every answer; a page's own policy (with its nonce) is kept.
pub async fn add_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let answer = response.headers_mut();
    for (name, value) in headers() {
        answer
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    }
    response
}

/// Headers an upstream API may not set on the host's answers: the host owns them.
pub fn is_owned_by_the_host(name: &HeaderName) -> bool {
    headers().iter().any(|(owned, _)| owned == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_policy_differs_from_the_default_only_in_its_scripts() {
        let nonce = "0123456789abcdef0123456789abcdef";
        let page = page_policy(nonce).to_str().unwrap().to_string();
        let scripts = format!("'nonce-{nonce}' 'strict-dynamic' 'self'");
        assert_eq!(page.replace(&scripts, "'self'"), *POLICY);
        assert!(POLICY.contains("script-src 'self';"));
        assert!(POLICY.ends_with("frame-ancestors 'none'"));
    }
}
