//! What the thread's tests without V8 build pages from: a table of pages loading, a
//! visitor, and the bundle's outbox entries as it writes them.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::value::RawValue;
use tokio::sync::oneshot;

use super::PoolStats;
use super::loading::{Extras, LoadingPages};
use crate::render::contract::Rendered;
use crate::render::error::RenderError;
use crate::render::exchange::{Finished, StreamPart};
use crate::render::page::{Rendering, Visitor};
use crate::trace::Trace;

pub(super) fn loading() -> LoadingPages {
    LoadingPages::new(Arc::new(PoolStats::new(1)), Arc::default())
}

pub(super) fn visitor() -> Arc<Visitor> {
    Arc::new(Visitor {
        cookie: None,
        authorization: None,
        language: crate::lang::demo().default_language(),
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

pub(super) fn entry(json: &str) -> Box<RawValue> {
    RawValue::from_string(json.to_string()).unwrap()
}

/// What a stand-in page is: the home page, in French and English.
pub(super) const PAGE: &str = r#"{"route":"home","params":{},"paths":{"fr":"/","en":"/"}}"#;

pub(super) fn rendered(status: u16) -> Rendered {
    serde_json::from_str(&format!(
        r#"{{"status":{status},"title":"t","description":"d","html":"<p>x</p>","sharing":{{"kind":"public"}},"page":{page}}}"#,
        page = PAGE
    ))
    .unwrap()
}

pub(super) fn finished(job: u64, result: Result<Rendered, RenderError>) -> Finished {
    Finished { job, result }
}

pub(super) fn stream_part(json: &str) -> StreamPart {
    StreamPart::read(&entry(json)).unwrap().unwrap()
}
