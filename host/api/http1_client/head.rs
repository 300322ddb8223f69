//! An answer's head, and how its body is framed.

use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};

use super::{Failure, MAX_HEADERS};
use crate::api::forwarded_headers::list_items;

pub(super) struct Head {
    pub(super) status: StatusCode,
    pub(super) headers: HeaderMap,
    pub(super) keep_alive: bool,
}

/// The head at the start of `bytes` and its length, or `None` if it is not whole yet.
pub(super) fn parse_head(bytes: &[u8]) -> Result<Option<(Head, usize)>, Failure> {
    let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut fields);
    let length = match response.parse(bytes) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(Failure::Malformed("its head has too many fields"));
        }
        Err(_) => return Err(Failure::Malformed("its head is not HTTP/1")),
    };
    let status = response
        .code
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or(Failure::Malformed("its status is none"))?;
    let mut headers = HeaderMap::with_capacity(response.headers.len());
    for field in response.headers.iter() {
        let name = HeaderName::from_bytes(field.name.as_bytes());
        let value = HeaderValue::from_bytes(field.value);
        match (name, value) {
            (Ok(name), Ok(value)) => headers.append(name, value),
            _ => return Err(Failure::Malformed("a field of its head is not valid")),
        };
    }
    let keep_alive = response.version == Some(1)
        && !list_items(&headers, header::CONNECTION).any(|item| item.eq_ignore_ascii_case("close"));
    Ok(Some((
        Head {
            status,
            headers,
            keep_alive,
        },
        length,
    )))
}

/// How the answer's body ends (RFC 9112 §6.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Framing {
    None,
    Length(u64),
    /// `reusable`: false when a length came beside it, and the connection is not trusted
    /// again (§6.3 ¶3).
    Chunked {
        reusable: bool,
    },
    UntilClose,
}

impl Framing {
    pub(super) fn of(head: &Head, head_request: bool) -> Result<Self, Failure> {
        let status = head.status;
        if head_request
            || status.is_informational()
            || status == StatusCode::NO_CONTENT
            || status == StatusCode::NOT_MODIFIED
        {
            return Ok(Self::None);
        }
        let headers = &head.headers;
        if headers.contains_key(header::TRANSFER_ENCODING) {
            let mut last = None;
            for value in headers.get_all(header::TRANSFER_ENCODING) {
                let value = value
                    .to_str()
                    .map_err(|_| Failure::Malformed("its Transfer-Encoding is not valid"))?;
                last = value
                    .split(',')
                    .map(str::trim)
                    .rfind(|c| !c.is_empty())
                    .or(last);
            }
            let chunked = last.is_some_and(|coding| coding.eq_ignore_ascii_case("chunked"));
            return Ok(if chunked {
                Self::Chunked {
                    reusable: !headers.contains_key(header::CONTENT_LENGTH),
                }
            } else {
                Self::UntilClose
            });
        }
        let mut length = None;
        for value in headers.get_all(header::CONTENT_LENGTH) {
            for item in value.as_bytes().split(|&b| b == b',') {
                let item = item.trim_ascii();
                let parsed = (!item.is_empty() && item.iter().all(u8::is_ascii_digit))
                    .then(|| std::str::from_utf8(item).ok()?.parse::<u64>().ok())
                    .flatten()
                    .ok_or(Failure::Malformed("its Content-Length is not a length"))?;
                if length.is_some_and(|known| known != parsed) {
                    return Err(Failure::Malformed("its Content-Length fields disagree"));
                }
                length = Some(parsed);
            }
        }
        Ok(length.map_or(Self::UntilClose, Self::Length))
    }

    pub(super) fn ends_by_itself(self) -> bool {
        match self {
            Self::None | Self::Length(_) => true,
            Self::Chunked { reusable } => reusable,
            Self::UntilClose => false,
        }
    }
}
