//! What the page handler needs of a build, made once when the build is read (development
//! makes one of each new build).

use std::sync::Arc;

use super::document::DocumentAssets;
use crate::lang::Languages;
use crate::manifest::{AppRoutes, Manifest};
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
