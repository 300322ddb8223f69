//! A page sent as it is rendered: the document's head and the screen's frame at once (the
//! parts that wait for data show their fallback), then the rest of the markup as React
//! writes it, then the boot state with the data that came. Such a page is its visitor's
//! (its data is fresh at each request) and its inline scripts carry its nonce, so it is
//! kept by no one. A client that takes gzip gets each part compressed and flushed as it
//! comes, with no compressor held while the page waits (see `gzip`). When the client goes
//! away, the response is dropped, and with it the stream, which stops the render.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::answer::{PageHeaders, write_headers};
use super::document::{self, Content, Frame};
use super::error::PageError;
use super::gzip::GzipParts;
use super::request::Asked;
use super::{PageBuild, Pages};
use crate::accept_encoding::takes_gzip;
use crate::links::PageLinks;
use crate::render::{BootState, RenderError, Stream, StreamEvent};

/// What a streamed page is, besides its stream.
struct Streamed {
    links: Option<PageLinks>,
    /// The boot state without data: the data comes at the end.
    boot: BootState,
}

/// The response that sends `stream` as it comes; to HEAD, its head only (the render stops).
pub fn respond(
    pages: Arc<Pages>,
    build: Arc<PageBuild>,
    asked: &Asked,
    boot: BootState,
    stream: Stream,
    nonce: String,
) -> Result<Response, PageError> {
    let rendered_status = StatusCode::from_u16(stream.head.status).unwrap_or(StatusCode::OK);
    let status = asked.status(rendered_status);
    let page = Streamed {
        links: asked.links(&pages.site.origin, status),
        boot,
    };
    let content = Content {
        title: &stream.head.title,
        description: &stream.head.description,
        markup: "",
        links: page.links.as_ref(),
        dev_problem: None,
    };
    let frame = Frame::new(&build.document, &page.boot, &content)?;
    let gzip = takes_gzip(&asked.headers);
    let mut response = (status, ()).into_response();
    let headers = PageHeaders {
        language: asked.language,
        cache_control: HeaderValue::from_static("private, no-store"),
        link: page.links.as_ref().and_then(PageLinks::link_header),
        policy: build.document.streamed_policy(&nonce),
    };
    write_headers(&mut response, headers, gzip.then_some("gzip"));
    if asked.head_only {
        stream.discard();
        // No length: the GET it stands for has none either.
        let (parts, _) = response.into_parts();
        let nothing = futures_util::stream::empty::<Result<Bytes, std::io::Error>>();
        return Ok(Response::from_parts(parts, Body::from_stream(nothing)));
    }
    let sending = Sending {
        first: Some(frame.before_markup.clone()),
        frame,
        stream,
        pages,
        build,
        page,
        gzip: gzip.then(GzipParts::new),
    };
    let body = futures_util::stream::unfold(Some(sending), |sending| async move {
        let mut sending = sending?;
        let (mut text, mut last) = sending.next().await;
        // What is there already goes in the same write: one flush, not one per part.
        while !last && let Some((more, end)) = sending.ready() {
            text.push_str(&more);
            last = end;
        }
        let bytes = sending.encode(text, last);
        Some((Ok::<_, std::io::Error>(bytes), (!last).then_some(sending)))
    });
    let (parts, _) = response.into_parts();
    Ok(Response::from_parts(parts, Body::from_stream(body)))
}

/// A streamed page on its way.
struct Sending {
    /// The document up to the markup, until it is sent.
    first: Option<String>,
    frame: Frame,
    stream: Stream,
    pages: Arc<Pages>,
    build: Arc<PageBuild>,
    page: Streamed,
    gzip: Option<GzipParts>,
}

impl Sending {
    /// The next part of the document, and whether it is the last.
    async fn next(&mut self) -> (String, bool) {
        if let Some(first) = self.first.take() {
            return (first, false);
        }
        let event = self.stream.next().await;
        self.part(event)
    }

    /// The next part if it has come already.
    fn ready(&mut self) -> Option<(String, bool)> {
        let event = self.stream.try_next()?;
        Some(self.part(event))
    }

    fn part(&mut self, event: Option<StreamEvent>) -> (String, bool) {
        let (data, problem) = match event {
            Some(StreamEvent::Html(html)) => return (html, false),
            Some(StreamEvent::End { data, errors, .. }) => {
                for error in &errors {
                    tracing::error!(error = %error.escape_debug(), "a part of a streamed page failed in the server render");
                }
                let problem = errors
                    .first()
                    .map(|error| RenderError::Script(error.clone()));
                (data, problem)
            }
            Some(StreamEvent::Failed(error)) => {
                tracing::error!(%error, "a streamed page could not be finished; the browser renders what is missing");
                (None, Some(error))
            }
            None => (None, Some(RenderError::PoolClosed)),
        };
        let boot = BootState {
            data,
            ..self.page.boot.clone()
        };
        let problem = problem.and_then(|error| {
            self.pages
                .describe_failure
                .as_ref()
                .map(|describe| describe(&error))
        });
        let Some(problem) = problem else {
            return (self.frame.after_markup(&boot), true);
        };
        let content = Content {
            title: &self.stream.head.title,
            description: &self.stream.head.description,
            markup: "",
            links: self.page.links.as_ref(),
            dev_problem: Some(&problem),
        };
        let last = document::after_markup_with_problem(&self.build.document, &boot, &content)
            .unwrap_or_else(|error| {
                tracing::error!(%error, "the end of a streamed page could not be written");
                String::new()
            });
        (last, true)
    }

    /// `text` as it goes on the wire: gzipped and flushed, when the client takes gzip.
    fn encode(&mut self, text: String, last: bool) -> Bytes {
        match self.gzip.as_mut() {
            Some(gzip) => Bytes::from(gzip.part(text.as_bytes(), last)),
            None => Bytes::from(text),
        }
    }
}
