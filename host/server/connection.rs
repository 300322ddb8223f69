//! One client connection, watched, so that nothing holds it for ever. The host lets go of a
//! connection that has been quiet for the head time-out: no request in flight and no byte
//! written (an idle keep-alive connection, an HTTP/2 connection that only sent its preface,
//! a header block never finished, a client that withholds its flow-control window); and
//! of one whose client stops reading: a socket write that waits past `--send-timeout`, or
//! an answer whose next part nobody has asked for in that time. A client that reads
//! slowly but steadily is never cut: each write it takes counts (as nginx's `send_timeout`
//! counts between two writes). hyper keeps the limits it has (the HTTP/1 head time-out);
//! this covers what it leaves to the server, for both protocols alike.
//!
//! (hyper's own refusals get the security headers from a wrapper around this socket:
//! `security::hyper_answers`.)

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{Request, Response};
use hyper::body::{Frame, Incoming, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use crate::security::hyper_answers::ServiceAnswers;

/// The client's address, as a request extension (the proxy names it to the upstream).
#[derive(Debug, Clone, Copy)]
pub struct PeerAddr(pub SocketAddr);

/// How long a connection may stay in each state.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// No request in flight for this long: the connection is closed (gracefully).
    pub idle: Duration,
    /// A write the client does not take, or an answer it does not ask for, for this long:
    /// the connection is dropped.
    pub send: Duration,
}

const NEVER: u64 = u64::MAX;

/// What a connection is doing, shared by its socket, its service and its answers' bodies.
pub struct Watch {
    opened: Instant,
    in_flight: AtomicUsize,
    /// When the last request in flight ended (ms since `opened`).
    idle_since: AtomicU64,
    /// When a socket write began to wait for the client, or [`NEVER`].
    write_waiting_since: AtomicU64,
    /// When the client last took bytes (a socket write went through).
    last_write: AtomicU64,
    /// The answers being sent, each with when it began to wait for its reader.
    bodies: Mutex<Vec<Weak<BodyClock>>>,
    /// The client speaks HTTP/2 (its first bytes were the preface).
    http2: bool,
}

/// What the watcher decides on a look at the connection.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Keep,
    /// Idle past the time-out: close it gracefully.
    Idle,
    /// The client stopped reading: drop it.
    Stalled,
}

impl Watch {
    /// The watch of a connection accepted at `opened`; `http2`: its client speaks HTTP/2.
    pub fn new(opened: Instant, http2: bool) -> Arc<Self> {
        Arc::new(Self {
            opened,
            in_flight: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            write_waiting_since: AtomicU64::new(NEVER),
            last_write: AtomicU64::new(0),
            bodies: Mutex::default(),
            http2,
        })
    }

    fn now(&self) -> u64 {
        self.opened.elapsed().as_millis() as u64
    }

    fn instant(&self, millis: u64) -> Instant {
        self.opened + Duration::from_millis(millis)
    }

    /// The earliest time something waiting on the client began, if anything is.
    fn oldest_wait(&self) -> Option<u64> {
        let mut bodies = self.bodies.lock().expect("bodies lock");
        bodies.retain(|body| body.strong_count() > 0);
        let owed = bodies
            .iter()
            .filter_map(Weak::upgrade)
            .map(|clock| clock.owed_since.load(Ordering::Relaxed))
            .min()
            .unwrap_or(NEVER);
        let oldest = owed.min(self.write_waiting_since.load(Ordering::Relaxed));
        (oldest != NEVER).then_some(oldest)
    }

    pub fn verdict(&self, timeouts: &Timeouts) -> Verdict {
        let now = self.now();
        let send = timeouts.send.as_millis() as u64;
        if self
            .oldest_wait()
            .is_some_and(|since| now.saturating_sub(since) >= send)
        {
            return Verdict::Stalled;
        }
        if self.quiet_for(timeouts.idle) {
            return Verdict::Idle;
        }
        Verdict::Keep
    }

    /// When the connection last did anything: a request ended or the client took bytes.
    fn last_activity(&self) -> u64 {
        self.idle_since
            .load(Ordering::Acquire)
            .max(self.last_write.load(Ordering::Relaxed))
    }

    /// No request in flight, no write waiting, and nothing written for `span`.
    pub fn quiet_for(&self, span: Duration) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0
            && self.write_waiting_since.load(Ordering::Relaxed) == NEVER
            && self.now().saturating_sub(self.last_activity()) >= span.as_millis() as u64
    }

    /// When to look again: the verdict cannot change before then, except that a wait that
    /// begins meanwhile is seen at most one tick late.
    pub fn next_look(&self, timeouts: &Timeouts) -> Instant {
        const TICK: Duration = Duration::from_secs(1);
        let by_wait = self
            .oldest_wait()
            .map(|since| self.instant(since) + timeouts.send);
        let by_idle = (self.in_flight.load(Ordering::Acquire) == 0)
            .then(|| self.instant(self.last_activity()) + timeouts.idle);
        let soonest = Instant::now() + TICK.min(timeouts.send);
        [by_wait, by_idle]
            .into_iter()
            .flatten()
            .fold(soonest, Instant::min)
            .max(Instant::now())
    }
}

/// One request in flight, from the moment the service is called until its answer's body
/// is finished or dropped.
struct InFlight(Arc<Watch>);

impl InFlight {
    fn begin(watch: &Arc<Watch>) -> Self {
        watch.in_flight.fetch_add(1, Ordering::AcqRel);
        Self(watch.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let watch = &self.0;
        watch.idle_since.store(watch.now(), Ordering::Release);
        watch.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// When an answer began to wait for its reader to ask for more, or [`NEVER`] while the
/// answer itself is the one to wait for (a render, an upstream).
struct BodyClock {
    owed_since: AtomicU64,
}

/// An answer's body that tells the watch how it is read.
pub struct WatchedBody {
    inner: Body,
    clock: Arc<BodyClock>,
    watch: Arc<Watch>,
    _in_flight: InFlight,
}

impl WatchedBody {
    fn new(inner: Body, in_flight: InFlight) -> Self {
        let watch = in_flight.0.clone();
        // Ready to be sent: from now on, the reader is the one to wait for.
        let clock = Arc::new(BodyClock {
            owed_since: AtomicU64::new(watch.now()),
        });
        watch
            .bodies
            .lock()
            .expect("bodies lock")
            .push(Arc::downgrade(&clock));
        Self {
            inner,
            clock,
            watch,
            _in_flight: in_flight,
        }
    }
}

impl hyper::body::Body for WatchedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let inner = &mut self.inner;
        let polled = match super::panics::catching(|| Pin::new(inner).poll_frame(cx)) {
            Ok(polled) => polled,
            Err(panicked) => {
                super::panics::note(&panicked, "in an answer's body: the answer was cut", "");
                Poll::Ready(Some(Err(axum::Error::new("the answer's body panicked"))))
            }
        };
        let owed = match &polled {
            Poll::Ready(Some(Ok(_))) if !self.inner.is_end_stream() => self.watch.now(),
            _ => NEVER,
        };
        self.clock.owed_since.store(owed, Ordering::Relaxed);
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The router, as hyper calls it on one connection: each request carries the client's
/// address and counts as in flight until its answer is sent.
#[derive(Clone)]
pub struct ConnectionService {
    pub router: axum::Router,
    pub watch: Arc<Watch>,
    pub peer: SocketAddr,
}

impl hyper::service::Service<Request<Incoming>> for ConnectionService {
    type Response = Response<WatchedBody>;
    type Error = std::convert::Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<WatchedBody>, Self::Error>> + Send>>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        let in_flight = InFlight::begin(&self.watch);
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(PeerAddr(self.peer));
        let answer = tower_service::Service::call(&mut self.router.clone(), request);
        Box::pin(async move {
            let mut response = answer.await?;
            drop_length_without_content(&mut response);
            Ok(response.map(|body| WatchedBody::new(body, in_flight)))
        })
    }
}

/// A 204 never carries `Content-Length`, and a 304 only the length the 200 would have
/// had (RFC 9110 §8.6): axum writes the empty body's `0` on both (on every HTTP/2 answer,
/// and on HTTP/1.1 for HEAD), so it goes here, after every layer has had its say.
fn drop_length_without_content<B>(response: &mut Response<B>) {
    use axum::http::{StatusCode, header};
    if matches!(
        response.status(),
        StatusCode::NO_CONTENT | StatusCode::NOT_MODIFIED
    ) {
        response.headers_mut().remove(header::CONTENT_LENGTH);
    }
}

/// The client's socket: tells the watch when a write waits for the client. What was read
/// of it already (to tell its protocol) is read first.
pub struct WatchedIo {
    stream: TcpStream,
    watch: Arc<Watch>,
    taken: Bytes,
}

impl WatchedIo {
    pub fn new(stream: TcpStream, watch: Arc<Watch>, taken: Vec<u8>) -> Self {
        Self {
            stream,
            watch,
            taken: Bytes::from(taken),
        }
    }

    fn note_write(&self, polled: &Poll<io::Result<usize>>) {
        let since = match polled {
            Poll::Pending => match self.watch.write_waiting_since.load(Ordering::Relaxed) {
                NEVER => self.watch.now(),
                since => since,
            },
            Poll::Ready(written) => {
                if matches!(written, Ok(1..)) {
                    self.watch
                        .last_write
                        .store(self.watch.now(), Ordering::Relaxed);
                }
                NEVER
            }
        };
        self.watch
            .write_waiting_since
            .store(since, Ordering::Relaxed);
    }
}

impl AsyncRead for WatchedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if !self.taken.is_empty() {
            let given = self.taken.len().min(buf.remaining());
            buf.put_slice(&self.taken.split_to(given));
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for WatchedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.note_write(&polled);
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.note_write(&polled);
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

impl ServiceAnswers for Watch {
    fn service_answers(&self) -> bool {
        self.http2 || self.in_flight.load(Ordering::Acquire) > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_and_stalled_connections_are_told_apart() {
        let timeouts = Timeouts {
            idle: Duration::from_millis(30),
            send: Duration::from_millis(30),
        };
        let watch = Watch::new(Instant::now(), false);
        assert_eq!(watch.verdict(&timeouts), Verdict::Keep);
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(watch.verdict(&timeouts), Verdict::Idle, "no request at all");
        let in_flight = InFlight::begin(&watch);
        assert_eq!(
            watch.verdict(&timeouts),
            Verdict::Keep,
            "a request in flight"
        );
        let body = WatchedBody::new(Body::from("x"), in_flight);
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(
            watch.verdict(&timeouts),
            Verdict::Stalled,
            "an answer never read"
        );
        drop(body);
        assert_eq!(watch.verdict(&timeouts), Verdict::Keep, "just finished");
    }
}
