//! What the thread's tests without V8 build pages from: a table of pages loading, a
//! visitor, and what the bundle hands over, as it writes it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::PoolStats;
use super::loading::{Extras, LoadingPages};
use crate::render::contract::Rendered;
use crate::render::error::RenderError;
use crate::render::exchange::{Finished, Handed, OutboxEntry, StreamPart};
use crate::render::page::{Rendering, Visitor};
use crate::trace::Trace;

pub(super) fn loading() -> LoadingPages {
    LoadingPages::new(Arc::new(PoolStats::new(1)), Arc::default())
}

pub(super) fn visitor() -> Arc<Visitor> {
    Arc::new(Visitor {
        cookie: None,
        authorization: None,
        accept_language: axum::http::HeaderValue::from_static("fr-FR, fr;q=0.9"),
        peer: None,
        trace: Trace::untraced(),
    })
}

/// A page whose data must come now, with `render_timeout` to finish: its job, and where
/// its handler waits.
pub(super) fn page(
    pages: &mut LoadingPages,
    render_timeout: Duration,
) -> (u64, oneshot::Receiver<Result<Rendering, RenderError>>) {
    let (reply, replied) = oneshot::channel();
    let job = pages.add(
        visitor(),
        Instant::now(),
        render_timeout,
        reply,
        Extras::default(),
    );
    (job, replied)
}

pub(super) fn rendered(status: u16) -> Rendered {
    let result = format!(
        r#"{{"status":{status},"title":"t","description":"d","sharing":{{"kind":"public"}}}}"#
    );
    Rendered {
        html: "<p>x</p>".into(),
        ..serde_json::from_str(&result).unwrap()
    }
}

pub(super) fn finished(job: u64, result: Result<Rendered, RenderError>) -> Finished {
    Finished { job, result }
}

/// A part as the bundle hands it over, read.
fn part(handed: Handed) -> StreamPart {
    match OutboxEntry::read(handed) {
        OutboxEntry::Part(Ok(part)) => part,
        _ => panic!("a readable part"),
    }
}

/// The head of the streamed page `job`, titled `title`.
pub(super) fn head(job: u64, title: &str) -> StreamPart {
    let head = format!(r#"{{"status":200,"title":"{title}","description":"d"}}"#);
    part(Handed::Head { job, head })
}

pub(super) fn markup(job: u64, html: &str) -> StreamPart {
    part(Handed::Part {
        job,
        html: html.into(),
    })
}

/// Its end, as JSON (`StreamEnd`).
pub(super) fn end(job: u64, end: &str) -> StreamPart {
    part(Handed::End {
        job,
        end: end.into(),
    })
}
