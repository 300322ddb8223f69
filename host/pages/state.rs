//! What the page handler is served from, made once at start-up: the site, its build
//! (replaced by development with each new one), the renderer and the page cache.

use std::sync::{Arc, RwLock};

use super::cache::PageCache;
use super::document::DocumentAssets;
use super::first_parts::FirstParts;
use super::site::Site;
use crate::lang::Languages;
use crate::manifest::{AppRoutes, Manifest};
use crate::render::{PageRenderer, RenderError};
use crate::texts::Texts;

/// What the page handler needs of a build: the files its documents name, the routes the
/// app declares, and the host's own texts. Development replaces it with each new build.
pub struct PageBuild {
    pub document: DocumentAssets,
    pub routes: AppRoutes,
    pub texts: Arc<Texts>,
}

impl PageBuild {
    /// Fails when the manifest lacks a language's texts, or a route's path in a language.
    pub fn from_manifest(languages: &Languages, manifest: &Manifest) -> Result<Self, String> {
        Ok(Self {
            document: DocumentAssets::from_manifest(languages, manifest),
            routes: AppRoutes::new(languages, &manifest.routes)?,
            texts: Arc::new(Texts::new(languages, &manifest.host_texts)?),
        })
    }
}

/// Development: why a render failed, as the overlay shows it (JSON).
pub type DescribeFailure = dyn Fn(&RenderError) -> String + Send + Sync;

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
    pub first_parts: FirstParts,
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
