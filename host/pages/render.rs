//! Step 3 of a page request: the render. The page comes whole, or, for a person's page
//! that waits for data, as a stream (a crawler gets it whole, with its final status); a
//! render that fails becomes a [`Fallback`].

use std::time::Instant;

use super::Pages;
use super::fallback::{self, Fallback};
use super::nonce::Nonce;
use super::request::Asked;
use crate::render::{BootState, Page, Rendering, Stream};

pub enum Outcome {
    Whole(Page),
    /// Its inline scripts carry `nonce`.
    Streamed {
        stream: Stream,
        nonce: String,
    },
    Failed(Fallback),
}

/// Renders the page `asked` for; with the boot state the browser starts from (the data
/// goes in when it comes).
pub async fn page(pages: &Pages, asked: &Asked) -> (BootState, Outcome) {
    let boot = BootState {
        language: asked.language,
        path: asked.path().to_string(),
        time_zone: pages.site.time_zone.clone(),
        data: None,
    };
    let crawler = pages.site.crawlers.is_crawler(&asked.headers);
    // HEAD asks for the same head as GET: a person's page may stream, and HEAD stops it.
    let nonce = (asked.offered && !crawler).then(|| Nonce::random().to_string());
    let deadline = Instant::now() + pages.site.load_timeout;
    let rendering = pages
        .renderer
        .render(&boot, asked.visitor(), deadline, nonce.clone())
        .await;
    let outcome = match rendering {
        Ok(Rendering::Complete(page)) => Outcome::Whole(page),
        Ok(Rendering::Streaming(stream)) => Outcome::Streamed {
            stream,
            nonce: nonce.expect("a stream is asked for with a nonce"),
        },
        Err(error) => Outcome::Failed(fallback::decide(error, crawler)),
    };
    (boot, outcome)
}
