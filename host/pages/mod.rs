//! A page request, in six steps, each a call into the file that owns it; every kind of
//! page (whole, streamed, or standing in for a failed render) goes through all six:
//!
//! 1. `request`: what is asked: the language of its path prefix and the path without it;
//!    an unprefixed path is answered at once with the way to its prefixed page
//!    (`redirect`), in the language it lands in (`landing`: saved choice › a crawler's
//!    default › `accept_language` › default), a method other than GET or HEAD is refused.
//! 2. `cache`: the cache's turn: the page is kept (sent at once), or this request renders
//!    it, leading the render or after waiting for another's, and settles the turn. A page
//!    not kept is identified then (`request`: which page the route table found at its
//!    path, the one the app renders).
//! 3. `render`: V8 renders the screen (its loader's data first, within `--load-timeout`):
//!    whole, streamed, or failed (`outcome`: what a failure becomes, for a person or a
//!    crawler).
//! 4. `sharing`: who may keep the page, from what the app declared and what its data
//!    carried; a streamed page and a stand-in have their own answer.
//! 5. `document`: the HTML document around the markup (`streamed`: its frame, sent
//!    first; `fallback`: the client-rendered page, or a crawler's 503), as `written`.
//! 6. `answer`: the page's headers, the one cache write (settling the turn), the coding
//!    (`encoding`, `gzip`), the validator and 304, and the body.

mod accept_language;
mod answer;
mod build;
mod cache;
mod cookies;
mod document;
mod encoding;
mod error;
mod escape;
mod fallback;
mod first_parts;
mod gzip;
mod landing;
mod nonce;
mod outcome;
mod redirect;
mod render;
mod representation;
mod request;
mod sharing;
mod site;
mod state;
mod streamed;
#[cfg(test)]
mod tests;
mod timing;
#[cfg(test)]
mod varnish_vcl;
mod written;

pub use build::PageBuild;
pub use cache::PageCache;
pub use sharing::Freshness;
pub use site::{CurrentBuild, Site};
pub use state::Pages;

use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::Response;

use crate::page_identity::PageIdentity;
use crate::render::BootState;
use cache::Turn;
use error::PageError;
use outcome::Outcome;
use request::{Asked, Read};
use sharing::Sharing;
use written::Written;

/// Every path the other routes leave is a page.
pub fn routes(pages: Arc<Pages>) -> Router {
    Router::new().fallback(page).with_state(pages)
}

async fn page(State(pages): State<Arc<Pages>>, request: Request) -> Response {
    let build = pages.site.build.get();
    // 1. What is asked.
    let asked = match request::read(request, &build.routes, &pages.site) {
        Read::Page(asked) => asked,
        Read::Answer(answer) => return answer,
    };
    // 2. The cache's turn.
    let turn = match pages.site.cache.turn(asked.cache_key()).await {
        Turn::Kept(kept) => return timing::kept(answer::kept(&kept, &asked.headers)),
        Turn::Render(turn) => turn,
    };
    let page = asked.identify(&build.routes);
    // 3. The render.
    let (boot, outcome, times) = render::page(&pages, &build, &asked, &page).await;
    // 4. Who may keep it.
    let sharing = Sharing::of(&outcome);
    // 5. The document: whole, the frame of a stream, or what stands in for a failed render.
    let written = match write(&pages, &build, (&asked, &page), boot, outcome) {
        Ok(written) => written,
        // The turn, dropped unsettled, counts as failed.
        Err(error) => return error.answer(build.texts.of(asked.language)),
    };
    // 6. The answer, and the cache's turn settled.
    answer::send(
        turn,
        written,
        sharing,
        &asked,
        &pages.site.freshness,
        &times,
        &pages.site.first_parts,
    )
}

/// Step 5, for each kind of page.
fn write(
    pages: &Arc<Pages>,
    build: &Arc<PageBuild>,
    (asked, page): (&Asked, &Arc<PageIdentity>),
    boot: BootState,
    outcome: Outcome,
) -> Result<Written, PageError> {
    Ok(match outcome {
        Outcome::Whole(whole) => {
            let rendered = StatusCode::from_u16(whole.rendered.status)
                .expect("the pool checks the status range");
            let status = asked.status(rendered);
            let links = asked.links(&pages.site.placement, status, page);
            Written::Whole(document::WholeDocument {
                data_keys: whole.data_keys,
                ..document::whole(&build.document, (status, links), page, boot, whole.rendered)?
            })
        }
        Outcome::Streamed { stream, nonce } => Written::Frame(Box::new(streamed::frame(
            pages.clone(),
            build.clone(),
            asked,
            page,
            boot,
            stream,
            &nonce,
        )?)),
        Outcome::Failed(fallback) => fallback::write(fallback, pages, build, asked, page, boot)?,
    })
}
