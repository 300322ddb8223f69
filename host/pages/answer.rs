//! Step 6, for every page: its head, which says its language, who may keep it and for how
//! long, its alternates and its coding; the cache's turn settled by who may keep it (the
//! one write to the cache); and its body, whole or as it comes.
//!
//! A request whose `If-None-Match` names the page's validator (`representation`) gets a
//! 304 with the same headers and no body, whether the page came from the cache or was just
//! rendered.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::cache::{Keeping, KeptPage, PublicPage, RenderTurn};
use super::document::WholeDocument;
use super::encoding;
use super::first_parts::FirstParts;
use super::representation::{PageHeaders, Representation};
use super::request::Asked;
use super::sharing::{Freshness, Sharing};
use super::timing::{self, RenderTimes};
use super::written::Written;
use crate::accept_encoding::takes_gzip;
use crate::data_keys::DataKeys;
use crate::lang::Language;
use crate::links::PageLinks;
use crate::page_identity::PageIdentity;

/// Step 6: the page `written`, answered as `sharing` says, and the cache's turn settled.
/// Its head says where its time went (`timing`), but for what stands in for a failed
/// render.
pub fn send(
    turn: RenderTurn<'_>,
    written: Written,
    sharing: Sharing,
    asked: &Asked,
    freshness: &Freshness,
    times: &RenderTimes,
    heads: &FirstParts,
) -> Response {
    let started = Instant::now();
    let headers = |status,
                   links: &Option<PageLinks>,
                   policy: &HeaderValue,
                   page: &Arc<PageIdentity>,
                   data_keys| PageHeaders {
        language: asked.language,
        content_language: HeaderValue::from_str(asked.language.code())
            .expect("a language tag is a header value"),
        cache_control: freshness.cache_control(sharing, status),
        link: links.as_ref().and_then(PageLinks::link_header),
        policy: policy.clone(),
        data_keys,
        page: page.clone(),
    };
    let whole = |turn, page: WholeDocument, data_keys| {
        let headers = headers(
            page.status,
            &page.links,
            &page.policy,
            &page.page,
            data_keys,
        );
        document(turn, page, sharing, headers, &asked.headers, heads)
    };
    match written {
        Written::Whole(mut page) => {
            let data_keys = std::mem::take(&mut page.data_keys);
            let mut answer = whole(turn, page, data_keys);
            timing::whole(&mut answer, times, &asked.trace, started.elapsed());
            answer
        }
        // The client-rendered page shows no data.
        Written::StandIn(page) => whole(turn, page, DataKeys::default()),
        Written::Frame(page) => {
            settle(turn, sharing);
            let gzip = takes_gzip(&asked.headers);
            // Its data, and so its keys, come after its head.
            let not_yet = DataKeys::default();
            let headers = headers(page.status, &page.links, &page.policy, &page.page, not_yet);
            let status = page.status;
            let mut answer = Response::new(page.body(asked, *times, gzip));
            *answer.status_mut() = status;
            write_headers(&mut answer, headers, gzip.then_some("gzip"));
            let fields = answer.headers_mut();
            fields.insert(timing::SERVER_TIMING, timing::streamed_head(times));
            if asked.trailers {
                fields.insert(header::TRAILER, HeaderValue::from_static("server-timing"));
            }
            answer
        }
        Written::ComeBackLater(text) => {
            let status = StatusCode::SERVICE_UNAVAILABLE;
            let cache_control = freshness.cache_control(sharing, status);
            settle(turn, sharing);
            come_back_later(asked.language, cache_control, text)
        }
    }
}

/// Tells the cache what became of a page it does not keep.
fn settle(turn: RenderTurn<'_>, sharing: Sharing) {
    match sharing {
        Sharing::Private | Sharing::Once => turn.not_kept(),
        Sharing::StandIn { page_failed: true } => turn.failed(),
        // A public page is kept by `document`; only a document can be.
        Sharing::Public { .. } | Sharing::NoOne | Sharing::StandIn { page_failed: false } => {
            turn.release()
        }
    }
}

/// A whole document: kept when it is public (a page its visitor keeps is revalidated, so
/// it carries a validator; one no one keeps needs none).
fn document(
    turn: RenderTurn<'_>,
    page: WholeDocument,
    sharing: Sharing,
    headers: PageHeaders,
    request: &HeaderMap,
    heads: &FirstParts,
) -> Response {
    let heads = heads_for(sharing, heads);
    let fresh = |status, document, headers| {
        let representation = encoding::fresh(document, request, sharing.validated(), heads);
        respond(status, representation, headers, request)
    };
    let Sharing::Public { limit } = sharing else {
        settle(turn, sharing);
        return fresh(page.status, page.document, headers);
    };
    let public = PublicPage {
        status: page.status,
        document: page.document,
        headers,
        limit,
    };
    match turn.keep(public) {
        Keeping::Kept(page) => kept(&page, request),
        Keeping::Uncached(page) => fresh(page.status, page.document, page.headers),
    }
}

/// Where a page's head may be kept compressed: a public page's is the same for everyone
/// who asks it; a page of its visitor's may carry their words in its title, which must
/// not outlive their answer.
fn heads_for(sharing: Sharing, heads: &FirstParts) -> Option<&FirstParts> {
    matches!(sharing, Sharing::Public { .. }).then_some(heads)
}

/// A crawler's answer when its page could not be rendered: come back in 30 s.
fn come_back_later(language: Language, cache_control: HeaderValue, text: String) -> Response {
    let mut response = (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (header::RETRY_AFTER, HeaderValue::from_static("30")),
            (header::CACHE_CONTROL, cache_control),
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
        ],
        text,
    )
        .into_response();
    response.extensions_mut().insert(language);
    response
}

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

/// The page's answer: `representation` with `headers`, or a 304 when the client has it.
/// The language rides along as a response extension, for the request counts.
fn respond(
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
/// alternates, and what it varies on; and what it is and what its data named, as response
/// extensions for the purge keys (`purge_keys::name`).
fn write_headers(response: &mut Response, headers: PageHeaders, encoding: Option<&'static str>) {
    response.extensions_mut().insert(headers.language);
    response.extensions_mut().insert(headers.page);
    if !headers.data_keys.is_empty() {
        response.extensions_mut().insert(headers.data_keys);
    }
    let answer = response.headers_mut();
    answer.insert(header::CONTENT_SECURITY_POLICY, headers.policy);
    answer.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    answer.insert(header::CONTENT_LANGUAGE, headers.content_language);
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

    #[test]
    fn only_a_public_pages_head_is_kept_compressed() {
        let heads = FirstParts::default();
        assert!(heads_for(Sharing::Public { limit: None }, &heads).is_some());
        for theirs in [
            Sharing::Private,
            Sharing::Once,
            Sharing::NoOne,
            Sharing::StandIn { page_failed: true },
        ] {
            assert!(heads_for(theirs, &heads).is_none(), "{theirs:?}");
        }
    }
}
