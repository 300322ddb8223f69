//! The host's side of the exchange with the server bundle (`app/server/exchange.ts` is the
//! other): the outbox each call into the bundle leaves, read, and the bundle's log lines
//! written into the host's.

use serde::Deserialize;

use super::{ApiCall, RenderError, Rendered};

/// What a call into the bundle left: pages finished, API calls to make, lines to log, and
/// whether pages are still loading (a later look may find more).
#[derive(Debug, Default, Deserialize)]
pub struct Outbox {
    #[serde(default)]
    pub done: Vec<Done>,
    #[serde(default)]
    pub fetches: Vec<ApiCall>,
    #[serde(default)]
    logs: Vec<Log>,
    #[serde(default)]
    pub more: bool,
}

/// A page finished: its render, or why it failed.
#[derive(Debug, Deserialize)]
pub struct Done {
    pub job: u64,
    #[serde(default)]
    pub result: Option<Rendered>,
    #[serde(default)]
    pub failed: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Log {
    level: String,
    message: String,
}

impl Outbox {
    pub fn read(json: &str) -> Result<Self, RenderError> {
        serde_json::from_str(json).map_err(|e| RenderError::Answer(format!("{e}: {json:.200}")))
    }

    /// Adds what a later look found.
    pub fn extend(&mut self, later: Outbox) {
        self.done.extend(later.done);
        self.fetches.extend(later.fetches);
        self.logs.extend(later.logs);
        self.more = later.more;
    }

    /// Writes the bundle's console lines into the host's log.
    pub fn write_logs(&mut self) {
        for Log { level, message } in self.logs.drain(..) {
            match level.as_str() {
                "error" => tracing::error!(target: "bilingue::app", "{message}"),
                "warn" => tracing::warn!(target: "bilingue::app", "{message}"),
                _ => tracing::info!(target: "bilingue::app", "{message}"),
            }
        }
    }
}

impl Done {
    /// The page, or the bundle's reason for not rendering it.
    pub fn into_result(self) -> Result<Rendered, RenderError> {
        match (self.result, self.failed) {
            (Some(rendered), _) => Ok(rendered),
            (None, Some(failed)) => Err(RenderError::Script(failed)),
            (None, None) => Err(RenderError::Answer(
                "a finished page with neither result nor failure".into(),
            )),
        }
    }
}
