//! `bilingue`: read the options, start V8, then, in this order: catch the signals, start the
//! render threads (they warm up in the background), listen, serve until a signal, drain.
//! Listening before the warm-up ends lets `/healthz` answer and `/readyz` say "not yet"
//! on a slow start, instead of a refused connection that a supervisor reads as dead.

use std::net::SocketAddr;
use std::process::ExitCode;

use bilingue::config::Config;
use bilingue::server::{self, ServeOptions};
use bilingue::{Host, render};
use clap::Parser;
use tokio::signal::unix::{Signal, SignalKind, signal};

/// Every allocation of the host's own code, hyper's and tokio's (Cargo.toml says why).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    let config = Config::parse();
    // Before any other thread exists: every thread takes the policy of the one starting it.
    let scheduling = bilingue::scheduling::apply(config.batch_scheduling);
    bilingue::logging::init(config.log_format);
    match scheduling {
        Ok(bilingue::scheduling::Applied::Kept) if config.batch_scheduling => tracing::info!(
            "--batch-scheduling: started under a CPU scheduling policy other than the default; it is kept"
        ),
        Ok(_) => {}
        Err(e) => tracing::warn!(
            error = %e,
            "--batch-scheduling: cannot set the CPU scheduling policy; running under the one inherited"
        ),
    }
    if let Some(dir) = &config.write_assets {
        return match bilingue::write_assets(dir) {
            Ok(count) => {
                println!("bilingue wrote {count} assets into {}", dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("bilingue: --write-assets {e}");
                ExitCode::FAILURE
            }
        };
    }
    if let Some(dir) = &config.dev {
        tracing::warn!(dir = %dir.display(), "DEVELOPMENT MODE: serving the app from its build folder; never use --dev in production");
    }
    raise_open_file_limit();
    // Before any other thread exists: V8 crashes otherwise on CPUs with memory protection keys.
    render::init_v8();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(run(config, started))
}

async fn run(config: Config, started: std::time::Instant) -> ExitCode {
    // First of all, so a signal at any moment of start-up drains instead of killing.
    let signals = match Signals::catch() {
        Ok(signals) => signals,
        Err(e) => {
            eprintln!("bilingue: cannot catch signals: {e}");
            return ExitCode::FAILURE;
        }
    };
    let address = SocketAddr::new(config.bind, config.port);
    // As many waiting to be accepted as may be open at once.
    let listener = match server::listen(address, config.max_connections) {
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
    let metrics_listener = match config.metrics_bind {
        Some(address) => match tokio::net::TcpListener::bind(address).await {
            Ok(listener) => Some(listener),
            Err(e) => {
                eprintln!(
                    "bilingue: cannot listen for metrics on {address}: {e} (choose another --metrics-bind)"
                );
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let host = match Host::start(&config, bound.port()) {
        Ok(host) => host,
        Err(e) => {
            eprintln!("bilingue: {e}");
            return ExitCode::FAILURE;
        }
    };
    if config.public_url.is_none() && !bound.ip().is_loopback() {
        tracing::warn!(
            %bound,
            "listening beyond this machine without --public-url: absolute URLs (canonical, alternates, sitemap) name http://localhost:{}",
            bound.port()
        );
    }
    println!("bilingue listening on http://{bound}");
    let (stop, stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        signals.wait().await;
        let _ = stop.send(true);
    });
    let signalled = move || {
        let mut stopped = stopped.clone();
        async move {
            let _ = stopped.wait_for(|stop| *stop).await;
        }
    };
    if let Some(listener) = metrics_listener {
        let address = listener
            .local_addr()
            .expect("a bound socket has an address");
        println!("bilingue metrics on http://{address}");
        let options = ServeOptions {
            max_connections: 64,
            ..ServeOptions::from(&config)
        };
        tokio::spawn(server::serve(
            listener,
            host.metrics_app(),
            std::sync::Arc::default(),
            signalled(),
            options,
        ));
    }

    let options = ServeOptions::from(&config);
    let serving = server::serve(listener, host.app(), host.lifecycle(), signalled(), options);
    host.watch_dev_builds();
    let warmed = host.warmed();
    tokio::pin!(serving, warmed);
    let mut warming = true;
    loop {
        tokio::select! {
            report = &mut serving => {
                if report.abandoned > 0 {
                    tracing::warn!(
                        abandoned = report.abandoned,
                        took_ms = report.took.as_millis() as u64,
                        "drain deadline passed: closing the connections still open"
                    );
                } else {
                    tracing::info!(took_ms = report.took.as_millis() as u64, "drained: every request in flight was answered");
                }
                return ExitCode::SUCCESS;
            }
            warm = &mut warmed, if warming => {
                warming = false;
                match warm {
                    Ok(()) => tracing::info!(%bound, threads = host.threads(), ready_ms = started.elapsed().as_millis() as u64, "serving"),
                    // In development a bad edit never stops the host: it shows the problem.
                    Err(e) if config.dev.is_some() => tracing::error!(error = %e, "the server bundle fails; fix it and save"),
                    Err(e) => {
                        eprintln!("bilingue: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
    }
}

/// Every connection holds a descriptor: take all the operating system allows this process
/// (the soft limit is often 1,024), as Go and nginx's `worker_rlimit_nofile` do.
fn raise_open_file_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// SIGTERM and SIGINT (a supervisor, Ctrl-C) and SIGHUP (the terminal went away) all mean
/// the same: stop taking work, finish what is in flight, exit 0.
struct Signals {
    terminate: Signal,
    interrupt: Signal,
    hang_up: Signal,
}

impl Signals {
    fn catch() -> std::io::Result<Self> {
        Ok(Self {
            terminate: signal(SignalKind::terminate())?,
            interrupt: signal(SignalKind::interrupt())?,
            hang_up: signal(SignalKind::hangup())?,
        })
    }

    async fn wait(mut self) {
        let name = tokio::select! {
            _ = self.terminate.recv() => "SIGTERM",
            _ = self.interrupt.recv() => "SIGINT",
            _ = self.hang_up.recv() => "SIGHUP",
        };
        tracing::info!(signal = name, "stopping");
    }
}
