//! A render that failed still answers. A person gets the client-rendered page: the same
//! document with no markup, which the browser renders from the same boot state (loading
//! the data itself). A crawler is told to come back later rather than be given an empty
//! page to index. Only when the render threads are gone (shutting down) is it a 500.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::answer;
use super::document::{self, Content};
use super::encoding;
use super::error::PageError;
use super::representation::PageHeaders;
use super::request::Asked;
use super::{PageBuild, Pages};
use crate::lang::Language;
use crate::links::PageLinks;
use crate::render::{BootState, RenderError};

#[derive(Debug)]
pub enum Fallback {
    ClientRendered(RenderError),
    /// 503 with `Retry-After`.
    ComeBackLater(RenderError),
    ServerError(RenderError),
}

/// What a failed render becomes, for a person or a crawler.
pub fn decide(error: RenderError, crawler: bool) -> Fallback {
    match (error, crawler) {
        (RenderError::PoolClosed, _) => Fallback::ServerError(RenderError::PoolClosed),
        (error, true) => Fallback::ComeBackLater(error),
        (error, false) => Fallback::ClientRendered(error),
    }
}

impl Fallback {
    /// Whether the page itself failed: a full queue says nothing of the page, and those
    /// waiting for it may try their own render at once.
    pub fn page_failed(&self) -> bool {
        !matches!(
            self,
            Fallback::ClientRendered(RenderError::Busy)
                | Fallback::ComeBackLater(RenderError::Busy)
        )
    }

    /// The answer: logged, then written.
    pub fn respond(
        self,
        pages: &Pages,
        build: &PageBuild,
        asked: &Asked,
        boot: BootState,
    ) -> Result<Response, PageError> {
        let path = asked.path();
        let crawler = matches!(self, Fallback::ComeBackLater(_));
        let error = match self {
            Fallback::ServerError(error) => return Err(PageError::Render(error)),
            Fallback::ClientRendered(error) | Fallback::ComeBackLater(error) => error,
        };
        // A path no route takes is no page, whoever asks and however busy the threads: the
        // browser's render would show the not-found screen, so the status says it now.
        let status = match build.routes.match_any(path) {
            true => asked.status(StatusCode::OK),
            false => StatusCode::NOT_FOUND,
        };
        let sending = match (crawler, status) {
            (true, StatusCode::OK) => "asking the crawler to come back later (503)",
            _ => "sending the client-rendered page",
        };
        match error {
            RenderError::Busy => tracing::warn!(%path, "render queue full: {sending}"),
            _ => tracing::error!(%path, %error, "server render failed: {sending}"),
        }
        if crawler && status == StatusCode::OK {
            return Ok(come_back_later(asked.language));
        }
        let links = asked.links(&pages.site.origin, status);
        let (title, description) = pages.renderer.shell_text(asked.language);
        let problem = pages
            .describe_failure
            .as_ref()
            .map(|describe| describe(&error));
        let content = Content {
            title,
            description,
            markup: "",
            links: links.as_ref(),
            dev_problem: problem.as_deref(),
        };
        let shell = document::write(&build.document, &boot, &content)?;
        let headers = PageHeaders {
            language: asked.language,
            cache_control: HeaderValue::from_static("no-store"),
            link: links.as_ref().and_then(PageLinks::link_header),
            policy: build.document.policy().clone(),
        };
        let sent = encoding::fresh(shell, &asked.headers, false);
        Ok(answer::respond(status, sent, headers, &asked.headers))
    }
}

fn come_back_later(language: Language) -> Response {
    let mut response = (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (header::RETRY_AFTER, "30"),
            (header::CACHE_CONTROL, "no-store"),
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
        ],
        "Le service est momentanément indisponible ; réessayez plus tard. / The service is briefly unavailable; try again later.\n",
    )
        .into_response();
    response.extensions_mut().insert(language);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_error() -> Vec<RenderError> {
        vec![
            RenderError::Start("no V8".into()),
            RenderError::Script("TypeError".into()),
            RenderError::Unreadable("not JSON".into()),
            RenderError::PoolClosed,
            RenderError::ThreadLost,
            RenderError::Busy,
            RenderError::TimedOut,
            RenderError::WarmUpTimedOut(std::time::Duration::from_secs(1)),
            RenderError::HeapExhausted,
        ]
    }

    #[test]
    fn every_render_error_has_its_fallback_for_a_person_and_for_a_crawler() {
        for error in every_error() {
            let closed = matches!(error, RenderError::PoolClosed);
            let busy = matches!(error, RenderError::Busy);
            let person = decide(error.clone(), false);
            let crawler = decide(error.clone(), true);
            match closed {
                true => {
                    assert!(matches!(person, Fallback::ServerError(_)), "{error}");
                    assert!(matches!(crawler, Fallback::ServerError(_)), "{error}");
                }
                false => {
                    assert!(matches!(person, Fallback::ClientRendered(_)), "{error}");
                    assert!(matches!(crawler, Fallback::ComeBackLater(_)), "{error}");
                }
            }
            assert_eq!(person.page_failed(), !busy, "{error}");
            assert_eq!(crawler.page_failed(), !busy, "{error}");
        }
    }
}
