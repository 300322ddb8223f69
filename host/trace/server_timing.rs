//! `Server-Timing` (https://www.w3.org/TR/server-timing/): where a page's time went, as the
//! browser's developer tools show it. Headers only: a public page's bytes, and so its
//! `ETag`, are the same whatever its timings were.

use std::fmt::Write as _;
use std::time::Duration;

use axum::http::HeaderValue;

/// One metric: a name, and its duration when it has one.
pub struct Metric {
    pub name: &'static str,
    pub duration: Option<Duration>,
    pub description: Option<&'static str>,
}

impl Metric {
    pub fn took(name: &'static str, duration: Duration) -> Self {
        Self {
            name,
            duration: Some(duration),
            description: None,
        }
    }

    pub fn said(name: &'static str, description: &'static str) -> Self {
        Self {
            name,
            duration: None,
            description: Some(description),
        }
    }
}

/// The header's value: `render;dur=12.3, data;dur=4.5, cache;desc="hit"`.
pub fn header(metrics: &[Metric]) -> HeaderValue {
    let mut value = String::with_capacity(16 * metrics.len());
    for metric in metrics {
        if !value.is_empty() {
            value.push_str(", ");
        }
        value.push_str(metric.name);
        if let Some(duration) = metric.duration {
            let _ = write!(value, ";dur={:.1}", duration.as_secs_f64() * 1000.0);
        }
        if let Some(description) = metric.description {
            let _ = write!(value, ";desc=\"{description}\"");
        }
    }
    HeaderValue::try_from(value).expect("names and numbers")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_are_written_in_milliseconds_with_their_descriptions() {
        let value = header(&[
            Metric::took("render", Duration::from_micros(12_345)),
            Metric::took("data", Duration::from_millis(2)),
            Metric::said("cache", "hit"),
        ]);
        assert_eq!(value, r#"render;dur=12.3, data;dur=2.0, cache;desc="hit""#);
    }
}
