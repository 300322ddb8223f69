//! The host's side of the exchange with the server bundle (`app/server/exchange.ts` is the
//! other; the ops in `outbox_ops.rs`, the values in `contract.rs`): each entry of the
//! outbox a call into the bundle left, read on its own, so that one that cannot be read
//! fails its own page alone; and the bundle's log lines written into the host's.

use serde::Deserialize;
use serde::de::IntoDeserializer;

use super::contract::{ApiCall, LogLevel, Rendered, StreamEnd, StreamHead};
use super::error::RenderError;
pub use super::outbox_ops::{Handed, Outbox};

/// A part of a streamed page, in the order the bundle made them: its head (everything
/// the document's head needs, before any data), then its markup as React writes it, then
/// its end (the loader's outcome for the boot state, and what failed in a boundary).
#[derive(Debug)]
pub enum StreamPart {
    Head {
        job: u64,
        head: StreamHead,
    },
    /// The page's static shell, prerendered (it comes after the head, before any markup,
    /// when the host asked for one): what React's `prerender` wrote before the holes that
    /// wait for data, and what `resume` needs to fill them (React's own JSON; none when the
    /// page had no hole). The host keeps it for the next visitors.
    Shell {
        job: u64,
        prelude: String,
        postponed: Option<String>,
    },
    Html {
        job: u64,
        html: String,
    },
    End {
        job: u64,
        end: StreamEnd,
    },
}

impl StreamPart {
    pub fn job(&self) -> u64 {
        match self {
            StreamPart::Head { job, .. }
            | StreamPart::Shell { job, .. }
            | StreamPart::Html { job, .. }
            | StreamPart::End { job, .. } => *job,
        }
    }
}

/// One finished page as read: its job, and its render or why there is none.
pub struct Finished {
    pub job: u64,
    pub result: Result<Rendered, RenderError>,
}

/// An entry of the outbox, read.
pub enum OutboxEntry {
    Finished(Finished),
    /// A part of a streamed page, or its page and why it cannot be read.
    Part(Result<StreamPart, (u64, RenderError)>),
    /// An API call to make; one that cannot be read says neither its page nor its call, and
    /// breaks the exchange.
    Fetch(Result<ApiCall, RenderError>),
    Log {
        level: String,
        message: String,
    },
}

impl OutboxEntry {
    pub fn read(handed: Handed) -> Self {
        let part = |job, part: Result<StreamPart, RenderError>| {
            OutboxEntry::Part(part.map_err(|error| (job, error)))
        };
        match handed {
            Handed::Rendered { job, html, result } => OutboxEntry::Finished(Finished {
                job,
                result: json::<Rendered>(&result).map(|rendered| Rendered { html, ..rendered }),
            }),
            Handed::Failed { job, why } => OutboxEntry::Finished(Finished {
                job,
                result: Err(RenderError::Script(why)),
            }),
            Handed::Head { job, head } => {
                part(job, json(&head).map(|head| StreamPart::Head { job, head }))
            }
            Handed::Shell {
                job,
                prelude,
                postponed,
            } => part(
                job,
                Ok(StreamPart::Shell {
                    job,
                    prelude,
                    postponed,
                }),
            ),
            Handed::Part { job, html } => part(job, Ok(StreamPart::Html { job, html })),
            Handed::End { job, end } => {
                part(job, json(&end).map(|end| StreamPart::End { job, end }))
            }
            Handed::Fetch { call } => OutboxEntry::Fetch(json(&call)),
            Handed::Log { level, message } => OutboxEntry::Log { level, message },
        }
    }
}

/// `text` read strictly as a `T` of the contract.
fn json<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, RenderError> {
    serde_json::from_str(text).map_err(|e| RenderError::Unreadable(format!("{e}: {text:.200}")))
}

/// Writes a line of the bundle's console into the host's log; a level the contract does not
/// name is written as an error, saying so.
pub fn write_log(level: &str, message: &str) {
    let named =
        LogLevel::deserialize(level.into_deserializer()).map_err(|_: serde::de::value::Error| ());
    match named {
        Ok(LogLevel::Error) => tracing::error!(target: "bilingue::app", "{message}"),
        Ok(LogLevel::Warn) => tracing::warn!(target: "bilingue::app", "{message}"),
        Ok(LogLevel::Info) => tracing::info!(target: "bilingue::app", "{message}"),
        Err(()) => {
            tracing::error!(target: "bilingue::app", "(a line of level {level:?}) {message}")
        }
    }
}

/// A page's status is one of 200–599 that carries content: not 204, 205 or 304.
pub fn check_status(rendered: Rendered) -> Result<Rendered, RenderError> {
    match rendered.status {
        204 | 205 | 304 => Err(RenderError::Unreadable(format!(
            "status {} carries no page",
            rendered.status
        ))),
        200..=599 => Ok(rendered),
        status => Err(RenderError::Unreadable(format!(
            "status {status} is outside 200–599"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(handed: Handed) -> Finished {
        match OutboxEntry::read(handed) {
            OutboxEntry::Finished(finished) => finished,
            _ => panic!("a finished page"),
        }
    }

    fn rendered(job: u64, result: &str) -> Handed {
        Handed::Rendered {
            job,
            html: "<p>x</p>".into(),
            result: result.into(),
        }
    }

    #[test]
    fn a_finished_page_is_its_render_with_its_markup_or_its_failure() {
        let result = r#"{"status":200,"title":"t","description":"d","sharing":{"kind":"public"}}"#
            .to_string();
        let page = finished(rendered(3, &result));
        assert_eq!(page.job, 3);
        assert_eq!(page.result.unwrap().html, "<p>x</p>");
        let failed = finished(Handed::Failed {
            job: 4,
            why: "boom".into(),
        });
        assert!(matches!(failed.result, Err(RenderError::Script(why)) if why == "boom"));
    }

    #[test]
    fn a_result_that_cannot_be_read_fails_its_own_page() {
        // A lone surrogate's escape: V8 writes it, serde refuses it.
        let broken =
            r#"{"status":200,"title":"a\ud800b","description":"","sharing":{"kind":"private"}}"#
                .to_string();
        let broken = finished(rendered(7, &broken));
        assert_eq!(broken.job, 7);
        assert!(matches!(broken.result, Err(RenderError::Unreadable(_))));
        let missing = r#"{"status":200,"title":"t","html":"","sharing":{"kind":"public"}}"#;
        assert!(
            finished(rendered(1, missing)).result.is_err(),
            "no description"
        );
        let markup_in_json = r#"{"status":200,"title":"t","description":"d","html":"<p>","sharing":{"kind":"public"}}"#.to_string();
        assert!(
            finished(rendered(2, &markup_in_json)).result.is_err(),
            "markup is handed over apart, never in the JSON"
        );
    }

    #[test]
    fn a_part_that_cannot_be_read_names_its_page() {
        let head = Handed::Head {
            job: 5,
            head: r#"{"status":200}"#.into(),
        };
        assert!(matches!(
            OutboxEntry::read(head),
            OutboxEntry::Part(Err((5, RenderError::Unreadable(_))))
        ));
        let end = Handed::End {
            job: 6,
            end: r#"{"errors":[]}"#.into(),
        };
        assert!(matches!(
            OutboxEntry::read(end),
            OutboxEntry::Part(Ok(StreamPart::End { job: 6, .. }))
        ));
    }
}
