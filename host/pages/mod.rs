//! A page request, in six steps, each a call into the file that owns it; every kind of
//! page (whole, streamed, or standing in for a failed render) goes through all six:
//!
//! 1. `request`: what is asked: the language of its path prefix and the path without it;
//!    an unprefixed path is answered at once with the way to its prefixed page
//!    (`redirect`), in the language it lands in (`landing`: saved choice › a crawler's
//!    default › `accept_language` › default), a method other than GET or HEAD is refused.
//! 2. `cache`: the cache's turn: the page is kept (sent at once), or this request renders
//!    it, leading the render or after waiting for another's, and settles the turn.
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
mod streamed;
#[cfg(test)]
mod tests;
mod timing;
#[cfg(test)]
mod varnish_vcl;
mod written;

pub use cache::PageCache;
pub use document::DocumentAssets;
pub use sharing::Freshness;

use std::sync::{Arc, RwLock};
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::response::Response;

use crate::crawlers::CrawlerTest;
use crate::lang::Languages;
use crate::manifest::{AppRoutes, Manifest};
use crate::placement::Placement;
use crate::render::{BootState, PageRenderer, RenderError};
use crate::texts::Texts;
use cache::Turn;
use error::PageError;
use outcome::Outcome;
use request::{Asked, Read};
use sharing::Sharing;
use written::Written;

/// What the page handler needs of a build: the files its documents name, the routes the
/// app declares, and the host's own texts. Development replaces it with each new build.
pub struct PageBuild {
    pub document: DocumentAssets,
    pub routes: AppRoutes,
    pub texts: Arc<Texts>,
}

impl PageBuild {
    /// Fails when the manifest lacks a language's texts, or a route's path in a language.
    pub fn from_manifest(languages: Languages, manifest: &Manifest) -> Result<Self, String> {
        Ok(Self {
            document: DocumentAssets::from_manifest(languages, manifest),
            routes: AppRoutes::new(languages, &manifest.routes)?,
            texts: Arc::new(Texts::new(languages, &manifest.host_texts)?),
        })
    }
}

/// Development: why a render failed, as the overlay shows it (JSON).
pub type DescribeFailure = dyn Fn(&RenderError) -> String + Send + Sync;

/// What every page is written with, from the options.
pub struct Site {
    /// Its languages, from its build.
    pub languages: Languages,
    /// Where visitors reach the site, and where each language sits: the pages' absolute
    /// links start with it.
    pub placement: Placement,
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
    /// Streamed pages' first parts, gzipped once for everyone who asks the same page.
    pub first_parts: first_parts::FirstParts,
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
            first_parts: Default::default(),
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

async fn page(State(pages): State<Arc<Pages>>, request: Request) -> Response {
    let build = pages.build();
    // 1. What is asked.
    let asked = match request::read(request, &build.routes, &pages.site) {
        Read::Page(asked) => asked,
        Read::Answer(answer) => return answer,
    };
    // 2. The cache's turn.
    let turn = match pages.cache.turn(asked.cache_key()).await {
        Turn::Kept(kept) => return timing::kept(answer::kept(&kept, &asked.headers)),
        Turn::Render(turn) => turn,
    };
    // 3. The render.
    let (boot, outcome, times) = render::page(&pages, &asked).await;
    // 4. Who may keep it.
    let sharing = Sharing::of(&outcome);
    // 5. The document: whole, the frame of a stream, or what stands in for a failed render.
    let written = match write(&pages, &build, &asked, boot, outcome) {
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
    )
}

/// Step 5, for each kind of page.
fn write(
    pages: &Arc<Pages>,
    build: &Arc<PageBuild>,
    asked: &Asked,
    boot: BootState,
    outcome: Outcome,
) -> Result<Written, PageError> {
    Ok(match outcome {
        Outcome::Whole(page) => Written::Whole(document::WholeDocument {
            data_keys: page.data_keys,
            ..document::whole(build, &pages.site.placement, asked, boot, page.rendered)?
        }),
        Outcome::Streamed { stream, nonce } => Written::Frame(Box::new(streamed::frame(
            pages.clone(),
            build.clone(),
            asked,
            boot,
            stream,
            &nonce,
        )?)),
        Outcome::Failed(fallback) => fallback::write(fallback, pages, build, asked, boot)?,
    })
}
