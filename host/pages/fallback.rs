//! Step 5 for a render that failed (`outcome` says what it becomes): a person gets the
//! client-rendered page, the same document with no markup, which the browser renders from
//! the same boot state; a crawler is told to come back later. Both are logged here; when
//! the render threads are gone, the page is an error.

use std::sync::Arc;

use axum::http::StatusCode;

use super::build::PageBuild;
use super::document::{self, Content, WholeDocument};
use super::error::PageError;
use super::outcome::Fallback;
use super::request::Asked;
use super::state::Pages;
use super::written::Written;
use crate::page_identity::PageIdentity;
use crate::render::{BootState, RenderError};

/// The failed render's stand-in, logged, then written.
pub fn write(
    fallback: Fallback,
    pages: &Pages,
    build: &PageBuild,
    asked: &Asked,
    page: &Arc<PageIdentity>,
    boot: BootState,
) -> Result<Written, PageError> {
    let path = asked.path();
    let crawler = matches!(fallback, Fallback::ComeBackLater(_));
    let error = match fallback {
        Fallback::ServerError(error) => return Err(PageError::Render(error)),
        Fallback::ClientRendered(error) | Fallback::ComeBackLater(error) => error,
    };
    // A path no route takes is no page, whoever asks and however busy the threads: the
    // browser's render would show the not-found screen, so the status says it now.
    let status = match asked.no_route_takes_it(page) {
        true => StatusCode::NOT_FOUND,
        false => asked.status(StatusCode::OK),
    };
    let page = page.clone();
    let sending = match (crawler, status) {
        (true, StatusCode::OK) => "asking the crawler to come back later (503)",
        _ => "sending the client-rendered page",
    };
    match error {
        RenderError::Busy => tracing::warn!(%path, "render queue full: {sending}"),
        _ => tracing::error!(%path, %error, "server render failed: {sending}"),
    }
    if crawler && status == StatusCode::OK {
        let text = &build.texts.of(asked.language).come_back_later;
        return Ok(Written::ComeBackLater(format!("{text}\n")));
    }
    let links = asked.links(&pages.site.placement, status, &page);
    let texts = build.texts.of(asked.language);
    let (title, description) = (&texts.stand_in_title, &texts.stand_in_description);
    let problem = pages
        .describe_failure
        .as_ref()
        .map(|describe| describe(&error));
    let content = Content {
        title,
        description,
        markup: "",
        links: links.as_ref(),
        page: &page,
        dev_problem: problem.as_deref(),
    };
    Ok(Written::StandIn(WholeDocument {
        status,
        document: document::write(&build.document, &boot, &content)?,
        links,
        policy: build.document.policy().clone(),
        page,
        data_keys: Default::default(),
    }))
}
