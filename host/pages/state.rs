//! What the page handler is served from, made once at start-up: the site (its build and
//! caches among it) and the renderer.

use std::sync::Arc;

use super::site::Site;
use crate::render::{PageRenderer, RenderError};

/// Development: why a render failed, as the overlay shows it (JSON).
pub type DescribeFailure = dyn Fn(&RenderError) -> String + Send + Sync;

/// Everything the page handler is served from, made once at start-up.
pub struct Pages {
    pub renderer: Arc<dyn PageRenderer>,
    pub site: Site,
    /// Development: a failed render's problem, shown over the client-rendered page.
    pub describe_failure: Option<Box<DescribeFailure>>,
}

impl Pages {
    pub fn new(renderer: Arc<dyn PageRenderer>, site: Site) -> Self {
        Self {
            renderer,
            site,
            describe_failure: None,
        }
    }
}
