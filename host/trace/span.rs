//! A span as the exporter takes it, and what it is made of: its kind and its attributes'
//! values. Shared by the trace that records spans and the exporter that sends them.

use std::borrow::Cow;
use std::time::SystemTime;

use super::context::SpanId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The request the host answers.
    Server,
    /// A call the host makes (a loader's API call, the proxy's upstream request).
    Client,
    Internal,
}

#[derive(Debug, Clone)]
pub enum Value {
    Text(String),
    Number(i64),
}

/// A finished span, as the exporter takes it.
#[derive(Debug, Clone)]
pub struct SpanRecord {
    pub id: SpanId,
    pub parent: Option<SpanId>,
    pub name: Cow<'static, str>,
    pub kind: Kind,
    pub start: SystemTime,
    pub end: SystemTime,
    pub attributes: Vec<(&'static str, Value)>,
    pub failed: bool,
}
