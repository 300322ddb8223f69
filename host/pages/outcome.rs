//! What a render came to (step 3's result): the page whole, its stream, or a failure, and
//! what a failure becomes. A person gets the client-rendered page: the same document with
//! no markup, which the browser renders from the same boot state (loading the data
//! itself). A crawler is told to come back later rather than be given an empty page to
//! index. Only when the render threads are gone (shutting down) is it a 500.

use crate::render::{Page, RenderError, Stream};

pub enum Outcome {
    Whole(Page),
    /// Its inline scripts carry `nonce`.
    Streamed {
        stream: Stream,
        nonce: String,
    },
    Failed(Fallback),
}

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
