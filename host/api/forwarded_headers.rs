//! The headers a request takes to the upstream, and those its answer brings back: what
//! only the host can vouch for is the host's to say, and what concerns one connection
//! stays on it.

use axum::http::{HeaderMap, HeaderName, HeaderValue, header};

use crate::security;
use crate::server::PeerAddr;

/// Headers about the client's route or address, or that rewrite the request's path on
/// some servers: only the host can vouch for these, so a client's are dropped.
const FORWARDING: [&str; 15] = [
    "forwarded",
    "x-forwarded-for",
    "x-forwarded-host",
    "x-forwarded-proto",
    "x-forwarded-port",
    "x-forwarded-prefix",
    "x-forwarded-server",
    "x-real-ip",
    "true-client-ip",
    "cf-connecting-ip",
    "x-client-ip",
    "x-cluster-client-ip",
    "x-original-url",
    "x-rewrite-url",
    "proxy-connection",
];

/// The request's headers as the upstream gets them: no hop-by-hop headers, no `Host`, and
/// the client and the public address (`forwarded_proto`, `forwarded_host`) named by the
/// host alone.
pub fn request_headers(
    headers: &HeaderMap,
    peer: Option<PeerAddr>,
    forwarded_proto: &HeaderValue,
    forwarded_host: &HeaderValue,
) -> HeaderMap {
    let mut forwarded = without_hop_by_hop(headers);
    forwarded.remove(header::HOST);
    for name in FORWARDING {
        forwarded.remove(name);
    }
    if let Some(PeerAddr(address)) = peer
        && let Ok(value) = HeaderValue::try_from(address.ip().to_string())
    {
        forwarded.insert(HeaderName::from_static("x-forwarded-for"), value);
    }
    forwarded.insert(
        HeaderName::from_static("x-forwarded-proto"),
        forwarded_proto.clone(),
    );
    forwarded.insert(
        HeaderName::from_static("x-forwarded-host"),
        forwarded_host.clone(),
    );
    forwarded
}

/// The upstream's headers as the client gets them: no hop-by-hop headers, and none of the
/// security headers, which the host sets on every answer itself.
pub fn response_headers(headers: &HeaderMap) -> HeaderMap {
    let mut kept = without_hop_by_hop(headers);
    let owned: Vec<HeaderName> = kept
        .keys()
        .filter(|name| security::is_owned_by_the_host(name))
        .cloned()
        .collect();
    for name in owned {
        kept.remove(name);
    }
    kept
}

/// RFC 9110 §7.6.1: the connection-specific headers, and any the Connection header names.
fn without_hop_by_hop(headers: &HeaderMap) -> HeaderMap {
    const HOP_BY_HOP: [&str; 8] = [
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
    ];
    let named: Vec<HeaderName> = list_items(headers, header::CONNECTION)
        .filter_map(|name| HeaderName::from_bytes(name.as_bytes()).ok())
        .collect();
    let mut kept = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        if !HOP_BY_HOP.contains(&name.as_str()) && !named.contains(name) {
            kept.append(name.clone(), value.clone());
        }
    }
    kept
}

/// The items of a comma-separated field (`Connection: keep-alive, Upgrade`), each trimmed,
/// across all its lines; a line that is not text holds none.
pub(super) fn list_items(headers: &HeaderMap, name: HeaderName) -> impl Iterator<Item = &str> {
    headers
        .get_all(name)
        .into_iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
}
