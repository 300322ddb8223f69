//! What a page answers with, besides its document: its language signals, who may keep it
//! and for how long, its validator, and `304 Not Modified` when the client's copy is the
//! one it would get.
//!
//! A request whose `If-None-Match` names the page's validator (`representation`) gets a
//! 304 with the same headers and no body, whether the page came from the cache or was just
//! rendered.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::cache::{Keeping, KeptPage, PublicPage, RenderTurn};
use super::document::Written;
use super::encoding;
use super::representation::{PageHeaders, Representation};
use super::request::Asked;
use super::sharing::{Freshness, Sharing};
use crate::links::PageLinks;

/// Whether `If-None-Match` names `etag` (or `*`): the weak comparison RFC 9110 §13.1.2
/// asks for, over a list that may span several fields.
fn names(request: &HeaderMap, etag: &HeaderValue) -> bool {
    let ours = etag.as_bytes();
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .flat_map(|value| value.as_bytes().split(|b| *b == b','))
        .map(<[u8]>::trim_ascii)
        .any(|tag| tag == b"*" || tag.strip_prefix(b"W/").unwrap_or(tag) == ours)
}

/// A kept page, in the coding the client takes.
pub fn kept(page: &KeptPage, request: &HeaderMap) -> Response {
    respond(
        page.status,
        encoding::kept(page, request),
        page.headers.clone(),
        request,
    )
}

/// Step 6 for a page rendered whole: the cache's turn settled by who may keep it (the one
/// write to the cache), then the answer. A page its visitor keeps is revalidated, so it
/// carries a validator; one no one keeps needs none.
pub fn whole(
    turn: RenderTurn<'_>,
    page: Written,
    sharing: Sharing,
    freshness: &Freshness,
    asked: &Asked,
) -> Response {
    let headers = PageHeaders {
        language: asked.language,
        cache_control: freshness.cache_control(sharing, page.status),
        link: page.links.as_ref().and_then(PageLinks::link_header),
        policy: page.policy,
    };
    let request = &asked.headers;
    let fresh = |status, document, headers, validated| {
        respond(
            status,
            encoding::fresh(document, request, validated),
            headers,
            request,
        )
    };
    match sharing {
        Sharing::Public { limit } => {
            let public = PublicPage {
                status: page.status,
                document: page.document,
                headers,
                limit,
            };
            match turn.keep(public) {
                Keeping::Kept(page) => kept(&page, request),
                Keeping::Uncached(page) => fresh(page.status, page.document, page.headers, true),
            }
        }
        Sharing::Private => {
            // The app says this page is not the same for everyone: no one waits for another's.
            turn.not_kept();
            fresh(page.status, page.document, headers, true)
        }
        Sharing::NoOne => {
            turn.release();
            fresh(page.status, page.document, headers, false)
        }
    }
}

/// The page's answer: `representation` with `headers`, or a 304 when the client has it.
/// The language rides along as a response extension, for the request counts.
pub fn respond(
    status: StatusCode,
    representation: Representation,
    headers: PageHeaders,
    request: &HeaderMap,
) -> Response {
    let not_modified = status == StatusCode::OK
        && representation
            .etag
            .as_ref()
            .is_some_and(|etag| names(request, etag));
    let mut response = if not_modified {
        (StatusCode::NOT_MODIFIED, Body::empty()).into_response()
    } else {
        (status, representation.body).into_response()
    };
    let answer = response.headers_mut();
    if let Some(etag) = representation.etag {
        answer.insert(header::ETAG, etag);
    }
    if let Some(age) = representation.age {
        answer.insert(header::AGE, HeaderValue::from(age));
    }
    write_headers(&mut response, headers, representation.encoding);
    response
}

/// What every page says of itself, whole or streamed: its language (also a response
/// extension, for the request counts), policy, type, who may keep it, its coding, its
/// alternates, and what it varies on.
pub fn write_headers(
    response: &mut Response,
    headers: PageHeaders,
    encoding: Option<&'static str>,
) {
    response.extensions_mut().insert(headers.language);
    let answer = response.headers_mut();
    answer.insert(header::CONTENT_SECURITY_POLICY, headers.policy);
    answer.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    answer.insert(
        header::CONTENT_LANGUAGE,
        HeaderValue::from_static(headers.language.code()),
    );
    answer.insert(header::CACHE_CONTROL, headers.cache_control);
    if let Some(encoding) = encoding {
        answer.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    if let Some(link) = headers.link {
        answer.insert(header::LINK, link);
    }
    // Every page is chosen by its coding, whether or not this one is compressed.
    answer.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::representation::etag;

    fn asking(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.append(header::IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn if_none_match_is_read_as_a_list_weakly_and_with_its_star() {
        let tag = etag(b"page");
        let quoted = tag.to_str().unwrap();
        assert!(names(&asking(quoted), &tag));
        assert!(names(&asking(&format!("\"x\", W/{quoted}")), &tag));
        assert!(names(&asking("*"), &tag));
        assert!(!names(&asking("\"x\""), &tag));
        assert!(!names(&HeaderMap::new(), &tag));
        let mut two_fields = asking("\"x\"");
        two_fields.append(header::IF_NONE_MATCH, tag.clone());
        assert!(names(&two_fields, &tag));
    }
}
