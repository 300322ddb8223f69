//! The HTTP server around the router: the accept loop, each connection watched until it
//! closes (`connection.rs`), the limits on what a client may send (`limits.rs`), and the
//! drain when a signal comes. A drain has two steps: first the host keeps serving while
//! telling everyone it is going (`/readyz` answers 503, HTTP/1 answers carry
//! `Connection: close`) so a load balancer stops sending new work; then it stops accepting
//! and waits for the requests in flight, up to a deadline.

mod connection;
pub mod limits;
pub mod panics;
mod protocol;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};

use crate::config::Config;
use crate::security::hyper_answers::WithHeadersOnRefusals;
use connection::{ConnectionService, Verdict, Watch, WatchedIo};
pub use connection::{PeerAddr, Timeouts};
pub use limits::{HEADER_READ_TIMEOUT, MAX_HEAD_BYTES, MAX_HEADERS};
use protocol::{Protocol, Spoken};

/// What the whole host knows about a drain in progress and the connections open.
#[derive(Default)]
pub struct Lifecycle {
    draining: AtomicBool,
    open_connections: AtomicUsize,
    all_closed: Notify,
}

impl Lifecycle {
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    pub fn open_connections(&self) -> usize {
        self.open_connections.load(Ordering::Relaxed)
    }

    fn opened(&self) {
        self.open_connections.fetch_add(1, Ordering::AcqRel);
    }

    fn closed(&self) {
        if self.open_connections.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.all_closed.notify_waiters();
        }
    }

    async fn all_closed(&self) {
        loop {
            let notified = self.all_closed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.open_connections() == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// While draining, every HTTP/1 answer asks its client to close the connection, so that a
/// load balancer's next request goes to another replica (HTTP/2 gets a GOAWAY instead).
/// Listens on `address` with room in the kernel's queue of connections not yet accepted
/// for `backlog` of them (at least 1024, what a listener gets by default; the kernel caps
/// it at `net.core.somaxconn`): a burst of visitors larger than the queue sees its extra
/// connections dropped, and retried by their clients a second later.
pub fn listen(address: SocketAddr, backlog: u32) -> io::Result<TcpListener> {
    let socket = match address {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(backlog.max(1024))
}

pub struct ServeOptions {
    /// How long to keep serving, announcing the drain, before accepting stops.
    pub drain_delay: Duration,
    /// How long requests in flight may take once accepting has stopped.
    pub drain_timeout: Duration,
    /// How long a client may leave an answer unread.
    pub send_timeout: Duration,
    /// Connections open at once, at most: past it, new ones wait in the kernel's backlog.
    pub max_connections: usize,
}

impl From<&Config> for ServeOptions {
    /// The public listener's, as the options say.
    fn from(config: &Config) -> Self {
        Self {
            drain_delay: config.drain_delay,
            drain_timeout: config.drain_timeout,
            send_timeout: config.send_timeout,
            max_connections: config.max_connections as usize,
        }
    }
}

/// How a drain ended, for the last log lines.
#[derive(Debug)]
pub struct DrainReport {
    /// From the signal to the last connection closed (or the deadline).
    pub took: Duration,
    /// Connections still open at the deadline, closed unfinished.
    pub abandoned: usize,
}

/// Where the server is in its life, as each connection sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Serving,
    /// Accepting has stopped: finish what is in flight, then close.
    Closing,
    /// The drain deadline passed: close now.
    Abort,
}

/// Everything a connection task needs, shared.
struct ConnectionContext {
    /// hyper for each protocol: the connection's first bytes say which (`protocol`).
    http1: auto::Builder<TokioExecutor>,
    http2: auto::Builder<TokioExecutor>,
    router: Router,
    lifecycle: Arc<Lifecycle>,
    timeouts: Timeouts,
}

/// Serves `router` on `listener` until `signal` completes, then drains.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    lifecycle: Arc<Lifecycle>,
    signal: impl Future<Output = ()>,
    options: ServeOptions,
) -> DrainReport {
    let shared = Arc::new(ConnectionContext {
        http1: limits::builder().http1_only(),
        http2: limits::builder().http2_only(),
        router,
        lifecycle: lifecycle.clone(),
        timeouts: Timeouts {
            idle: HEADER_READ_TIMEOUT,
            send: options.send_timeout,
        },
    });
    let (phase, phase_seen) = watch::channel(Phase::Serving);
    // Every connection costs memory (its buffers, a header block in the making): their
    // number is what bounds it. At the cap the host stops accepting, as nginx does at
    // `worker_connections`, and the kernel holds new ones until a place frees.
    let places = Arc::new(Semaphore::new(options.max_connections.max(1)));

    tokio::pin!(signal);
    let mut announced: Option<Instant> = None;
    loop {
        let until_deaf = async {
            match announced {
                Some(at) => tokio::time::sleep_until((at + options.drain_delay).into()).await,
                None => std::future::pending().await,
            }
        };
        let accept = async {
            let place = places.clone().acquire_owned().await.expect("never closed");
            (place, listener.accept().await)
        };
        let (place, stream, peer) = tokio::select! {
            () = &mut signal, if announced.is_none() => {
                lifecycle.draining.store(true, Ordering::Relaxed);
                announced = Some(Instant::now());
                tracing::info!(delay_ms = options.drain_delay.as_millis() as u64, open_connections = lifecycle.open_connections(), "draining: readiness fails and answers close their connections");
                continue;
            }
            () = until_deaf => break,
            (place, accepted) = accept => match accepted {
                Ok((stream, peer)) => (place, stream, peer),
                Err(error) => {
                    on_accept_error(&error).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        lifecycle.opened();
        tokio::spawn(serve_connection(
            stream,
            peer,
            shared.clone(),
            phase_seen.clone(),
            place,
        ));
    }
    drop(listener);
    let announced = announced.expect("the loop ends only after the signal");
    tracing::info!(
        open_connections = lifecycle.open_connections(),
        deadline_ms = options.drain_timeout.as_millis() as u64,
        "stopped accepting: finishing requests in flight"
    );
    let _ = phase.send(Phase::Closing);
    let finished = tokio::time::timeout(options.drain_timeout, lifecycle.all_closed())
        .await
        .is_ok();
    let abandoned = if finished {
        0
    } else {
        let open = lifecycle.open_connections();
        let _ = phase.send(Phase::Abort);
        // Each connection drops itself at once on Abort.
        let _ = tokio::time::timeout(Duration::from_secs(1), lifecycle.all_closed()).await;
        open
    };
    DrainReport {
        took: announced.elapsed(),
        abandoned,
    }
}

/// A failed accept: the client's own trouble (it reset before we took it) is skipped at
/// once; anything else (out of descriptors, of memory) is logged and waited out briefly, so
/// the loop neither spins nor stops.
async fn on_accept_error(error: &io::Error) {
    match error.kind() {
        io::ErrorKind::ConnectionAborted
        | io::ErrorKind::ConnectionReset
        | io::ErrorKind::ConnectionRefused
        | io::ErrorKind::Interrupted => {}
        _ => {
            tracing::error!(%error, "accepting a connection failed; retrying in 50 ms");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// One connection, from accept to close: served by hyper (HTTP/1.1 or HTTP/2, as the
/// client speaks), watched, and closed gracefully when idle or draining, at once when its
/// client stops reading or the drain deadline passes.
async fn serve_connection(
    mut stream: TcpStream,
    peer: SocketAddr,
    shared: Arc<ConnectionContext>,
    mut phase: watch::Receiver<Phase>,
    _place: OwnedSemaphorePermit,
) {
    // Closed however this task ends, a panic that unwinds through hyper included: a drain
    // waits for the count to reach zero.
    let _open = Open(shared.lifecycle.clone());
    let accepted = Instant::now();
    // A client that says nothing for the idle time-out, or while the host drains, is let
    // go; the time it took counts towards its watch's, which starts at the accept.
    let spoken = tokio::select! {
        spoken = protocol::spoken(&mut stream) => spoken,
        () = tokio::time::sleep_until((accepted + shared.timeouts.idle).into()) => return,
        () = stopped_serving(&mut phase) => return,
    };
    let Ok(Spoken { protocol, taken }) = spoken else {
        return;
    };
    let watch = Watch::new(accepted, protocol == Protocol::Http2);
    let io = TokioIo::new(WithHeadersOnRefusals::new(
        WatchedIo::new(stream, watch.clone(), taken),
        watch.clone(),
    ));
    let service = ConnectionService {
        router: shared.router.clone(),
        watch: watch.clone(),
        peer,
    };
    let builder = match protocol {
        Protocol::Http1 => &shared.http1,
        Protocol::Http2 => &shared.http2,
    };
    let connection = builder.serve_connection(io, service);
    tokio::pin!(connection);
    // Once a graceful close has begun with nothing in flight, the time hyper gets to say
    // goodbye (an HTTP/2 GOAWAY) before the connection is dropped; with requests in flight,
    // they finish first (bounded by the send time-out and the drain deadline).
    const GOODBYE: Duration = Duration::from_secs(1);
    let mut closing: Option<Instant> = None;
    let mut phase_open = true;
    loop {
        if closing.is_none() && *phase.borrow() != Phase::Serving {
            connection.as_mut().graceful_shutdown();
            closing = Some(Instant::now());
        }
        if *phase.borrow() == Phase::Abort {
            break;
        }
        let look = match closing {
            Some(since) => watch.next_look(&shared.timeouts).min(since + GOODBYE),
            None => watch.next_look(&shared.timeouts),
        };
        tokio::select! {
            // Errors here are the client's: a reset, a malformed request, a slow head.
            _ = connection.as_mut() => break,
            changed = phase.changed(), if phase_open => phase_open = changed.is_ok(),
            () = tokio::time::sleep_until(look.into()) => match watch.verdict(&shared.timeouts) {
                Verdict::Stalled => {
                    tracing::debug!(%peer, "closing a connection whose client stopped reading");
                    break;
                }
                Verdict::Idle if closing.is_none() => {
                    connection.as_mut().graceful_shutdown();
                    closing = Some(Instant::now());
                }
                _ if closing.is_some_and(|since| since.elapsed() >= GOODBYE) && watch.quiet_for(GOODBYE) => break,
                _ => {}
            },
        }
    }
}

/// Completes once the host is no longer serving (or can no longer tell).
async fn stopped_serving(phase: &mut watch::Receiver<Phase>) {
    let _ = phase.wait_for(|phase| *phase != Phase::Serving).await;
}

/// One connection counted open until it is dropped.
struct Open(Arc<Lifecycle>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.closed();
    }
}
