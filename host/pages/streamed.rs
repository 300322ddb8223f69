//! A page sent as it is rendered: the document's head and the screen's frame at once (the
//! parts that wait for data show their fallback), then the rest of the markup as React
//! writes it, then the boot state with the data that came. Such a page is its visitor's
//! (its data is fresh at each request) and its inline scripts carry its nonce, so it is
//! kept by no one. A client that takes gzip gets each part compressed and flushed as it
//! comes, with no compressor held while the page waits (see `gzip`). When the client goes
//! away, the response is dropped, and with it the stream, which stops the render.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body_util::StreamBody;

use super::answer::write_headers;
use super::document::{self, Content, Frame};
use super::error::PageError;
use super::gzip::GzipParts;
use super::representation::PageHeaders;
use super::request::Asked;
use super::timing::{self, RenderTimes};
use super::{PageBuild, Pages};
use crate::accept_encoding::takes_gzip;
use crate::links::PageLinks;
use crate::render::{BootState, RenderError, Stream, StreamEvent};
use crate::trace::Trace;

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
    (boot, times): (BootState, RenderTimes),
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
    let head_timing = timing::streamed_head(&times);
    response
        .headers_mut()
        .insert(timing::SERVER_TIMING, head_timing);
    if asked.trailers {
        response
            .headers_mut()
            .insert(header::TRAILER, HeaderValue::from_static("server-timing"));
    }
    if asked.head_only {
        stream.discard();
        times.record(&asked.trace, std::time::Instant::now(), false);
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
        timed: Timed {
            times,
            trace: Some(asked.trace.clone()),
            encoding: Duration::ZERO,
            ended: false,
        },
        trailers: asked.trailers,
    };
    let body = futures_util::stream::unfold(Some(sending), |sending| async move {
        let mut sending = sending?;
        if sending.timed.ended {
            // The document has gone: its timings follow, where the client takes trailers.
            let mut trailers = HeaderMap::new();
            trailers.insert(timing::SERVER_TIMING, sending.timed.end_timing(false)?);
            return sending
                .trailers
                .then(|| (Ok(http_body::Frame::trailers(trailers)), None));
        }
        let (mut text, mut last) = sending.next().await;
        // What is there already goes in the same write: one flush, not one per part.
        while !last && let Some((more, end)) = sending.ready() {
            text.push_str(&more);
            last = end;
        }
        let bytes = sending.encode(text, last);
        sending.timed.ended = last;
        Some((
            Ok::<_, std::io::Error>(http_body::Frame::data(bytes)),
            Some(sending),
        ))
    });
    let (parts, _) = response.into_parts();
    Ok(Response::from_parts(
        parts,
        Body::new(StreamBody::new(body)),
    ))
}

/// A streamed page's timings, written when its last part has gone, or recorded as failed
/// when it is dropped before (the client left).
struct Timed {
    times: RenderTimes,
    /// Until the timings are written.
    trace: Option<Trace>,
    /// Spent coding its parts.
    encoding: Duration,
    /// The last part has been sent.
    ended: bool,
}

impl Timed {
    /// The trailer's `Server-Timing`, the first time only; the render and stream spans.
    fn end_timing(&mut self, failed: bool) -> Option<HeaderValue> {
        let trace = self.trace.take()?;
        Some(timing::streamed_end(
            &self.times,
            &trace,
            self.encoding,
            failed,
        ))
    }
}

impl Drop for Timed {
    fn drop(&mut self) {
        self.end_timing(!self.ended);
    }
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
    timed: Timed,
    /// The client takes the timings as a trailer.
    trailers: bool,
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
            Some(gzip) => {
                let started = Instant::now();
                let bytes = Bytes::from(gzip.part(text.as_bytes(), last));
                self.timed.encoding += started.elapsed();
                bytes
            }
            None => Bytes::from(text),
        }
    }
}
