//! The host's side of the exchange with the server bundle (`app/server/exchange.ts` is the
//! other; the values are in `contract.rs`): the outbox each call into the bundle leaves,
//! read one finished page at a time, and the bundle's log lines written into the host's.

use serde::Deserialize;
use serde_json::value::RawValue;

pub use super::contract::Outbox;
use super::contract::Rendered;
use super::contract::{Done, Log, LogLevel, Shell};
pub use super::contract::{StreamEnd, StreamHead, StreamPart};
use super::error::RenderError;
use super::handed::HandedMarkup;
pub use super::handed::with_handed_markup;

impl<'de> Deserialize<'de> for StreamPart {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = StreamPart;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("{job, head}, {job, shell}, {job, html} or {job, end}")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<StreamPart, A::Error> {
                use serde::de::Error;
                let mut job = None;
                let mut part = None;
                while let Some(key) = map.next_key::<&str>()? {
                    if part.is_some() && key != "job" {
                        return Err(A::Error::custom("a part has one kind"));
                    }
                    match key {
                        "job" if job.is_none() => job = Some(map.next_value::<u64>()?),
                        "head" => part = Some(Kind::Head(map.next_value()?)),
                        "shell" => part = Some(Kind::Shell(map.next_value()?)),
                        "html" => {
                            part = Some(Kind::Html(map.next_value::<HandedMarkup>()?.0));
                        }
                        "end" => part = Some(Kind::End(map.next_value()?)),
                        other => {
                            return Err(A::Error::custom(format!("unexpected field {other:?}")));
                        }
                    }
                }
                let job = job.ok_or_else(|| A::Error::missing_field("job"))?;
                Ok(
                    match part.ok_or_else(|| A::Error::custom("a part of no kind"))? {
                        Kind::Head(head) => StreamPart::Head { job, head },
                        Kind::Shell(shell) => StreamPart::Shell { job, shell },
                        Kind::Html(html) => StreamPart::Html { job, html },
                        Kind::End(end) => StreamPart::End { job, end },
                    },
                )
            }
        }
        enum Kind {
            Head(StreamHead),
            Shell(Shell),
            Html(String),
            End(StreamEnd),
        }
        deserializer.deserialize_map(Fields)
    }
}

impl StreamPart {
    /// Reads one entry of the outbox's `parts`: the part, or its page and why it cannot be
    /// read; `None` when it does not even say which page it is for.
    pub fn read(entry: &RawValue) -> Option<Result<Self, (u64, RenderError)>> {
        match serde_json::from_str::<StreamPart>(entry.get()) {
            Ok(part) => Some(Ok(part)),
            Err(error) => {
                serde_json::from_str::<JobOnly>(entry.get())
                    .ok()
                    .map(|JobOnly { job }| {
                        Err((
                            job,
                            RenderError::Unreadable(format!("{error}: {:.200}", entry.get())),
                        ))
                    })
            }
        }
    }

    pub fn job(&self) -> u64 {
        match self {
            StreamPart::Head { job, .. }
            | StreamPart::Shell { job, .. }
            | StreamPart::Html { job, .. }
            | StreamPart::End { job, .. } => *job,
        }
    }
}

impl<'de> Deserialize<'de> for Done {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = Done;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("{job, result} or {job, failed}")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Done, A::Error> {
                use serde::de::Error;
                let (mut job, mut result, mut failed) = (None, None, None);
                while let Some(key) = map.next_key::<&str>()? {
                    match key {
                        "job" if job.is_none() => job = Some(map.next_value()?),
                        "result" if result.is_none() => result = Some(map.next_value()?),
                        "failed" if failed.is_none() => failed = Some(map.next_value()?),
                        other => {
                            return Err(A::Error::custom(format!("unexpected field {other:?}")));
                        }
                    }
                }
                let job = job.ok_or_else(|| A::Error::missing_field("job"))?;
                match (result, failed) {
                    (Some(result), None) => Ok(Done::Rendered { job, result }),
                    (None, Some(failed)) => Ok(Done::Failed { job, failed }),
                    _ => Err(A::Error::custom("exactly one of result and failed")),
                }
            }
        }
        deserializer.deserialize_map(Fields)
    }
}

/// Only the page a finished entry is for, when the rest of it cannot be read.
#[derive(Deserialize)]
struct JobOnly {
    job: u64,
}

/// One finished page as read: its job, and its render or why there is none.
pub struct Finished {
    pub job: u64,
    pub result: Result<Rendered, RenderError>,
}

impl Finished {
    /// Reads one entry of the outbox's `done`; `None` when it does not even say which page
    /// it is for (then the exchange itself is broken).
    pub fn read(entry: &RawValue) -> Option<Self> {
        match serde_json::from_str::<Done>(entry.get()) {
            Ok(Done::Rendered { job, result }) => Some(Self {
                job,
                result: Ok(result),
            }),
            Ok(Done::Failed { job, failed }) => Some(Self {
                job,
                result: Err(RenderError::Script(failed)),
            }),
            Err(error) => {
                serde_json::from_str::<JobOnly>(entry.get())
                    .ok()
                    .map(|JobOnly { job }| Self {
                        job,
                        result: Err(RenderError::Unreadable(format!(
                            "{error}: {:.200}",
                            entry.get()
                        ))),
                    })
            }
        }
    }
}

impl Outbox {
    pub fn read(json: &str) -> Result<Self, RenderError> {
        serde_json::from_str(json).map_err(|e| RenderError::Unreadable(format!("{e}: {json:.200}")))
    }

    /// Adds what a later look found (the markup, handed over across both, comes after).
    pub fn extend(&mut self, later: Outbox) {
        self.done.extend(later.done);
        self.parts.extend(later.parts);
        self.fetches.extend(later.fetches);
        self.logs.extend(later.logs);
        self.more = later.more;
    }

    /// Writes the bundle's console lines into the host's log.
    pub fn write_logs(&mut self) {
        for Log { level, message } in self.logs.drain(..) {
            match level {
                LogLevel::Error => tracing::error!(target: "bilingue::app", "{message}"),
                LogLevel::Warn => tracing::warn!(target: "bilingue::app", "{message}"),
                LogLevel::Info => tracing::info!(target: "bilingue::app", "{message}"),
            }
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

    fn entry(json: &str) -> Box<RawValue> {
        RawValue::from_string(json.to_string()).unwrap()
    }

    #[test]
    fn a_finished_page_is_its_render_or_its_failure() {
        let rendered = Finished::read(&entry(
            r#"{"job":3,"result":{"status":200,"title":"t","description":"d","html":"<p>x</p>","sharing":{"kind":"public"},"page":{"route":"home","params":{},"paths":{"fr":"/","en":"/"}}}}"#,
        ))
        .unwrap();
        assert_eq!(rendered.job, 3);
        assert_eq!(rendered.result.unwrap().html, "<p>x</p>");
        let failed = Finished::read(&entry(r#"{"job":4,"failed":"boom"}"#)).unwrap();
        assert!(matches!(failed.result, Err(RenderError::Script(why)) if why == "boom"));
    }

    #[test]
    fn an_entry_that_cannot_be_read_fails_its_own_page() {
        // A lone surrogate's escape: V8 writes it, serde refuses it.
        let broken = Finished::read(&entry(
            r#"{"job":7,"result":{"status":200,"title":"a\ud800b","description":"","html":"","sharing":{"kind":"private"},"page":{"route":"home","params":{},"paths":{"fr":"/","en":"/"}}}}"#,
        ))
        .unwrap();
        assert_eq!(broken.job, 7);
        assert!(matches!(broken.result, Err(RenderError::Unreadable(_))));
        assert!(Finished::read(&entry(r#"{"neither":1}"#)).is_none());
        let both = Finished::read(&entry(r#"{"job":2,"failed":"x","result":{}}"#)).unwrap();
        assert!(both.result.is_err(), "a result and a failure at once");
    }

    #[test]
    fn a_render_result_missing_a_field_the_bundle_always_writes_is_refused() {
        let missing = Finished::read(&entry(
            r#"{"job":1,"result":{"status":200,"title":"t","html":"","sharing":{"kind":"public"}}}"#,
        ))
        .unwrap();
        assert!(missing.result.is_err(), "no description");
    }
}
