//! A page request, in six steps, each a call into the file that owns it:
//!
//! 1. `request`: what is asked: the language (path prefix › saved choice › default) and
//!    the path without its prefix; an unprefixed path is answered at once with the way to
//!    its prefixed page (`redirect`), a method other than GET or HEAD is refused.
//! 2. `cache`: the cache's turn: the page is kept (sent at once), or this request renders
//!    it, leading the render or after waiting for another's, and settles the turn.
//! 3. `render`: V8 renders the screen (its loader's data first, within `--load-timeout`):
//!    whole, streamed, or failed (`fallback`: the client-rendered page, or a crawler's 503).
//! 4. `sharing`: who may keep the page, from what the app declared and what its data carried.
//! 5. `document`: the HTML document around the markup (`streamed`: its frame, sent first).
//! 6. `answer`: the one cache write (settling the turn), the coding (`encoding`, `gzip`),
//!    the validator and 304, and the page's headers.

mod answer;
mod cache;
mod cookies;
mod document;
mod encoding;
mod error;
mod escape;
mod fallback;
mod gzip;
mod nonce;
mod path;
mod redirect;
mod render;
mod representation;
mod request;
mod sharing;
mod streamed;
#[cfg(test)]
mod tests;
mod timing;

pub use cache::PageCache;
pub use document::DocumentAssets;
pub use sharing::Freshness;

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Request, State};
use axum::response::Response;

use crate::crawlers::CrawlerTest;
use crate::manifest::{AppRoutes, Manifest};
use crate::origin::Origin;
use crate::render::{PageRenderer, RenderError};
use cache::Turn;
use error::PageError;
use render::Outcome;
use request::Read;
use sharing::Sharing;

/// What the page handler needs of a build: the files its documents name and the routes
/// the app declares. Development replaces it with each new build.
pub struct PageBuild {
    pub document: DocumentAssets,
    pub routes: AppRoutes,
}

impl PageBuild {
    pub fn from_manifest(manifest: &Manifest) -> Self {
        Self {
            document: DocumentAssets::from_manifest(manifest),
            routes: AppRoutes::new(&manifest.route_patterns),
        }
    }
}

/// Development: why a render failed, as the overlay shows it (JSON).
pub type DescribeFailure = dyn Fn(&RenderError) -> String + Send + Sync;

/// What every page is written with, from the options.
pub struct Site {
    /// Where visitors reach the site: the pages' absolute links start with it.
    pub origin: Origin,
    pub crawlers: CrawlerTest,
    /// The IANA time zone dates are shown in.
    pub time_zone: Arc<str>,
    /// How long a page's loader may wait for its data.
    pub load_timeout: Duration,
    /// How long caches may keep public pages.
    pub freshness: Freshness,
}

/// Everything the page handler is served from, made once at start-up.
pub struct Pages {
    pub renderer: Arc<dyn PageRenderer>,
    build: RwLock<Arc<PageBuild>>,
    /// Finished pages, kept (`--page-cache-entries`).
    pub cache: Arc<PageCache>,
    pub site: Site,
    /// Development: a failed render's problem, shown over the client-rendered page.
    pub describe_failure: Option<Box<DescribeFailure>>,
}

impl Pages {
    pub fn new(
        renderer: Arc<dyn PageRenderer>,
        build: PageBuild,
        cache: Arc<PageCache>,
        site: Site,
    ) -> Self {
        Self {
            renderer,
            build: RwLock::new(Arc::new(build)),
            cache,
            site,
            describe_failure: None,
        }
    }

    /// The build pages are written from now.
    pub fn build(&self) -> Arc<PageBuild> {
        self.build.read().expect("build lock").clone()
    }

    /// Development: a new build's files and routes.
    pub fn set_build(&self, build: PageBuild) {
        *self.build.write().expect("build lock") = Arc::new(build);
    }
}

/// Every path the other routes leave is a page.
pub fn routes(pages: Arc<Pages>) -> Router {
    Router::new().fallback(page).with_state(pages)
}

async fn page(State(pages): State<Arc<Pages>>, request: Request) -> Result<Response, PageError> {
    let build = pages.build();
    // 1. What is asked.
    let asked = match request::read(request, &build.routes, &pages.site.freshness) {
        Read::Page(asked) => asked,
        Read::Answer(answer) => return Ok(answer),
    };
    // 2. The cache's turn.
    let turn = match pages.cache.turn(asked.cache_key()).await {
        Turn::Kept(kept) => return Ok(timing::kept(answer::kept(&kept, &asked.headers))),
        Turn::Render(turn) => turn,
    };
    // 3. The render.
    let (boot, outcome, times) = render::page(&pages, &asked).await;
    match outcome {
        Outcome::Whole(page) => {
            // 4. Who may keep it.
            let sharing = Sharing::of(&page.rendered, page.per_visitor);
            // 5. The document.
            let written = document::whole(&build, &pages.site.origin, &asked, boot, page.rendered)?;
            // 6. The answer, and the cache's turn settled.
            let encoding = Instant::now();
            let mut answer = answer::whole(turn, written, sharing, &pages.site.freshness, &asked);
            timing::whole(&mut answer, &times, &asked.trace, encoding.elapsed());
            Ok(answer)
        }
        Outcome::Streamed { stream, nonce } => {
            // Its data is fresh at each request: no one waits for another's.
            turn.not_kept();
            streamed::respond(pages.clone(), build, &asked, (boot, times), stream, nonce)
        }
        Outcome::Failed(fallback) => {
            match fallback.page_failed() {
                true => turn.failed(),
                false => turn.release(),
            }
            fallback.respond(&pages, &build, &asked, boot)
        }
    }
}
