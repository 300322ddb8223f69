//! A page sent as it is rendered: the document's head and the screen's frame at once (the
//! parts that wait for data show their fallback), then the rest of the markup as React
//! writes it, then the boot state with the data that came. Such a page is its visitor's
//! (its data is fresh at each request) and its inline scripts carry its nonce, so it is
//! kept by no one. A client that takes gzip gets each part compressed and flushed as it
//! comes, with no compressor held while the page waits (see `gzip`). When the client goes
//! away, the response is dropped, and with it the stream, which stops the render. This
//! file writes its frame (step 5) and its body; its head is every page's (`answer`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use http_body_util::StreamBody;

use super::build::PageBuild;
use super::document::{self, Content, Frame};
use super::gzip::GzipParts;
use super::request::Asked;
use super::state::Pages;
use super::timing::{self, RenderTimes};
use crate::links::PageLinks;
use crate::page_identity::PageIdentity;
use crate::render::{BootState, RenderError, Stream, StreamEvent};
use crate::trace::Trace;

/// A streamed page once its frame is written: what its head says, and what its body needs.
pub struct StreamedPage {
    pub status: StatusCode,
    pub links: Option<PageLinks>,
    /// What the page is, as its head says and as it is asked.
    pub page: Arc<PageIdentity>,
    /// The policy of its document: React's inline scripts carry its nonce.
    pub policy: HeaderValue,
    frame: Frame,
    stream: Stream,
    /// The boot state without data: the data comes at the end.
    boot: BootState,
    pages: Arc<Pages>,
    build: Arc<PageBuild>,
}

/// Step 5 for a streamed page: the document around its markup, written once, when the
/// stream starts (the parts that wait for data show their fallback).
pub fn frame(
    pages: Arc<Pages>,
    build: Arc<PageBuild>,
    asked: &Asked,
    page: &Arc<PageIdentity>,
    boot: BootState,
    stream: Stream,
    nonce: &str,
) -> Result<StreamedPage, askama::Error> {
    let rendered_status = StatusCode::from_u16(stream.head.status).unwrap_or(StatusCode::OK);
    let status = asked.status(rendered_status);
    let page = page.clone();
    let links = asked.links(&pages.site.placement, status, &page);
    let content = Content {
        title: &stream.head.title,
        description: &stream.head.description,
        markup: "",
        links: links.as_ref(),
        page: &page,
        dev_problem: None,
    };
    let frame = Frame::new(&build.document, &boot, &content)?;
    Ok(StreamedPage {
        status,
        links,
        page,
        policy: build.document.streamed_policy(nonce),
        frame,
        stream,
        boot,
        pages,
        build,
    })
}

impl StreamedPage {
    /// The body: the frame at once, then the rest as it comes, each part gzipped and
    /// flushed when `gzip`; the timings follow in a trailer where the client takes them.
    /// To HEAD, nothing, and no length (the GET it stands for has none either): the render
    /// stops.
    pub fn body(self, asked: &Asked, times: RenderTimes, gzip: bool) -> Body {
        if asked.head_only {
            self.stream.discard();
            times.record(&asked.trace, Instant::now(), false);
            let nothing = futures_util::stream::empty::<Result<Bytes, std::io::Error>>();
            return Body::from_stream(nothing);
        }
        let sending = Sending {
            first: Some(self.frame.before_markup.clone()),
            opening: true,
            page: self,
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
            // The frame and, when it is there already, the kept shell: the same for
            // everyone who asks this page, so compressed once (see `first_parts`).
            let mut opening = None;
            if std::mem::take(&mut sending.opening) {
                if !last && let Some((more, end)) = sending.ready() {
                    text.push_str(&more);
                    last = end;
                }
                if !last {
                    opening = Some(std::mem::take(&mut text));
                }
            }
            // What is there already goes in the same write: one flush, not one per part.
            while !last && let Some((more, end)) = sending.ready() {
                text.push_str(&more);
                last = end;
            }
            let bytes = sending.encode(opening, text, last);
            sending.timed.ended = last;
            Some((
                Ok::<_, std::io::Error>(http_body::Frame::data(bytes)),
                Some(sending),
            ))
        });
        Body::new(StreamBody::new(body))
    }
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
    /// Nothing is sent yet.
    opening: bool,
    page: StreamedPage,
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
        let event = self.page.stream.next().await;
        self.part(event)
    }

    /// The next part if it has come already.
    fn ready(&mut self) -> Option<(String, bool)> {
        let event = self.page.stream.try_next()?;
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
            self.page
                .pages
                .describe_failure
                .as_ref()
                .map(|describe| describe(&error))
        });
        let Some(problem) = problem else {
            return (self.page.frame.after_markup(&boot), true);
        };
        let content = Content {
            title: &self.page.stream.head.title,
            description: &self.page.stream.head.description,
            markup: "",
            links: self.page.links.as_ref(),
            page: &self.page.page,
            dev_problem: Some(&problem),
        };
        let last = document::after_markup_with_problem(&self.page.build.document, &boot, &content)
            .unwrap_or_else(|error| {
                tracing::error!(%error, "the end of a streamed page could not be written");
                String::new()
            });
        (last, true)
    }

    /// `opening` (the page's first part, when it is not its last) then `text`, as they go
    /// on the wire: gzipped and flushed, when the client takes gzip, in one write.
    fn encode(&mut self, opening: Option<String>, text: String, last: bool) -> Bytes {
        let Some(gzip) = self.gzip.as_mut() else {
            return match opening {
                Some(mut opening) => {
                    opening.push_str(&text);
                    Bytes::from(opening)
                }
                None => Bytes::from(text),
            };
        };
        let started = Instant::now();
        let bytes = match opening {
            Some(opening) => {
                let first = self.page.pages.site.first_parts.compressed(&opening);
                *gzip = first.rest();
                if text.is_empty() && !last {
                    first.bytes().clone()
                } else {
                    let mut bytes = first.bytes().to_vec();
                    bytes.extend(gzip.part(text.as_bytes(), last));
                    Bytes::from(bytes)
                }
            }
            None => Bytes::from(gzip.part(text.as_bytes(), last)),
        };
        self.timed.encoding += started.elapsed();
        bytes
    }
}
