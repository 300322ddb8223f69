//! The HTTP server around the router: explicit limits on what a client may send before its
//! request is read, and the drain when a signal comes. A drain has two steps: first the host
//! keeps serving while telling everyone it is going (`/readyz` answers 503, HTTP/1 answers
//! carry `Connection: close`) so a load balancer stops sending new work; then it stops
//! accepting and waits for the requests in flight, up to a deadline.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

/// The request line and headers together, at most; past it, 431.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;
/// Header fields in one request, at most; past it, 431.
pub const MAX_HEADERS: usize = 100;
/// A client has this long to send a request's head once it starts; then the connection is closed.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// What the whole host knows about a drain in progress and the connections open.
#[derive(Default)]
pub struct Lifecycle {
    draining: AtomicBool,
    open_connections: AtomicUsize,
}

impl Lifecycle {
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    pub fn open_connections(&self) -> usize {
        self.open_connections.load(Ordering::Relaxed)
    }
}

pub struct DrainOptions {
    /// How long to keep serving, announcing the drain, before accepting stops.
    pub delay: Duration,
    /// How long requests in flight may take once accepting has stopped.
    pub deadline: Duration,
}

/// How a drain ended, for the last log lines.
#[derive(Debug)]
pub struct DrainReport {
    /// From the signal to the last connection closed (or the deadline).
    pub took: Duration,
    /// Connections still open at the deadline, closed unfinished.
    pub abandoned: usize,
}

/// Serves `router` on `listener` until `signal` completes, then drains.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    lifecycle: Arc<Lifecycle>,
    signal: impl Future<Output = ()>,
    drain: DrainOptions,
) -> DrainReport {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(MAX_HEAD_BYTES as u32);
    let builder = Arc::new(builder);
    let service = TowerToHyperService::new(router);
    let graceful = GracefulShutdown::new();

    tokio::pin!(signal);
    let mut announced: Option<Instant> = None;
    loop {
        let until_deaf = async {
            match announced {
                Some(at) => tokio::time::sleep_until((at + drain.delay).into()).await,
                None => std::future::pending().await,
            }
        };
        let stream = tokio::select! {
            () = &mut signal, if announced.is_none() => {
                lifecycle.draining.store(true, Ordering::Relaxed);
                announced = Some(Instant::now());
                tracing::info!(delay_ms = drain.delay.as_millis() as u64, open_connections = lifecycle.open_connections(), "draining: readiness fails and answers close their connections");
                continue;
            }
            () = until_deaf => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let (builder, service, watcher) = (builder.clone(), service.clone(), graceful.watcher());
        let lifecycle = lifecycle.clone();
        lifecycle.open_connections.fetch_add(1, Ordering::Relaxed);
        tokio::spawn(async move {
            // hyper's head time-out starts with the first byte: a connection that sends
            // nothing at all gets the same time.
            let mut first = [0u8; 1];
            if let Ok(Ok(1..)) =
                tokio::time::timeout(HEADER_READ_TIMEOUT, stream.peek(&mut first)).await
            {
                let connection = builder
                    .serve_connection(TokioIo::new(stream), service)
                    .into_owned();
                // Errors here are the client's: a reset, a malformed request, a slow head.
                let _ = watcher.watch(connection).await;
            }
            lifecycle.open_connections.fetch_sub(1, Ordering::Relaxed);
        });
    }
    drop(listener);
    let announced = announced.expect("the loop ends only after the signal");
    tracing::info!(
        open_connections = lifecycle.open_connections(),
        deadline_ms = drain.deadline.as_millis() as u64,
        "stopped accepting: finishing requests in flight"
    );
    let finished = tokio::time::timeout(drain.deadline, graceful.shutdown())
        .await
        .is_ok();
    DrainReport {
        took: announced.elapsed(),
        abandoned: if finished {
            0
        } else {
            lifecycle.open_connections()
        },
    }
}
