//! One real server per test binary: the router of `bilingue::app` on 127.0.0.1:0, with
//! its render threads, spoken to over HTTP.

pub mod asking;
pub mod binary;
pub mod machine;
pub mod tap;
pub mod upstream;

use std::sync::OnceLock;

use bilingue::config::Config;
use bilingue::server::{self, ServeOptions};
use bilingue::{Host, render};
use clap::Parser;

/// Where each in-process host (by base URL) serves `/metrics`: its own listener, as
/// `--metrics-bind` gives the binary.
static METRICS_URLS: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// The metrics address of the host at `base` (in-process or a child's).
pub fn metrics_url(base: &str) -> String {
    METRICS_URLS
        .lock()
        .unwrap()
        .iter()
        .find(|(host, _)| host == base)
        .map(|(_, metrics)| metrics.clone())
        .unwrap_or_else(|| panic!("no metrics listener known for {base}"))
}

/// A host's port may be one an earlier host of the run had (the kernel hands ports out
/// again): the base is the newest host's, and the earlier one's address goes.
pub fn register_metrics_url(base: &str, metrics: &str) {
    let mut known = METRICS_URLS.lock().unwrap();
    known.retain(|(host, _)| host != base);
    known.push((base.to_string(), metrics.to_string()));
}

pub fn base_url() -> &'static str {
    static BASE_URL: OnceLock<String> = OnceLock::new();
    // A visitor's page whose shell is kept is streamed after it at once, whatever its data's
    // time, so that the shape of its answer is the same at each ask under any load; the
    // pages sent whole for want of that (`--shell-hold`) have hosts of their own
    // (tests/prerender.rs).
    BASE_URL.get_or_init(|| start(&["--render-threads", "2", "--shell-hold", "0s"]))
}

pub fn init_v8_once() {
    static V8: OnceLock<()> = OnceLock::new();
    V8.get_or_init(render::init_v8);
}

/// Starts the host in this process with these options, once its render threads have
/// warmed up; its base URL. Only with the built-in bundle: V8 shares one read-only heap
/// between the isolates of a process, so isolates made from the build's snapshot cannot
/// live beside isolates made from another bundle (`--server-bundle`); such hosts run as
/// child processes ([`binary::Host`]), as the binary never mixes the two.
pub fn start(args: &[&str]) -> String {
    assert!(
        !args.contains(&"--server-bundle"),
        "start another bundle with binary::Host, in its own process"
    );
    init_v8_once();
    let config = Config::parse_from(std::iter::once("bilingue").chain(args.iter().copied()));
    let (address_tx, address_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let address = listener.local_addr().unwrap();
            let metrics_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let metrics_address = metrics_listener.local_addr().unwrap();
            let started = match Host::start(&config, address.port()) {
                Ok(host) => host.warmed().await.map(|()| host),
                Err(e) => Err(e),
            };
            let host = match started {
                Ok(host) => host,
                Err(e) => {
                    address_tx.send(Err(e.to_string())).unwrap();
                    return;
                }
            };
            address_tx.send(Ok((address, metrics_address))).unwrap();
            // Served until the test binary exits: no signal, so no drain.
            let options = ServeOptions::from(&config);
            let metrics = host.metrics_app();
            tokio::spawn(async move { axum::serve(metrics_listener, metrics).await });
            server::serve(
                listener,
                host.app(),
                host.lifecycle(),
                std::future::pending(),
                options,
            )
            .await;
        });
    });
    match address_rx.recv().unwrap() {
        Ok((address, metrics)) => {
            let base = format!("http://{address}");
            register_metrics_url(&base, &format!("http://{metrics}"));
            base
        }
        Err(e) => panic!("the host did not start: {e}"),
    }
}

/// Starts the host in this process and returns why it could not, if it could not.
pub fn start_error(args: &[&str]) -> Option<String> {
    init_v8_once();
    let config = Config::parse_from(std::iter::once("bilingue").chain(args.iter().copied()));
    block_on(async {
        match Host::start(&config, 3000) {
            Ok(host) => host.warmed().await.err().map(|e| e.to_string()),
            Err(e) => Some(e.to_string()),
        }
    })
}

pub fn client() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// The body of a GET of `url` by the shared client, whatever its status.
pub fn text(url: impl reqwest::IntoUrl) -> String {
    client().get(url).send().unwrap().text().unwrap()
}

pub fn get(path: &str) -> reqwest::blocking::Response {
    client()
        .get(format!("{}{path}", base_url()))
        .send()
        .unwrap()
}

/// A GET of `path` on the shared server with one request header.
pub fn get_with(path: &str, name: &str, value: &str) -> reqwest::blocking::Response {
    client()
        .get(format!("{}{path}", base_url()))
        .header(name, value)
        .send()
        .unwrap()
}

pub fn header(response: &reqwest::blocking::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

/// A gzip body's text; it must be valid gzip.
pub fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(bytes), &mut text)
        .expect("valid gzip");
    text
}

/// The value of one unlabelled line of a host's `/metrics`, such as `bilingue_open_connections`.
pub fn metric(base: &str, name: &str) -> f64 {
    metric_with(&client(), base, name)
}

pub fn metric_with(client: &reqwest::blocking::Client, base: &str, name: &str) -> f64 {
    let text = client
        .get(format!("{}/metrics", metrics_url(base)))
        .send()
        .unwrap()
        .text()
        .unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no {name} in {text}"))
        .trim()
        .parse()
        .unwrap()
}

/// Bytes written as they are on a new connection to `address`; everything the server
/// answers until it closes the connection (or 10 s pass).
pub fn raw_exchange(address: &str, request: &[u8]) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// Runs a future to its end on a runtime of its own (for the HTTP/2 client).
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

/// An HTTP/2 connection (prior knowledge, as `curl --http2-prior-knowledge`) to `address`.
pub async fn h2_connect(address: &str) -> h2::client::SendRequest<bytes::Bytes> {
    let tcp = tokio::net::TcpStream::connect(address).await.unwrap();
    let (client, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(async move {
        let _ = connection.await;
    });
    client
}

/// One HTTP/2 GET with these extra headers: the answer's head and body.
pub async fn h2_get(
    client: &mut h2::client::SendRequest<bytes::Bytes>,
    url: &str,
    headers: &[(String, String)],
) -> (axum::http::response::Parts, Vec<u8>) {
    let mut request = axum::http::Request::get(url);
    for (name, value) in headers {
        request = request.header(name, value);
    }
    let client = client.clone().ready().await.unwrap();
    let mut client = client;
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
    (parts, bytes)
}

/// The first `href` of a `<link rel="{rel}"…>` or `src` of `<script … src>` in a document.
pub fn attribute_after<'a>(html: &'a str, marker: &str, attribute: &str) -> Option<&'a str> {
    let start = html.find(marker)?;
    let rest = &html[start..];
    let value = &rest[rest.find(&format!("{attribute}=\""))? + attribute.len() + 2..];
    Some(&value[..value.find('"')?])
}

/// The module scripts a page's starter (its one inline script) starts, in order.
pub fn module_scripts(html: &str) -> Vec<String> {
    quoted_after(html, r#"{type:"module",src:""#)
        .map(str::to_owned)
        .collect()
}

/// Each value that follows `mark` (which ends with its opening quote) in `html`, up to its
/// closing quote, in order.
pub fn quoted_after<'a>(html: &'a str, mark: &'a str) -> impl Iterator<Item = &'a str> {
    html.match_indices(mark).map(move |(at, _)| {
        let rest = &html[at + mark.len()..];
        &rest[..rest.find('"').expect("a closing quote")]
    })
}

/// A GET of `path` on the shared server, following redirects as a browser does (an
/// unprefixed URL leads to the prefixed page).
pub fn get_following(path: &str) -> reqwest::blocking::Response {
    reqwest::blocking::Client::new()
        .get(format!("{}{path}", base_url()))
        .send()
        .unwrap()
}

/// The server bundle that misbehaves on demand (loops, throws, eats the heap, …).
pub const FAULTY_BUNDLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/faulty-bundle.js"
);
/// The server bundle whose pages load any URL given to them.
pub const LOADER_BUNDLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/loader-bundle.js"
);

/// A file of `tests/fixtures/`.
pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The client-rendered page: the document with no markup in its root.
pub fn is_client_rendered(html: &str) -> bool {
    html.contains(r#"<div id="app"></div>"#)
}

/// The binary with the faulty bundle on one render thread, warmed up: a child process,
/// since a bundle other than the built-in snapshot cannot share a process with it.
pub fn faulty_host(extra: &[&str]) -> binary::Host {
    let mut args = vec!["--server-bundle", FAULTY_BUNDLE, "--render-threads", "1"];
    args.extend_from_slice(extra);
    binary::Host::started(&args)
}

/// The app's page of `route` in `language`, its parameters filled as given (as a URL
/// writes them): its path, prefix and all, at the route's path in that language as the
/// build declares it (`/fr/langues/en`). Tests ask for pages by route, never by today's
/// paths.
pub fn app_page(language: &str, route: &str, params: &[(&str, &str)]) -> String {
    let declared = bilingue::declared_routes()
        .iter()
        .find(|declared| declared.name == route)
        .unwrap_or_else(|| panic!("the app declares no route {route:?}"));
    let path = bilingue::filled_pattern(&declared.paths[language], |name| {
        params
            .iter()
            .find(|(param, _)| *param == name)
            .unwrap_or_else(|| panic!("the route {route:?} takes {name:?}"))
            .1
    });
    format!("/{language}{path}")
}
