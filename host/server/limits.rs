//! What a client may send, the same over HTTP/1.1 and HTTP/2: a request head of at most
//! 16 KiB and 100 header fields, a request target of at most 4 KiB that is a path, 10 s to
//! send a head, exactly one valid `Host` (RFC 9112 §3.2; over HTTP/2, one that agrees with
//! `:authority`), no transfer coding but chunked, and no CONNECT. hyper refuses what it
//! cannot read as it reads; the rest is checked here, after decoding, so that every
//! refusal is an answer of the host's, with its security headers. (hyper's read buffer
//! lets a head past 16 KiB through on a reused connection: the size is checked here too.)

use std::time::Duration;

use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, Version, header, uri::Authority};
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioExecutor, TokioTimer};
use hyper_util::server::conn::auto;

/// The request line and headers together, at most; past it, 431.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// Header fields in one request, at most; past it, 431.
pub const MAX_HEADERS: usize = 100;
/// Longer request targets are answered 414 before any work.
pub const MAX_URI_BYTES: usize = 4096;
/// A client has this long to send a request's head, and a connection with no request in
/// flight is closed after it.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// HTTP/2's own decoder refuses a header list past this, with a bare 431 of its own; below
/// it, `refusal` applies the limits above and answers with the host's headers. Close
/// to the limit, since a header block in the making is memory the connection holds.
const HTTP2_HEADER_LIST_CAP: u32 = (MAX_HEAD_BYTES + 4 * 1024) as u32;
/// Streams one HTTP/2 client may have open at once (hyper's default is 200; nginx's 128).
const HTTP2_MAX_STREAMS: u32 = 100;
/// An HTTP/2 client that leaves a ping unanswered this long is gone.
const HTTP2_PING: Duration = Duration::from_secs(20);

/// hyper's server with the limits above, for both protocols.
pub fn builder() -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(HTTP2_HEADER_LIST_CAP)
        .max_concurrent_streams(HTTP2_MAX_STREAMS)
        .keep_alive_interval(HTTP2_PING)
        .keep_alive_timeout(HTTP2_PING);
    builder
}

/// Refuses what the limits forbid, before any work.
pub fn refusal(request: &Request) -> Option<Response> {
    let http1 = request.version() < Version::HTTP_2;
    let refuse = |status: StatusCode, why: &str| {
        let mut response = (status, format!("{why}\n")).into_response();
        if http1 {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        Some(response)
    };
    if target_length(request.uri()) > MAX_URI_BYTES {
        return refuse(
            StatusCode::URI_TOO_LONG,
            &format!("request target longer than {MAX_URI_BYTES} bytes"),
        );
    }
    if !request.uri().path().starts_with('/') {
        return refuse(StatusCode::BAD_REQUEST, "the request target is not a path");
    }
    if request.method() == Method::CONNECT {
        return refuse(StatusCode::METHOD_NOT_ALLOWED, "CONNECT is not served");
    }
    if let Some(why) = host_problem(request) {
        return refuse(StatusCode::BAD_REQUEST, why);
    }
    let headers = request.headers();
    if headers.len() > MAX_HEADERS {
        return refuse(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            &format!("more than {MAX_HEADERS} header fields"),
        );
    }
    if head_size(request) > MAX_HEAD_BYTES {
        return refuse(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            &format!("request head larger than {MAX_HEAD_BYTES} bytes"),
        );
    }
    let codings: Vec<&HeaderValue> = headers.get_all(header::TRANSFER_ENCODING).iter().collect();
    if !codings.is_empty()
        && (codings.len() > 1 || !codings[0].as_bytes().eq_ignore_ascii_case(b"chunked"))
    {
        // A coding other than chunked would reach the API undone.
        return refuse(
            StatusCode::NOT_IMPLEMENTED,
            "only the chunked transfer coding is understood",
        );
    }
    None
}

/// The head's size as its protocol counts it: HTTP/1's bytes (request line, and each
/// field's name, value, ": " and line end); HTTP/2's header list (each field's name and
/// value, and 32).
fn head_size(request: &Request) -> usize {
    let per_field = if request.version() == Version::HTTP_2 {
        32
    } else {
        4
    };
    request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + per_field)
        .sum::<usize>()
        + request.method().as_str().len()
        + target_length(request.uri())
        + " HTTP/1.1\r\n".len()
}

/// The request target's length as sent, without writing it out.
fn target_length(uri: &axum::http::Uri) -> usize {
    let authority = uri.authority().map_or(0, |a| a.as_str().len());
    let scheme = uri.scheme_str().map_or(0, |s| s.len() + "://".len());
    scheme + authority + uri.path_and_query().map_or(0, |p| p.as_str().len())
}

/// RFC 9112 §3.2: an HTTP/1.1 request without a `Host`, any request with two, or one whose
/// `Host` is not a host is refused; over HTTP/2, an `:authority` with a user in it, or a
/// `Host` that says otherwise (RFC 9113 §8.3.1).
fn host_problem(request: &Request) -> Option<&'static str> {
    let mut hosts = request.headers().get_all(header::HOST).iter();
    let first = hosts.next();
    if hosts.next().is_some() {
        return Some("more than one Host header");
    }
    if let Some(authority) = request.uri().authority() {
        if authority.as_str().contains('@') {
            return Some("the authority may not name a user");
        }
        if request.version() == Version::HTTP_2
            && first.is_some_and(|host| {
                !host
                    .as_bytes()
                    .eq_ignore_ascii_case(authority.as_str().as_bytes())
            })
        {
            return Some("the Host header and :authority disagree");
        }
    }
    match first {
        None if request.version() == Version::HTTP_11 => {
            Some("an HTTP/1.1 request needs a Host header")
        }
        Some(value) if !is_host(value.as_bytes()) => Some("the Host header is not a host"),
        _ => None,
    }
}

/// `uri-host [ ":" port ]`, or empty (allowed when the target has no authority).
fn is_host(value: &[u8]) -> bool {
    value.is_empty() || (!value.contains(&b'@') && Authority::try_from(value).is_ok())
}

#[cfg(test)]
mod tests {
    use super::is_host;

    #[test]
    fn hosts_are_names_or_addresses_with_an_optional_port() {
        for good in [
            "example.org",
            "example.org:8080",
            "127.0.0.1",
            "[::1]:3000",
            "",
        ] {
            assert!(is_host(good.as_bytes()), "{good}");
        }
        for bad in ["a b", "a/b", "user@example.org", "a?b", "a#b", "exa\"mple"] {
            assert!(!is_host(bad.as_bytes()), "{bad}");
        }
    }
}
