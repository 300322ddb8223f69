//! The security headers every answer carries, and the one list of Content-Security-Policy
//! directives. Pages get the same policy with one change, their scripts: only the inline
//! scripts whose hashes the policy names run (a page's starter), or, on a streamed page,
//! those that carry its nonce, and what they load ('strict-dynamic'). No 'self' beside
//! them: browsers of CSP 3 set it aside anyway, but WebKitGTK 2.50 does not for module
//! scripts, and would run a same-origin `<script type="module">` an injection added. No
//! directive allows inline code or `eval`: styles come from the build's stylesheets only.

pub mod hyper_answers;

use std::sync::LazyLock;

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use base64::Engine as _;
use sha2::{Digest, Sha256};

/// The policy's directives, in order.
const DIRECTIVES: [(&str, &str); 9] = [
    ("default-src", "'self'"),
    ("script-src", "'self'"),
    ("style-src", "'self'"),
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

/// A page's policy: its inline scripts run by their hashes, and what they load.
pub fn page_policy(inline_scripts: &[&str]) -> HeaderValue {
    HeaderValue::try_from(policy(&script_sources(inline_scripts, None)))
        .expect("hashes are header-safe")
}

/// A streamed page's policy but for its nonce: its inline scripts run by their hashes, or
/// when they carry the page's nonce. Made once per build, so a page only adds its nonce.
pub struct NoncedPolicy {
    before: String,
    after: String,
}

impl NoncedPolicy {
    pub fn new(inline_scripts: &[&str]) -> Self {
        // Neither a hash nor a directive holds a NUL: where the nonce goes is unambiguous.
        const PLACE: &str = "\0";
        let whole = policy(&script_sources(inline_scripts, Some(PLACE)));
        let (before, after) = whole.split_once(PLACE).expect("the nonce's place is in it");
        Self {
            before: before.to_owned(),
            after: after.to_owned(),
        }
    }

    /// The policy of the page whose inline scripts carry `nonce` (the host's own,
    /// header-safe).
    pub fn with(&self, nonce: &str) -> HeaderValue {
        let mut value = String::with_capacity(self.before.len() + nonce.len() + self.after.len());
        value.push_str(&self.before);
        value.push_str(nonce);
        value.push_str(&self.after);
        HeaderValue::try_from(value).expect("hashes and nonces are header-safe")
    }
}

/// `script-src`'s sources: each script's hash, the nonce's when there is one, then
/// 'strict-dynamic'.
fn script_sources(inline_scripts: &[&str], nonce: Option<&str>) -> String {
    let mut sources: Vec<String> = inline_scripts
        .iter()
        .map(|script| {
            let digest = Sha256::digest(script.as_bytes());
            format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            )
        })
        .collect();
    if let Some(nonce) = nonce {
        sources.push(format!("'nonce-{nonce}'"));
    }
    sources.push("'strict-dynamic'".into());
    sources.join(" ")
}

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

/// Adds the security headers to every answer; a page's own policy is kept. An answer that
/// sets a cookie is kept by no one but its client, whoever wrote it (a proxied API
/// included) and whatever lifetime it named: a shared cache would give the cookie to everyone.
pub fn secure(answer: &mut HeaderMap) {
    for (name, value) in headers() {
        answer
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    }
    let kept_by_no_other = answer.get_all(header::CACHE_CONTROL).iter().any(|value| {
        value.to_str().is_ok_and(|value| {
            let value = value.to_ascii_lowercase();
            value.contains("private") || value.contains("no-store")
        })
    });
    if answer.contains_key(header::SET_COOKIE) && !kept_by_no_other {
        answer.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-store"),
        );
        answer.remove(header::EXPIRES);
    }
}

/// [`secure`] as a layer, for the routes that are not the public ones (`/metrics`).
pub async fn add_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    secure(response.headers_mut());
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
        let page = page_policy(&["alert(1)"]).to_str().unwrap().to_string();
        // sha256("alert(1)"), base64: what a browser computes over the script's text.
        let scripts = "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=' 'strict-dynamic'";
        assert_eq!(page.replace(scripts, "'self'"), *POLICY);
        assert!(POLICY.contains("script-src 'self';"));
        assert!(POLICY.ends_with("frame-ancestors 'none'"));
        assert!(
            !POLICY.contains("unsafe"),
            "no inline code or eval anywhere"
        );
        let streamed = NoncedPolicy::new(&["alert(1)"]).with("0123abcd");
        let streamed = streamed.to_str().unwrap();
        let scripts = "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=' 'nonce-0123abcd' 'strict-dynamic'";
        assert_eq!(streamed.replace(scripts, "'self'"), *POLICY);
    }
}
