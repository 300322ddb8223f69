//! The upstream as a page's loader reaches it: one HTTP/1.1 request, its answer read whole,
//! on a connection kept for the next call when the answer allows it.
//!
//! A browser's `/api` request streams both ways and goes through reqwest (`proxy.rs`). A
//! loader's call has its body in hand and wants the answer whole, and thousands of them may
//! wait at once on a slow API: hyper's client connection held ~32 KB per waiting call (its
//! read and write buffers, its dispatch channel, the pooled client's futures), 97 MB of the
//! heap with 3,000 visitors waiting. Here a waiting call holds its socket and no buffer:
//! the answer's buffer is made when its first bytes are there.
//!
//! The answer is not trusted: its head is at most `MAX_HEAD` bytes and `MAX_HEADERS` fields,
//! its body at most what the caller allows, framed as RFC 9112 §6.3 says (a length that
//! two fields disagree on, a bad chunk, or bytes after the body end the call or the
//! connection); its head must come before `head_timeout` and each part of its body within
//! `idle_timeout` of the one before.

use std::collections::VecDeque;
use std::io;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode, header};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use body::BodyReader;
use head::{Framing, Head, parse_head};

mod body;
mod head;

/// An answer's head, status line to the blank line, at most (about hyper's default).
const MAX_HEAD: usize = 400 << 10;
/// Header fields in an answer's head (or its trailers), at most: hyper's default.
const MAX_HEADERS: usize = 100;
/// Connections kept open for later calls, at most, and for how long. A crowd's calls end
/// together: what is not kept is closed by the host, whose side then holds the port for
/// a minute (TIME_WAIT), so a crowd every few seconds would run out of ports if the next
/// one could not take the last one's connections.
const MAX_IDLE: usize = 4096;
const IDLE_KEPT: Duration = Duration::from_secs(30);
/// A call that may not be sent twice takes a kept connection only if it was used this
/// recently: an upstream closes an idle connection after seconds (Node: 5 s), not sooner.
const JUST_USED: Duration = Duration::from_secs(1);
/// What a read asks of the socket at once.
const READ_SIZE: usize = 8 << 10;

/// Where the upstream listens, and the `Host` it is asked with.
pub struct Http1Client {
    address: Address,
    authority: String,
    idle: Mutex<VecDeque<(TcpStream, Instant)>>,
    kept: PoolLimits,
}

/// How many connections are kept, and how long: `MAX_IDLE` and `IDLE_KEPT`, less in tests.
struct PoolLimits {
    most: usize,
    for_: Duration,
}

enum Address {
    Ip(SocketAddr),
    Name(String, u16),
}

/// The upstream's answer, whole.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

/// Why a call got no answer.
#[derive(Debug)]
pub enum Failure {
    /// No connection could be made, or it broke before the answer's head.
    Unreachable(io::Error),
    /// The head did not come within `head_timeout`.
    TimedOut,
    /// The head is not HTTP, or is larger than the host reads.
    Malformed(&'static str),
    /// The head came (its `status`; `sets_cookie`: with a `Set-Cookie`); the body did not,
    /// whole (broken off, stalled, too large, malformed).
    Body {
        why: String,
        status: StatusCode,
        sets_cookie: bool,
    },
}

/// A request as it is sent, in bytes: what it was made of need not be held while its
/// answer is awaited.
pub struct Call {
    bytes: Vec<u8>,
    resendable: bool,
    head_request: bool,
}

/// The limits of one call.
#[derive(Clone, Copy)]
pub struct CallLimits {
    pub head_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_body: usize,
}

impl Http1Client {
    /// `host` and `port` as the upstream's URL names them (`url::Url::host`).
    pub fn new(host: url::Host<&str>, port: u16) -> Self {
        let (address, name) = match host {
            url::Host::Ipv4(ip) => (Address::Ip((ip, port).into()), ip.to_string()),
            url::Host::Ipv6(ip) => (Address::Ip((ip, port).into()), format!("[{ip}]")),
            url::Host::Domain(name) => (Address::Name(name.to_owned(), port), name.to_owned()),
        };
        // As reqwest names it (the browser's `/api` requests): no port when it is http's.
        let authority = match port {
            80 => name,
            _ => format!("{name}:{port}"),
        };
        Self {
            address,
            authority,
            idle: Mutex::new(VecDeque::new()),
            kept: PoolLimits {
                most: MAX_IDLE,
                for_: IDLE_KEPT,
            },
        }
    }

    /// A request: its line, `Host`, `headers` (already as the upstream gets them; a
    /// `Content-Length` of its own), the body.
    pub fn call(
        &self,
        method: &Method,
        path_and_query: &str,
        headers: &HeaderMap,
        body: &[u8],
    ) -> Call {
        let mut bytes = Vec::with_capacity(256 + body.len());
        bytes.extend_from_slice(method.as_str().as_bytes());
        bytes.push(b' ');
        bytes.extend_from_slice(path_and_query.as_bytes());
        bytes.extend_from_slice(b" HTTP/1.1\r\nhost: ");
        bytes.extend_from_slice(self.authority.as_bytes());
        bytes.extend_from_slice(b"\r\n");
        for (name, value) in headers {
            if name == header::CONTENT_LENGTH || name == header::HOST {
                continue;
            }
            bytes.extend_from_slice(name.as_str().as_bytes());
            bytes.extend_from_slice(b": ");
            bytes.extend_from_slice(value.as_bytes());
            bytes.extend_from_slice(b"\r\n");
        }
        if !headers.contains_key(header::ACCEPT) {
            // What reqwest sends when the call names nothing.
            bytes.extend_from_slice(b"accept: */*\r\n");
        }
        let has_content = matches!(*method, Method::POST | Method::PUT | Method::PATCH);
        if has_content || !body.is_empty() {
            bytes.extend_from_slice(format!("content-length: {}\r\n", body.len()).as_bytes());
        }
        bytes.extend_from_slice(b"\r\n");
        bytes.extend_from_slice(body);
        Call {
            bytes,
            resendable: method.is_idempotent(),
            head_request: method == Method::HEAD,
        }
    }

    /// Sends `call` and reads its answer whole, on a kept connection if there is one. If the
    /// upstream had closed it unseen, a call that may be sent twice is sent once more on a
    /// new one; any other takes only a connection used within `JUST_USED`.
    pub async fn send(&self, call: Call, limits: CallLimits) -> Result<Answer, Failure> {
        let head_deadline = tokio::time::Instant::now() + limits.head_timeout;
        let Call {
            bytes: request,
            resendable,
            head_request,
        } = call;
        let since = if resendable {
            self.kept.for_
        } else {
            JUST_USED
        };
        if let Some(stream) = self.kept(since) {
            match round_trip(stream, &request, head_request, head_deadline, limits).await {
                Err(RoundTripFailure::Unanswered(_)) if resendable => {}
                Err(RoundTripFailure::Unanswered(error)) => {
                    return Err(Failure::Unreachable(error));
                }
                Err(RoundTripFailure::Failed(failure)) => return Err(failure),
                Ok(answered) => return Ok(self.done(answered)),
            }
        }
        let stream = tokio::time::timeout_at(head_deadline, self.connect())
            .await
            .map_err(|_| Failure::TimedOut)?
            .map_err(Failure::Unreachable)?;
        match round_trip(stream, &request, head_request, head_deadline, limits).await {
            Err(RoundTripFailure::Unanswered(error)) => Err(Failure::Unreachable(error)),
            Err(RoundTripFailure::Failed(failure)) => Err(failure),
            Ok(answered) => Ok(self.done(answered)),
        }
    }

    async fn connect(&self) -> io::Result<TcpStream> {
        let stream = match &self.address {
            Address::Ip(address) => TcpStream::connect(address).await?,
            Address::Name(name, port) => TcpStream::connect((name.as_str(), *port)).await?,
        };
        stream.set_nodelay(true)?;
        Ok(stream)
    }

    /// The newest kept connection, if it was last used within `within`, is still open and
    /// has sent nothing unasked. Those kept longer than `IDLE_KEPT` are closed.
    fn kept(&self, within: Duration) -> Option<TcpStream> {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        while let Some((stream, since)) = idle.pop_back() {
            let elapsed = since.elapsed();
            if elapsed > self.kept.for_ {
                idle.clear();
                return None;
            }
            if elapsed > within {
                idle.push_back((stream, since));
                return None;
            }
            let mut probe = [0u8; 1];
            if let Err(e) = stream.try_read(&mut probe)
                && e.kind() == io::ErrorKind::WouldBlock
            {
                return Some(stream);
            }
        }
        None
    }

    fn done(&self, answered: Answered) -> Answer {
        if let Some(stream) = answered.reusable {
            let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
            // The oldest first: those kept too long are closed, not left to their upstream.
            while idle
                .front()
                .is_some_and(|(_, since)| since.elapsed() > self.kept.for_)
            {
                idle.pop_front();
            }
            if idle.len() >= self.kept.most {
                idle.pop_front();
            }
            idle.push_back((stream, Instant::now()));
        }
        answered.answer
    }
}

struct Answered {
    answer: Answer,
    /// The connection, when the answer ended cleanly and it may carry another call.
    reusable: Option<TcpStream>,
}

enum RoundTripFailure {
    /// Nothing came back: on a kept connection the upstream may have closed it unseen.
    Unanswered(io::Error),
    Failed(Failure),
}

async fn round_trip(
    mut stream: TcpStream,
    request: &[u8],
    head_request: bool,
    head_deadline: tokio::time::Instant,
    limits: CallLimits,
) -> Result<Answered, RoundTripFailure> {
    let head = async {
        stream
            .write_all(request)
            .await
            .map_err(RoundTripFailure::Unanswered)?;
        read_head(&stream).await
    };
    let (head, mut buffer) = tokio::time::timeout_at(head_deadline, head)
        .await
        .map_err(|_| RoundTripFailure::Failed(Failure::TimedOut))??;
    let body = BodyReader::new(&stream, &mut buffer, limits.idle_timeout);
    let framing = Framing::of(&head, head_request).map_err(RoundTripFailure::Failed)?;
    let read = match framing {
        Framing::None => Ok(Vec::new()),
        Framing::Length(length) if length > limits.max_body as u64 => Err(format!(
            "its length ({length} bytes) is over {}",
            limits.max_body
        )),
        Framing::Length(length) => body.exactly(length as usize).await,
        Framing::Chunked { .. } => body.chunked(limits.max_body).await,
        Framing::UntilClose => body.until_close(limits.max_body).await,
    };
    let content = read.map_err(|why| {
        let sets_cookie = head.headers.contains_key(header::SET_COOKIE);
        RoundTripFailure::Failed(Failure::Body {
            why,
            status: head.status,
            sets_cookie,
        })
    })?;
    // After a 101 (never asked for) the connection speaks another protocol, if any.
    let switched = head.status == StatusCode::SWITCHING_PROTOCOLS;
    let reusable = (head.keep_alive && !switched && framing.ends_by_itself() && buffer.is_empty())
        .then_some(stream);
    Ok(Answered {
        answer: Answer {
            status: head.status,
            headers: head.headers,
            body: Bytes::from(content),
        },
        reusable,
    })
}

/// Reads until a final answer's head is whole (informational ones are passed over); the
/// buffer keeps what came after it. No buffer is held before the first bytes arrive.
async fn read_head(stream: &TcpStream) -> Result<(Head, Vec<u8>), RoundTripFailure> {
    let mut buffer = Vec::new();
    // Where the head not parsed yet begins: the heads passed over are not removed one by
    // one (a copy of all that follows each), but before the next read.
    let mut start = 0;
    let mut answered = false;
    loop {
        if start < buffer.len() {
            match parse_head(&buffer[start..]).map_err(RoundTripFailure::Failed)? {
                Some((head, length))
                    if head.status.is_informational()
                        && head.status != StatusCode::SWITCHING_PROTOCOLS =>
                {
                    start += length;
                    continue;
                }
                Some((head, length)) => {
                    buffer.drain(..start + length);
                    return Ok((head, buffer));
                }
                None if buffer.len() - start >= MAX_HEAD => {
                    return Err(RoundTripFailure::Failed(Failure::Malformed(
                        "its head is larger than the host reads",
                    )));
                }
                None => {}
            }
        }
        buffer.drain(..start);
        start = 0;
        let read = read_some(stream, &mut buffer).await;
        match read {
            Ok(0) if !answered => {
                let closed = io::Error::new(io::ErrorKind::UnexpectedEof, "closed unanswered");
                return Err(RoundTripFailure::Unanswered(closed));
            }
            Ok(0) => {
                return Err(RoundTripFailure::Failed(Failure::Malformed(
                    "it broke off its head",
                )));
            }
            Ok(_) => answered = true,
            Err(error) if !answered => return Err(RoundTripFailure::Unanswered(error)),
            Err(error) => return Err(RoundTripFailure::Failed(Failure::Unreachable(error))),
        }
    }
}

/// Waits for the socket to have bytes, then reads at most `READ_SIZE` of them into
/// `buffer` (grown only then), so that what one read gives is bounded work. `Ok(0)`: the
/// upstream closed.
async fn read_some(stream: &TcpStream, buffer: &mut Vec<u8>) -> io::Result<usize> {
    loop {
        stream.readable().await?;
        match read_ready(stream, buffer) {
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
            read => return read,
        }
    }
}

fn read_ready(stream: &TcpStream, buffer: &mut Vec<u8>) -> io::Result<usize> {
    let mut bytes = [0u8; READ_SIZE];
    let read = stream.try_read(&mut bytes)?;
    buffer.extend_from_slice(&bytes[..read]);
    Ok(read)
}

#[cfg(test)]
mod tests;
