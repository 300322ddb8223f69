//! Asking the host as a client on the wire would, over HTTP/1.1 (the request target sent
//! byte for byte, as a library would not: dot segments, raw `|` and UTF-8 left as they are)
//! or HTTP/2 (prior knowledge), on a connection of its own: the answer's status, its
//! headers but those that vary per answer, and its body.

use axum::http::Method;

/// One answer: its status, its headers (name, value) but the ones that vary per answer,
/// sorted, and its body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// Headers whose value is the answer's own (a date, a nonce, a trace), or that HTTP/1.1
/// and HTTP/2 frame differently.
fn comparable(name: &str, value: &str) -> Option<(String, String)> {
    match name {
        "date" | "server-timing" | "traceparent" | "transfer-encoding" | "connection"
        | "keep-alive" => None,
        "content-security-policy" => Some((
            name.into(),
            value
                .split("'nonce-")
                .next()
                .unwrap_or_default()
                .to_string(),
        )),
        _ => Some((name.into(), value.into())),
    }
}

/// `method` `path` (its bytes sent as they are) over HTTP/1.1, with these headers.
pub fn h1(base: &str, method: &Method, path: &[u8], headers: &[(&str, &str)]) -> Answer {
    let address = base.trim_start_matches("http://");
    let mut request = format!("{method} ").into_bytes();
    request.extend_from_slice(path);
    request.extend_from_slice(format!(" HTTP/1.1\r\nHost: {address}\r\n").as_bytes());
    for (name, value) in headers {
        request.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    request.extend_from_slice(b"Connection: close\r\n\r\n");
    let raw = raw_bytes(address, &request);
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a whole head");
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let mut headers: Vec<_> = lines
        .filter_map(|line| line.split_once(':'))
        .filter_map(|(n, v)| comparable(&n.to_ascii_lowercase(), v.trim()))
        .collect();
    headers.sort();
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let rest = &raw[end + 4..];
    let body = match chunked && method != Method::HEAD {
        true => dechunked(rest),
        false => rest.to_vec(),
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn raw_bytes(address: &str, request: &[u8]) -> Vec<u8> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    answer
}

/// A chunked body's bytes.
fn dechunked(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line_end = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size");
        let size_text = String::from_utf8_lossy(&rest[..line_end]).into_owned();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
        rest = &rest[line_end + 2..];
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

/// `method` `path` over HTTP/2, with these headers.
pub fn h2(base: &str, method: &Method, path: &str, headers: &[(&str, &str)]) -> Answer {
    let address = base.trim_start_matches("http://").to_string();
    let url = format!("{base}{path}");
    let headers: Vec<(String, String)> = headers
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    let method = method.clone();
    super::block_on(async move {
        let mut client = super::h2_connect(&address).await.ready().await.unwrap();
        let mut request = axum::http::Request::builder().method(method).uri(url);
        for (name, value) in &headers {
            request = request.header(name, value);
        }
        let (answer, _) = client
            .send_request(request.body(()).unwrap(), true)
            .unwrap();
        let (parts, mut body) = answer.await.unwrap().into_parts();
        let mut bytes = Vec::new();
        while let Some(chunk) = body.data().await {
            let chunk = chunk.unwrap();
            let _ = body.flow_control().release_capacity(chunk.len());
            bytes.extend_from_slice(&chunk);
        }
        let mut headers: Vec<_> = parts
            .headers
            .iter()
            .filter_map(|(n, v)| comparable(n.as_str(), v.to_str().unwrap_or("(not text)")))
            .collect();
        headers.sort();
        Answer {
            status: parts.status.as_u16(),
            headers,
            body: bytes,
        }
    })
}

/// The value of one of an answer's headers.
pub fn header<'a>(answer: &'a Answer, name: &str) -> Option<&'a str> {
    answer
        .headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}
