//! W3C Trace Context (https://www.w3.org/TR/trace-context/): a request's `traceparent` is
//! continued (its trace id kept, its parent id the parent of ours), or a trace is started;
//! `tracestate` travels with it unchanged. What a client sends is read strictly: a field
//! that is not exactly of the form the specification gives starts a new trace, never an
//! error, and nothing of it but validated hex and a bounded `tracestate` goes any further.

use std::cell::Cell;
use std::fmt;

use axum::http::{HeaderMap, HeaderValue};

/// 16 bytes, never all zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TraceId(pub [u8; 16]);

/// 8 bytes, never all zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpanId(pub [u8; 8]);

/// The trace a request belongs to, and its own span in it.
#[derive(Clone, Debug)]
pub struct TraceContext {
    pub trace_id: TraceId,
    /// This request's span.
    pub span_id: SpanId,
    /// The span that called us, when a `traceparent` came.
    pub parent_id: Option<SpanId>,
    /// The caller asked for the trace to be recorded (or no one asked otherwise).
    pub sampled: bool,
    pub state: Option<HeaderValue>,
}

/// `tracestate` past this is dropped (the specification's own bound for propagation).
const MAX_STATE_BYTES: usize = 512;

impl TraceContext {
    /// The incoming context continued, or a new trace.
    pub fn from_headers(headers: &HeaderMap) -> Self {
        match parse_traceparent(headers) {
            Some((trace_id, parent_id, sampled)) => Self {
                trace_id,
                span_id: SpanId::random(),
                parent_id: Some(parent_id),
                sampled,
                state: tracestate(headers),
            },
            None => Self::start(),
        }
    }

    /// A new trace, this request its root.
    pub fn start() -> Self {
        Self {
            trace_id: TraceId::random(),
            span_id: SpanId::random(),
            parent_id: None,
            sampled: true,
            state: None,
        }
    }

    /// The `traceparent` a call made from span `from` carries.
    pub fn traceparent(&self, from: SpanId) -> HeaderValue {
        let flags = if self.sampled { "01" } else { "00" };
        HeaderValue::try_from(format!("00-{}-{from}-{flags}", self.trace_id)).expect("hex")
    }

    /// Writes `traceparent` (from span `from`) and `tracestate` on an outgoing request,
    /// in place of whatever it carried.
    pub fn propagate(&self, from: SpanId, headers: &mut HeaderMap) {
        headers.insert("traceparent", self.traceparent(from));
        headers.remove("tracestate");
        if let Some(state) = &self.state {
            headers.insert("tracestate", state.clone());
        }
    }
}

/// `00-<32 hex>-<16 hex>-<2 hex>`; a later version may add fields after a `-`.
fn parse_traceparent(headers: &HeaderMap) -> Option<(TraceId, SpanId, bool)> {
    let mut fields = headers.get_all("traceparent").iter();
    let value = fields.next()?.as_bytes();
    if fields.next().is_some() {
        return None;
    }
    if value.len() < 55 {
        return None;
    }
    let version = hex::<1>(&value[0..2])?;
    match version[0] {
        0xff => return None,
        0x00 if value.len() != 55 => return None,
        _ if value.len() > 55 && value[55] != b'-' => return None,
        _ => {}
    }
    if value[2] != b'-' || value[35] != b'-' || value[52] != b'-' {
        return None;
    }
    let trace_id = TraceId(hex::<16>(&value[3..35])?);
    let parent_id = SpanId(hex::<8>(&value[36..52])?);
    let flags = hex::<1>(&value[53..55])?[0];
    if trace_id.0 == [0; 16] || parent_id.0 == [0; 8] {
        return None;
    }
    Some((trace_id, parent_id, flags & 1 == 1))
}

/// Lowercase hex only, as the specification writes it.
fn hex<const N: usize>(text: &[u8]) -> Option<[u8; N]> {
    if text.len() != 2 * N {
        return None;
    }
    let digit = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    };
    let mut out = [0; N];
    for (i, pair) in text.chunks_exact(2).enumerate() {
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

/// Every `tracestate` field, joined as one list (the specification allows them split), when
/// printable and within bounds.
fn tracestate(headers: &HeaderMap) -> Option<HeaderValue> {
    let mut joined = Vec::new();
    for value in headers.get_all("tracestate") {
        if !joined.is_empty() {
            joined.push(b',');
        }
        joined.extend_from_slice(value.as_bytes());
    }
    let printable = joined.iter().all(|b| (0x20..0x7f).contains(b));
    (!joined.is_empty() && joined.len() <= MAX_STATE_BYTES && printable)
        .then(|| HeaderValue::from_bytes(&joined).ok())
        .flatten()
}

thread_local! {
    /// splitmix64, seeded once per thread from the system: ids need to be unique, not secret.
    static SEED: Cell<u64> = Cell::new({
        let mut bytes = [0; 8];
        getrandom::fill(&mut bytes).expect("system randomness");
        u64::from_ne_bytes(bytes)
    });
}

fn next_random() -> u64 {
    SEED.with(|seed| {
        let next = seed.get().wrapping_add(0x9e37_79b9_7f4a_7c15);
        seed.set(next);
        let mut z = next;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    })
}

impl TraceId {
    pub fn random() -> Self {
        let mut bytes = [0; 16];
        bytes[..8].copy_from_slice(&next_random().to_be_bytes());
        bytes[8..].copy_from_slice(&next_random().to_be_bytes());
        if bytes == [0; 16] {
            bytes[15] = 1;
        }
        Self(bytes)
    }
}

impl SpanId {
    pub fn random() -> Self {
        match next_random() {
            0 => Self([0, 0, 0, 0, 0, 0, 0, 1]),
            n => Self(n.to_be_bytes()),
        }
    }
}

/// Lower-case hex, written at once: a trace id goes into every request's span, and a
/// `write!` per byte cost as much as the span itself.
fn write_hex<const N: usize>(f: &mut fmt::Formatter<'_>, bytes: &[u8; N]) -> fmt::Result {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    const { assert!(N <= 16, "a trace id is the longest") };
    let mut hex = [0u8; 32];
    for (pair, byte) in hex.chunks_exact_mut(2).zip(bytes) {
        pair[0] = DIGITS[usize::from(byte >> 4)];
        pair[1] = DIGITS[usize::from(byte & 0x0f)];
    }
    let written = &hex[..2 * N];
    f.write_str(std::str::from_utf8(written).expect("hex digits are ASCII"))
}

impl fmt::Display for TraceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(f, &self.0)
    }
}

impl fmt::Display for SpanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(f, &self.0)
    }
}

impl fmt::Debug for TraceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TraceId({self})")
    }
}

impl fmt::Debug for SpanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SpanId({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    fn headers(fields: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in fields {
            headers.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        headers
    }

    #[test]
    fn an_incoming_traceparent_is_continued_with_a_span_of_our_own() {
        let context = TraceContext::from_headers(&headers(&[
            ("traceparent", SAMPLE),
            ("tracestate", "congo=t61rcWkgMzE"),
            ("tracestate", "rojo=00f067aa0ba902b7"),
        ]));
        assert_eq!(
            context.trace_id.to_string(),
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        assert_eq!(context.parent_id.unwrap().to_string(), "00f067aa0ba902b7");
        assert_ne!(context.span_id, context.parent_id.unwrap());
        assert!(context.sampled);
        assert_eq!(
            context.state.as_ref().unwrap(),
            "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"
        );
        let child = SpanId::random();
        let sent = context.traceparent(child);
        assert_eq!(
            sent.to_str().unwrap(),
            format!("00-4bf92f3577b34da6a3ce929d0e0e4736-{child}-01")
        );
    }

    #[test]
    fn anything_not_exactly_a_traceparent_starts_a_new_trace() {
        for broken in [
            "",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
            "0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        ] {
            let context = TraceContext::from_headers(&headers(&[("traceparent", broken)]));
            assert!(context.parent_id.is_none(), "{broken:?}");
            assert_ne!(
                context.trace_id.to_string(),
                "4bf92f3577b34da6a3ce929d0e0e4736"
            );
        }
        let twice = headers(&[("traceparent", SAMPLE), ("traceparent", SAMPLE)]);
        assert!(TraceContext::from_headers(&twice).parent_id.is_none());
    }

    #[test]
    fn a_later_version_is_read_for_the_fields_it_shares() {
        let later = "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-what-comes-next";
        let context = TraceContext::from_headers(&headers(&[("traceparent", later)]));
        assert_eq!(context.parent_id.unwrap().to_string(), "00f067aa0ba902b7");
        assert!(!context.sampled);
        assert!(
            context
                .traceparent(context.span_id)
                .to_str()
                .unwrap()
                .ends_with("-00")
        );
    }

    #[test]
    fn an_oversized_or_unprintable_tracestate_is_dropped() {
        let long = format!("a={}", "x".repeat(600));
        for state in [long.as_str(), "a=\u{7f}"] {
            let Ok(value) = HeaderValue::from_str(state) else {
                continue;
            };
            let mut fields = headers(&[("traceparent", SAMPLE)]);
            fields.insert("tracestate", value);
            assert!(TraceContext::from_headers(&fields).state.is_none());
        }
    }

    #[test]
    fn ids_are_never_zero_and_do_not_repeat() {
        let ids: std::collections::HashSet<_> = (0..10_000).map(|_| SpanId::random()).collect();
        assert_eq!(ids.len(), 10_000);
        assert!(!ids.contains(&SpanId([0; 8])));
    }
}
