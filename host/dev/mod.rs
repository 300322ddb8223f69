//! Development mode (`--dev DIR`, from `npm run dev`; never for production): the bundle,
//! the document's files, the assets and the list of languages come from DIR, which
//! `app/dev.mjs` rebuilds on every save and announces by writing `DIR/build.json` last.
//! The host then swaps its V8 runtimes (no snapshot in development) and tells every open
//! tab, over server-sent events, to reload, to swap a changed stylesheet, or to show the
//! problem: a build error as esbuild reported it, or a server-render error mapped through
//! the bundle's source map to the app's file and line. Every answer is `no-store`, and the
//! host never exits because of a bad edit: it keeps what worked and shows what does not.

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use axum::Router;
use axum::extract::{Path as UrlPath, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::Stream;
use serde::Deserialize;
use tokio::sync::broadcast;

use crate::assets::{PREFIX, content_type};
use crate::manifest::Manifest;
use crate::pages::{PageBuild, Pages};
use crate::render::{Bundle, RenderError, RenderPool};
pub use problems::{Problem, Problems};
use problems::{SourceMapFile, render_problem};

mod problems;

/// How often `build.json` is looked at: a save should show within a second, and a look
/// is one `stat`.
const LOOK_EVERY: Duration = Duration::from_millis(10);

/// What `app/dev.mjs` wrote after a build (`build.json`, made by
/// `app/bundling/build-report.mjs`), read strictly.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "outcome", rename_all = "lowercase", deny_unknown_fields)]
enum BuildReport {
    Built { id: u64, kind: BuildKind, ms: u64 },
    Failed { id: u64, problems: Vec<Problem> },
}

/// What a successful build changed.
#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum BuildKind {
    /// Only a stylesheet: the pages swap it in place.
    Styles,
    /// Anything else: the pages reload.
    Reload,
}

#[derive(Debug, Clone)]
enum Change {
    Reload,
    Styles(Vec<String>),
    Problems(Problems),
}

pub struct Dev {
    dir: PathBuf,
    changes: broadcast::Sender<Change>,
    /// The problem on show, for a tab that connects now.
    showing: RwLock<Option<Problems>>,
    source_map: RwLock<Arc<SourceMapFile>>,
}

impl Dev {
    pub fn new(dir: PathBuf) -> Self {
        Self {
            source_map: RwLock::default(),
            dir,
            changes: broadcast::channel(16).0,
            showing: RwLock::default(),
        }
    }

    pub fn manifest(&self) -> Result<Manifest, String> {
        Manifest::read(&self.dir.join("manifest.json"))
    }

    /// The server bundle to start with, its source map taken up with it.
    pub fn bundle(&self) -> Result<Bundle, String> {
        let (bundle, map) = Self::bundle_and_map(&self.dir)?;
        *self.source_map.write().expect("source map lock") = Arc::new(map);
        Ok(bundle)
    }

    /// The server bundle and its source map, read together: a later save's map is never
    /// paired with this bundle. Reads the disk: call it off the async workers.
    fn bundle_and_map(dir: &Path) -> Result<(Bundle, SourceMapFile), String> {
        let path = dir.join("server.js");
        let source = std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: {e} (does `npm run dev` run?)", path.display()))?;
        Ok((Bundle::Script(source.into()), SourceMapFile::read(dir)))
    }

    fn show(&self, change: Change) {
        *self.showing.write().expect("problems lock") = match &change {
            Change::Problems(problems) => Some(problems.clone()),
            _ => None,
        };
        let _ = self.changes.send(change);
    }

    /// A render failure as the overlay shows it (JSON): the bundle's positions mapped to
    /// the app's files.
    pub fn describe_failure(&self, error: &RenderError) -> String {
        serde_json::to_string(&self.render_problem(error)).expect("serialisable")
    }

    /// A render failure as the overlay shows it: the bundle's positions mapped to the
    /// app's files.
    pub fn render_problem(&self, error: &RenderError) -> Problems {
        let file = Arc::clone(&self.source_map.read().expect("source map lock"));
        render_problem(error, &file)
    }
}

/// Development's own routes: the build folder's assets and the tabs' events.
pub fn routes(dev: Arc<Dev>) -> Router {
    Router::new()
        .route(&format!("{PREFIX}{{name}}"), get(asset))
        .route("/_bilingue/events", get(events))
        .with_state(dev)
}

/// Nothing is kept in development: every answer is `no-store`.
pub fn no_store(router: Router) -> Router {
    router.layer(middleware::from_fn(no_store_layer))
}

/// Watches `DIR/build.json`, for ever: each new build is taken up by the pages and the
/// render threads, and told to the tabs.
pub fn watch_builds(dev: Arc<Dev>, pages: Arc<Pages>, pool: Arc<RenderPool>) {
    tokio::spawn(async move {
        let path = dev.dir.join("build.json");
        let stamp = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let mut seen: Option<SystemTime> = stamp(&path);
        loop {
            tokio::time::sleep(LOOK_EVERY).await;
            let now = stamp(&path);
            if now == seen {
                continue;
            }
            seen = now;
            let Some(build) = std::fs::read_to_string(&path)
                .ok()
                .and_then(|text| serde_json::from_str::<BuildReport>(&text).ok())
            else {
                continue;
            };
            take_up(&dev, &pages, &pool, build).await;
        }
    });
}

async fn take_up(dev: &Dev, pages: &Pages, pool: &RenderPool, build: BuildReport) {
    let kind = match build {
        BuildReport::Failed { id, problems } => {
            tracing::error!(
                build = id,
                problems = problems.len(),
                "the app did not build"
            );
            dev.show(Change::Problems(Problems {
                title: "The app did not build",
                problems,
            }));
            return;
        }
        BuildReport::Built { id, kind, ms } => {
            tracing::debug!(build = id, ms, ?kind, "a new build");
            kind
        }
    };
    let manifest = match dev.manifest() {
        Ok(manifest) => manifest,
        Err(e) => return tracing::error!(error = %e, "the new build's manifest"),
    };
    let languages = &pages.site.languages;
    if !languages.declared_by(&manifest.declared) {
        tracing::warn!(
            "app/i18n/languages.json changed: restart the host to serve the new list (this build is served with the list it started with)"
        );
    }
    let build_parts = match PageBuild::from_manifest(languages, &manifest) {
        Ok(build_parts) => build_parts,
        Err(e) => return tracing::error!(error = %e, "the new build's manifest"),
    };
    let styles = build_parts.document.styles().to_vec();
    pages.site.build.set(build_parts);
    if kind == BuildKind::Styles {
        return dev.show(Change::Styles(styles));
    }
    let dir = dev.dir.clone();
    let read = tokio::task::spawn_blocking(move || Dev::bundle_and_map(&dir))
        .await
        .unwrap_or_else(|e| Err(format!("reading the new bundle: {e}")));
    let (bundle, map) = match read {
        Ok(read) => read,
        Err(e) => {
            let error = RenderError::Start(e);
            tracing::error!(%error, "the new server bundle; the previous one still serves");
            let map = Arc::clone(&dev.source_map.read().expect("source map lock"));
            return dev.show(Change::Problems(render_problem(&error, &map)));
        }
    };
    match pool.reload(bundle).await {
        Ok(()) => {
            // The map of the bundle that now serves, for the failures it will have.
            *dev.source_map.write().expect("source map lock") = Arc::new(map);
            tracing::info!("took up the new build");
            dev.show(Change::Reload);
        }
        Err(error) => {
            // The previous bundle still serves, with its map; this failure is the new one's.
            tracing::error!(%error, "the new server bundle fails; the previous one still serves");
            dev.show(Change::Problems(render_problem(&error, &map)));
        }
    }
}

/// `GET /_bilingue/events`: what changes, as server-sent events, from now on; first, the
/// problem on show, if any.
async fn events(State(dev): State<Arc<Dev>>) -> Response {
    let now = dev.showing.read().expect("problems lock").clone();
    let changes = dev.changes.subscribe();
    Sse::new(change_events(now.map(Change::Problems), changes))
        .keep_alive(KeepAlive::default())
        .into_response()
}

fn change_events(
    first: Option<Change>,
    changes: broadcast::Receiver<Change>,
) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold((first, changes), |(first, mut changes)| async move {
        let change = match first {
            Some(change) => change,
            None => match changes.recv().await {
                Ok(change) => change,
                // Changes missed while this tab lagged: reloading is always right.
                Err(broadcast::error::RecvError::Lagged(_)) => Change::Reload,
                Err(broadcast::error::RecvError::Closed) => return None,
            },
        };
        let event = match change {
            Change::Reload => Event::default().event("reload").data("{}"),
            Change::Styles(hrefs) => Event::default()
                .event("styles")
                .data(serde_json::to_string(&hrefs).expect("serialisable")),
            Change::Problems(problems) => Event::default()
                .event("problems")
                .data(serde_json::to_string(&problems).expect("serialisable")),
        };
        Some((Ok(event), (None, changes)))
    })
}

/// An asset of the current build, from `DIR/assets`.
async fn asset(State(dev): State<Arc<Dev>>, UrlPath(name): UrlPath<String>) -> Response {
    // Names esbuild writes: no separators, no dot-dot.
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
    let bytes = match plain {
        true => tokio::fs::read(dev.dir.join("assets").join(&name))
            .await
            .ok(),
        false => None,
    };
    match bytes {
        Some(bytes) => ([(header::CONTENT_TYPE, content_type(&name))], bytes).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            format!("no such asset: {PREFIX}{name}"),
        )
            .into_response(),
    }
}

async fn no_store_layer(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `app/bundling/build-report.mjs` makes is what `app/dev.mjs` writes: read here
    /// strictly, it must be what the host expects, field for field.
    #[test]
    fn the_build_reports_the_loop_writes_are_the_ones_the_host_reads() {
        let written = crate::test_support::node(
            r#"import { builtReport, failedReport } from "./app/bundling/build-report.mjs";
            const somewhere = { file: "app/App.tsx", line: 4, column: 5, message: "m" };
            const nowhere = { file: undefined, line: undefined, column: undefined, message: "n" };
            process.stdout.write(JSON.stringify([
              builtReport(1, "styles", 12),
              builtReport(2, "reload", 0),
              failedReport(3, [somewhere, nowhere]),
            ]));"#,
            &[],
        );
        let reports: Vec<BuildReport> = serde_json::from_str(&written).unwrap();
        let problem = |file: Option<&str>, line, column, message: &str| Problem {
            file: file.map(String::from),
            line,
            column,
            message: message.into(),
        };
        assert_eq!(
            reports,
            [
                BuildReport::Built {
                    id: 1,
                    kind: BuildKind::Styles,
                    ms: 12
                },
                BuildReport::Built {
                    id: 2,
                    kind: BuildKind::Reload,
                    ms: 0
                },
                BuildReport::Failed {
                    id: 3,
                    problems: vec![
                        problem(Some("app/App.tsx"), Some(4), Some(5), "m"),
                        problem(None, None, None, "n"),
                    ],
                },
            ]
        );
    }
}
