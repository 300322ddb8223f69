//! The loading budget as a client meets it (docs/performance.md): one connection holds at
//! most a sixteenth of it, one client address a quarter, over HTTP/1.1 and HTTP/2 alike,
//! so one client's slow pages leave the rest to everyone else; and a page that waits for
//! nothing (no loader) is never refused for others' data, even with the budget full.

use std::io::Read as _;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use axum::routing::get;

use crate::support;
use crate::support::upstream::{self, Upstream};

const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
/// How long the upstream keeps each page waiting.
const DATA_TAKES: Duration = Duration::from_secs(2);

fn slow_upstream() -> Upstream {
    Upstream::builder()
        .route(
            "/api/status",
            get(|| async { upstream::json(upstream::status_json("9.9.9")) }),
        )
        .delay(DATA_TAKES)
        .start()
}

/// A host whose budget is 1 MiB: about 60 waiting pages, 15 per address, 3 per connection.
fn host(upstream: &Upstream) -> String {
    support::start(&[
        "--render-threads",
        "1",
        "--api-upstream",
        &upstream.url,
        "--loading-budget-mb",
        "1",
        "--load-timeout",
        "5s",
    ])
}

/// `127.0.0.N`: a client of its own (loopback takes any address of 127/8).
fn address(n: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, n])
}

/// What became of a person's status page: it waited for its data, or was answered at once
/// with the client-rendered page.
#[derive(Debug, PartialEq)]
enum Became {
    WithData,
    AtOnce,
}

fn became(html: &str, took: Duration) -> Became {
    if support::is_client_rendered(html) {
        assert!(took < DATA_TAKES, "a refused page waited {took:?}");
        return Became::AtOnce;
    }
    assert!(html.contains("<dd>9.9.9</dd>"), "{html:.1500}");
    Became::WithData
}

/// The status page over HTTP/1.1, on a connection of its own from `from`.
fn over_http1(host: &str, from: IpAddr) -> Became {
    let client = reqwest::blocking::Client::builder()
        .local_address(from)
        .build()
        .unwrap();
    let started = Instant::now();
    let mut response = client
        .get(format!("{host}{}", support::app_page("fr", "status", &[])))
        .header("accept-encoding", "identity")
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let mut html = String::new();
    response.read_to_string(&mut html).unwrap();
    became(&html, started.elapsed())
}

/// `count` status pages at once over one HTTP/2 connection from `from`.
fn over_one_http2_connection(host: &str, from: IpAddr, count: usize) -> Vec<Became> {
    let address = host.trim_start_matches("http://").to_string();
    let url = format!("{host}{}", support::app_page("fr", "status", &[]));
    support::block_on(async move {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind((from, 0).into()).unwrap();
        let tcp = socket.connect(address.parse().unwrap()).await.unwrap();
        let (client, connection) = h2::client::handshake(tcp).await.unwrap();
        tokio::spawn(connection);
        let pages = (0..count).map(|_| {
            let mut client = client.clone();
            let request = axum::http::Request::get(&url).body(()).unwrap();
            async move {
                let started = Instant::now();
                client = client.ready().await.unwrap();
                let (answer, _) = client.send_request(request, true).unwrap();
                let (parts, mut body) = answer.await.unwrap().into_parts();
                assert_eq!(parts.status, 200);
                let mut bytes = Vec::new();
                while let Some(chunk) = body.data().await {
                    let chunk = chunk.unwrap();
                    let _ = body.flow_control().release_capacity(chunk.len());
                    bytes.extend_from_slice(&chunk);
                }
                became(&String::from_utf8_lossy(&bytes), started.elapsed())
            }
        });
        futures_join_all(pages).await
    })
}

/// Every future to its end, side by side, in order.
async fn futures_join_all<F: std::future::Future + Send + 'static>(
    futures: impl Iterator<Item = F>,
) -> Vec<F::Output>
where
    F::Output: Send,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut outputs = Vec::new();
    for handle in handles {
        outputs.push(handle.await.unwrap());
    }
    outputs
}

fn counted(pages: &[Became]) -> (usize, usize) {
    let with_data = pages
        .iter()
        .filter(|page| **page == Became::WithData)
        .count();
    (with_data, pages.len() - with_data)
}

#[test]
fn one_connection_and_one_address_hold_at_most_their_share_and_leave_the_rest() {
    let upstream = slow_upstream();
    let host = host(&upstream);
    // The first visitor makes the kept shell; the others resume from it.
    assert_eq!(over_http1(&host, address(1)), Became::WithData);
    let many_streams = {
        let host = host.clone();
        std::thread::spawn(move || over_one_http2_connection(&host, address(2), 12))
    };
    let many_connections: Vec<_> = (0..30)
        .map(|_| {
            let host = host.clone();
            std::thread::spawn(move || over_http1(&host, address(3)))
        })
        .collect();
    // While both wait, a visitor of another address is served with its data.
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(over_http1(&host, address(4)), Became::WithData);
    let (with_data, at_once) = counted(&many_streams.join().unwrap());
    assert!(
        (1..=3).contains(&with_data) && at_once >= 9,
        "one HTTP/2 connection: {with_data} with data, {at_once} at once"
    );
    let pages: Vec<_> = many_connections
        .into_iter()
        .map(|page| page.join().unwrap())
        .collect();
    let (with_data, at_once) = counted(&pages);
    assert!(
        (1..=15).contains(&with_data) && at_once >= 15,
        "30 HTTP/1.1 connections of one address: {with_data} with data, {at_once} at once"
    );
}

#[test]
fn a_page_that_waits_for_nothing_is_served_with_the_budget_full() {
    let upstream = slow_upstream();
    let host = host(&upstream);
    assert_eq!(over_http1(&host, address(1)), Became::WithData);
    // Five addresses, each up to its quarter: the whole budget, and more asked.
    let holders: Vec<_> = (0..5u8)
        .flat_map(|n| (0..16).map(move |_| n))
        .map(|n| {
            let host = host.clone();
            std::thread::spawn(move || over_http1(&host, address(10 + n)))
        })
        .collect();
    // Eighty visitors to start and ask: on a loaded machine that takes a while.
    let filling = Instant::now();
    let mut held = support::metric(&host, "bilingue_loading_bytes");
    while held <= 0.9 * 1024.0 * 1024.0 && filling.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
        held = support::metric(&host, "bilingue_loading_bytes");
    }
    assert!(
        held > 0.9 * 1024.0 * 1024.0,
        "the budget is not full: {held}"
    );
    // A crawler's home page and a person's: no data, rendered, found.
    for agent in [GOOGLEBOT, "Mozilla/5.0 Firefox/128.0"] {
        for protocol in ["HTTP/1.1", "HTTP/2"] {
            let headers = [("user-agent", agent)];
            let answer = match protocol {
                "HTTP/1.1" => {
                    support::asking::h1(&host, &axum::http::Method::GET, b"/fr/", &headers)
                }
                _ => support::asking::h2(&host, &axum::http::Method::GET, "/en/", &headers),
            };
            let html = String::from_utf8_lossy(&answer.body);
            assert_eq!(answer.status, 200, "{protocol} {agent}: {html:.500}");
            assert!(!support::is_client_rendered(&html), "{protocol} {agent}");
        }
        let not_found = support::asking::h1(
            &host,
            &axum::http::Method::GET,
            b"/fr/nope",
            &[("user-agent", agent)],
        );
        assert_eq!(not_found.status, 404);
        assert!(!support::is_client_rendered(&String::from_utf8_lossy(
            &not_found.body
        )));
    }
    // A page that waits, from an address with nothing held: the budget is full.
    assert_eq!(over_http1(&host, address(30)), Became::AtOnce);
    let crawled = support::asking::h1(
        &host,
        &axum::http::Method::GET,
        support::app_page("fr", "status", &[]).as_bytes(),
        &[("user-agent", GOOGLEBOT)],
    );
    assert_eq!(
        crawled.status, 503,
        "a crawler's page that waits is asked again later"
    );
    assert!(support::asking::header(&crawled, "retry-after").is_some());
    let pages: Vec<_> = holders
        .into_iter()
        .map(|page| page.join().unwrap())
        .collect();
    assert!(counted(&pages).0 >= 50, "{:?}", counted(&pages));
}
