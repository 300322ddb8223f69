//! Step 3 of a page request: the render. The page comes whole, or, for a person's page
//! that waits for data, as a stream (a crawler gets it whole, with its final status); a
//! render that fails becomes a fallback (`outcome`).

use std::sync::Arc;
use std::time::Instant;

use super::build::PageBuild;
use super::nonce::Nonce;
use super::outcome::{self, Outcome};
use super::request::Asked;
use super::state::Pages;
use super::timing::RenderTimes;
use crate::page_identity::PageIdentity;
use crate::render::{BootState, Rendering};

/// Renders the page `asked` for; with the boot state the browser starts from (the data
/// goes in when it comes), and when the render went. A streamed page's render span is
/// recorded when its stream ends, the others' here.
pub async fn page(
    pages: &Pages,
    build: &PageBuild,
    asked: &Asked,
    page: &Arc<PageIdentity>,
) -> (BootState, Outcome, RenderTimes) {
    let for_the_app = asked.for_the_app(page);
    let messages = for_the_app
        .as_deref()
        .and_then(PageIdentity::route)
        .and_then(|route| build.document.page_messages(asked.language, route));
    let boot = BootState {
        language: asked.language,
        path: asked.path().to_string(),
        page: for_the_app,
        messages,
        time_zone: pages.site.time_zone.clone(),
        data: None,
        placement: pages.site.placement.for_the_app(),
    };
    let crawler = pages.site.crawlers.is_crawler(&asked.headers);
    // HEAD asks for the same head as GET: a person's page may stream, and HEAD stops it.
    let nonce = (asked.offered && !crawler).then(|| Nonce::random().to_string());
    let started = Instant::now();
    let deadline = started + pages.site.load_timeout;
    let rendering = pages
        .renderer
        .render(
            &boot,
            asked.visitor(&pages.site.languages),
            deadline,
            nonce.clone(),
            asked.may_wait,
        )
        .await;
    let times = RenderTimes {
        asked: started,
        taken: asked.trace.taken(),
        answered: Instant::now(),
    };
    let outcome = match rendering {
        Ok(Rendering::Complete(page)) => Outcome::Whole(page),
        Ok(Rendering::Streaming(stream)) => Outcome::Streamed {
            stream,
            nonce: nonce.expect("a stream is asked for with a nonce"),
        },
        Err(error) => Outcome::Failed(outcome::decide(error, crawler)),
    };
    match &outcome {
        Outcome::Whole(_) => times.record(&asked.trace, times.answered, false),
        Outcome::Failed(_) => times.record(&asked.trace, times.answered, true),
        Outcome::Streamed { .. } => {}
    }
    (boot, outcome, times)
}
