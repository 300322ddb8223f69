//! `bilingue`: read the options, start V8 and the render threads, serve until a signal.

use std::io::IsTerminal as _;
use std::net::SocketAddr;
use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

use bilingue::config::{Config, LogFormat};
use bilingue::server::{self, DrainOptions};
use bilingue::{AppState, app, render};

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    let config = Config::parse();
    init_logging(config.log_format);
    // Before any other thread exists: V8 crashes otherwise on CPUs with memory protection keys.
    render::init_v8();
    let state = match AppState::start(&config) {
        Ok(state) => state,
        Err(e) => {
            eprintln!("bilingue: {e}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async move {
        let address = SocketAddr::new(config.bind, config.port);
        let listener = match tokio::net::TcpListener::bind(address).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!(
                    "bilingue: cannot listen on {address}: {e} (choose another --port or --bind)"
                );
                return ExitCode::FAILURE;
            }
        };
        let bound = listener
            .local_addr()
            .expect("a bound socket has an address");
        println!("bilingue listening on http://{bound}");
        tracing::info!(%bound, threads = state.pool.threads(), ready_ms = started.elapsed().as_millis() as u64, "serving");
        let drain = DrainOptions {
            delay: config.drain_delay,
            deadline: config.drain_timeout,
        };
        let lifecycle = state.lifecycle.clone();
        let report = server::serve(listener, app(state), lifecycle, shutdown_signal(), drain).await;
        if report.abandoned > 0 {
            tracing::warn!(
                abandoned = report.abandoned,
                took_ms = report.took.as_millis() as u64,
                "drain deadline passed: closing the connections still open"
            );
        } else {
            tracing::info!(took_ms = report.took.as_millis() as u64, "drained: every request in flight was answered");
        }
        ExitCode::SUCCESS
    })
}

fn init_logging(format: LogFormat) {
    let filter = EnvFilter::try_from_env("BILINGUE_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! { () = interrupt => {}, () = terminate => {} }
}
