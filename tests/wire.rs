//! What a client may send, and how long it may hold a connection, over HTTP/1.1 and
//! HTTP/2: every limit answers with the host's own security headers, and a connection that
//! is idle, half-sent or never read is let go.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::support::binary::Host;
use crate::support::{self, block_on, h2_connect, h2_get, raw_exchange};

fn address() -> String {
    support::base_url()
        .trim_start_matches("http://")
        .to_string()
}

/// The status line and the lower-cased head of a raw HTTP/1 answer.
fn head_of(answer: &str) -> (String, String) {
    let head = answer.split("\r\n\r\n").next().unwrap_or_default();
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, head.to_ascii_lowercase())
}

fn assert_security_headers(head: &str, what: &str) {
    for line in [
        "x-content-type-options: nosniff",
        "referrer-policy: strict-origin-when-cross-origin",
        "x-frame-options: deny",
    ] {
        assert!(head.contains(line), "{what}: no `{line}` in\n{head}");
    }
    assert!(
        head.contains("content-security-policy: default-src 'self'"),
        "{what}: no policy in\n{head}"
    );
}

#[test]
fn a_malformed_request_gets_400_with_the_security_headers() {
    for request in [
        &b"GARBAGE\r\n\r\n"[..],
        b"GET /fr/ HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n",
        b"GET /fr/ HTTP/1.1\r\nhost: x\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n",
    ] {
        let (status, head) = head_of(&raw_exchange(&address(), request));
        assert!(status.starts_with("HTTP/1.1 400 "), "{status}");
        assert_security_headers(&head, &String::from_utf8_lossy(request));
    }
}

#[test]
fn an_oversized_head_gets_431_with_the_security_headers_over_http1() {
    let many: String = (0..=bilingue::server::MAX_HEADERS)
        .map(|i| format!("x-h{i}: v\r\n"))
        .collect();
    let big = format!(
        "x-big: {}\r\n",
        "a".repeat(bilingue::server::MAX_HEAD_BYTES)
    );
    for fields in [many, big] {
        let request = format!("GET /fr/ HTTP/1.1\r\nhost: x\r\n{fields}\r\n");
        let (status, head) = head_of(&raw_exchange(&address(), request.as_bytes()));
        assert!(status.starts_with("HTTP/1.1 431 "), "{status}");
        assert_security_headers(&head, "431");
    }
}

#[test]
fn an_oversized_target_gets_414_with_the_security_headers() {
    let request = format!(
        "GET /fr/{} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
        "a".repeat(5000)
    );
    let (status, head) = head_of(&raw_exchange(&address(), request.as_bytes()));
    assert!(status.starts_with("HTTP/1.1 414 "), "{status}");
    assert_security_headers(&head, "414");
}

#[test]
fn an_http11_request_needs_exactly_one_valid_host() {
    let status_of = |request: &str| head_of(&raw_exchange(&address(), request.as_bytes()));
    for request in [
        "GET /fr/ HTTP/1.1\r\nconnection: close\r\n\r\n",
        "GET /fr/ HTTP/1.1\r\nhost: a\r\nhost: b\r\nconnection: close\r\n\r\n",
        "GET /fr/ HTTP/1.1\r\nhost: a b\r\nconnection: close\r\n\r\n",
        "GET /fr/ HTTP/1.1\r\nhost: a/b\r\nconnection: close\r\n\r\n",
        "GET /fr/ HTTP/1.0\r\nhost: a\r\nhost: a\r\n\r\n",
    ] {
        let (status, head) = status_of(request);
        assert!(status.contains(" 400 "), "{request:?}: {status}");
        assert_security_headers(&head, request);
    }
    for request in [
        "GET /fr/ HTTP/1.1\r\nhost: example.org:8080\r\nconnection: close\r\n\r\n",
        "GET /fr/ HTTP/1.1\r\nhost: [::1]:3000\r\nconnection: close\r\n\r\n",
        "GET /fr/ HTTP/1.0\r\n\r\n",
    ] {
        let (status, _) = status_of(request);
        assert!(status.contains(" 200 "), "{request:?}: {status}");
    }
}

#[test]
fn http2_holds_the_same_field_and_size_limits_as_http1() {
    let url = format!("{}/fr/", support::base_url());
    block_on(async {
        let mut client = h2_connect(&address()).await;
        let few: Vec<(String, String)> = (0..50).map(|i| (format!("x-h{i}"), "v".into())).collect();
        let (ok, _) = h2_get(&mut client, &url, &few).await;
        assert_eq!(ok.status, 200);
        let many: Vec<(String, String)> =
            (0..300).map(|i| (format!("x-h{i}"), "v".into())).collect();
        let big = vec![("x-big".to_string(), "a".repeat(17_000))];
        for (what, headers) in [("300 fields", many), ("a 17 kB field", big)] {
            let (refused, _) = h2_get(&mut client, &url, &headers).await;
            assert_eq!(refused.status, 431, "{what}");
            let h = &refused.headers;
            assert_eq!(h["x-content-type-options"], "nosniff", "{what}");
            assert!(
                h["content-security-policy"]
                    .to_str()
                    .unwrap()
                    .contains("frame-ancestors 'none'"),
                "{what}"
            );
        }
        let (target, _) = h2_get(&mut client, &format!("{url}{}", "a".repeat(5000)), &[]).await;
        assert_eq!(target.status, 414);
        assert_eq!(target.headers["x-content-type-options"], "nosniff");
    });
}

/// Reads until the server closes the connection; how long that took.
fn time_to_close(mut stream: TcpStream, limit: Duration) -> Duration {
    let started = Instant::now();
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut sink = [0u8; 4096];
    loop {
        match stream.read(&mut sink) {
            Ok(0) => return started.elapsed(),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return started.elapsed(),
            Err(e) => panic!("still open after {:?}: {e}", started.elapsed()),
        }
    }
}

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
/// An empty SETTINGS frame.
const SETTINGS: [u8; 9] = [0, 0, 0, 4, 0, 0, 0, 0, 0];

fn assert_closed_after_the_head_time_out(stream: TcpStream, what: &str) {
    let limit = bilingue::server::HEADER_READ_TIMEOUT;
    let waited = time_to_close(stream, limit * 3);
    assert!(
        waited >= limit - Duration::from_millis(500) && waited < limit + Duration::from_secs(3),
        "{what}: closed after {waited:?}"
    );
}

#[test]
fn an_idle_http2_connection_is_closed_after_the_head_time_out() {
    let mut stream = TcpStream::connect(address()).unwrap();
    stream.write_all(PREFACE).unwrap();
    stream.write_all(&SETTINGS).unwrap();
    assert_closed_after_the_head_time_out(stream, "idle after the preface");
}

#[test]
fn an_unfinished_http2_header_block_is_closed_after_the_head_time_out() {
    let mut stream = TcpStream::connect(address()).unwrap();
    stream.write_all(PREFACE).unwrap();
    stream.write_all(&SETTINGS).unwrap();
    // HEADERS on stream 1 without END_HEADERS (:method GET, :scheme http, :path /), and
    // no CONTINUATION after it.
    stream
        .write_all(&[0, 0, 3, 1, 0, 0, 0, 0, 1, 0x82, 0x86, 0x84])
        .unwrap();
    assert_closed_after_the_head_time_out(stream, "a header block never finished");
}

/// The entry script's URL, from the French home page.
fn entry_script(base: &str) -> String {
    let html = support::text(format!("{base}/fr/"));
    support::module_scripts(&html).remove(0)
}

#[test]
fn a_client_that_pipelines_and_never_reads_is_let_go_after_the_send_time_out() {
    let host = Host::start_with(&[], &[("BILINGUE_SEND_TIMEOUT", "2s")]);
    let script = entry_script(&host.base);
    // The connection that asked for the script may still be counted as it closes: the
    // stalled one must be the only one.
    let asked = Instant::now();
    while host.metric("bilingue_open_connections") > 0.0 {
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "the first connection stays"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut stream = TcpStream::connect(host.address()).unwrap();
    let request = format!("GET {script} HTTP/1.1\r\nhost: x\r\n\r\n").repeat(300);
    stream.write_all(request.as_bytes()).unwrap();
    let started = Instant::now();
    // The metrics have a listener of their own: the stalled connection is the only one,
    // once the host has taken it, until it is let go.
    while host.metric("bilingue_open_connections") < 1.0 {
        assert!(started.elapsed() < Duration::from_secs(2), "never accepted");
        std::thread::sleep(Duration::from_millis(10));
    }
    while host.metric("bilingue_open_connections") > 0.0 {
        assert!(
            started.elapsed() < Duration::from_secs(8),
            "the stalled connection is still open after {:?}",
            started.elapsed()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        started.elapsed() >= Duration::from_millis(1500),
        "let go at the time-out, not before: {:?}",
        started.elapsed()
    );
    drop(stream);
}

/// The kernel's queue of connections not yet accepted (`ss`'s Send-Q of a listener).
fn accept_queue(address: &str) -> u32 {
    let port = address.rsplit(':').next().unwrap();
    crate::support::machine::require(&["iproute2"]);
    let out = std::process::Command::new("ss")
        .args(["-Hltn", &format!("sport = :{port}")])
        .output()
        .unwrap_or_else(|e| panic!("cannot run ss ({e}): apt-get install -y iproute2"));
    let line = String::from_utf8(out.stdout).unwrap();
    line.split_whitespace().nth(2).unwrap().parse().unwrap()
}

#[test]
fn a_burst_of_connections_as_large_as_the_cap_waits_in_the_kernels_queue() {
    // 3,000 visitors at once overflowed the default queue of 1,024: the rest were dropped
    // and came back a second later.
    let somaxconn: u32 = std::fs::read_to_string("/proc/sys/net/core/somaxconn")
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let host = Host::started(&["--max-connections", "3000"]);
    assert_eq!(accept_queue(&host.address()), 3000.min(somaxconn).max(1024));
    let small = Host::started(&["--max-connections", "3"]);
    assert_eq!(
        accept_queue(&small.address()),
        1024,
        "never below the default"
    );
}

#[test]
fn connections_past_the_cap_wait_to_be_accepted() {
    let host = Host::started(&["--max-connections", "3"]);
    // Three silent connections take every place.
    let mut silent: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(host.address()).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let mut waiting = TcpStream::connect(host.address()).unwrap();
    waiting
        .write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        .unwrap();
    waiting
        .set_read_timeout(Some(Duration::from_millis(800)))
        .unwrap();
    let mut answer = Vec::new();
    assert!(
        waiting.read_to_end(&mut answer).is_err() && answer.is_empty(),
        "not answered while the cap is reached"
    );
    silent.pop();
    waiting
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    waiting.read_to_end(&mut answer).unwrap();
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200 "),
        "answered once a place freed"
    );
}

#[test]
fn a_client_that_reads_slowly_but_steadily_gets_the_whole_answer() {
    let script = entry_script(support::base_url());
    let url = format!("{}{script}", support::base_url());
    let size = support::get(&script).bytes().unwrap().len();
    let started = Instant::now();
    let received = block_on(async {
        let tcp = tokio::net::TcpStream::connect(address()).await.unwrap();
        // A small window, opened bit by bit: the answer takes longer than the head
        // time-out to cross, and never stops moving.
        let (client, connection) = h2::client::Builder::new()
            .initial_window_size(16 * 1024)
            .initial_connection_window_size(16 * 1024)
            .handshake::<_, bytes::Bytes>(tcp)
            .await
            .unwrap();
        tokio::spawn(async move {
            let _ = connection.await;
        });
        let mut client = client.ready().await.unwrap();
        let (answer, _) = client
            .send_request(axum::http::Request::get(&url).body(()).unwrap(), true)
            .unwrap();
        let mut body = answer.await.unwrap().into_body();
        let mut received = 0;
        while let Some(chunk) = body.data().await {
            let chunk = chunk.expect("the answer is not cut");
            received += chunk.len();
            tokio::time::sleep(Duration::from_millis(700)).await;
            let _ = body.flow_control().release_capacity(chunk.len());
        }
        received
    });
    assert_eq!(received, size);
    assert!(
        started.elapsed() > bilingue::server::HEADER_READ_TIMEOUT + Duration::from_secs(1),
        "slower than the head time-out: {:?}",
        started.elapsed()
    );
}

#[test]
fn a_longer_head_on_a_reused_connection_is_still_431() {
    let big = format!(
        "x-big: {}\r\n",
        "a".repeat(bilingue::server::MAX_HEAD_BYTES + 2000)
    );
    let request = format!(
        "GET /healthz HTTP/1.1\r\nhost: x\r\n\r\nGET /healthz HTTP/1.1\r\nhost: x\r\n{big}connection: close\r\n\r\n"
    );
    let answer = raw_exchange(&address(), request.as_bytes());
    let second = answer.split("HTTP/1.1 ").nth(2).unwrap_or_default();
    assert!(second.starts_with("431 "), "{answer:.300}");
}

#[test]
fn targets_that_are_not_paths_and_odd_framings_are_refused() {
    for (request, status) in [
        (
            "GET * HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
            " 400 ",
        ),
        (
            "OPTIONS * HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
            " 400 ",
        ),
        (
            "POST /fr/ HTTP/1.1\r\nhost: x\r\ntransfer-encoding: gzip, chunked\r\nconnection: close\r\n\r\n0\r\n\r\n",
            " 501 ",
        ),
        (
            "CONNECT /api/x HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
            " 405 ",
        ),
        (
            "GET http://u@x/fr/ HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
            " 400 ",
        ),
    ] {
        let (line, head) = head_of(&raw_exchange(&address(), request.as_bytes()));
        assert!(line.contains(status), "{request:?}: {line}");
        assert_security_headers(&head, request);
    }
}

#[test]
fn http2_authority_and_host_must_agree_and_name_no_user() {
    let base = support::base_url();
    block_on(async {
        let mut client = h2_connect(&address()).await;
        let authority = base.trim_start_matches("http://");
        let (agreeing, _) = h2_get(
            &mut client,
            &format!("{base}/fr/"),
            &[("host".to_string(), authority.to_string())],
        )
        .await;
        assert_eq!(agreeing.status, 200);
        let (disagreeing, _) = h2_get(
            &mut client,
            &format!("{base}/fr/"),
            &[("host".to_string(), "evil.example".to_string())],
        )
        .await;
        assert_eq!(disagreeing.status, 400);
        let (user, _) = h2_get(&mut client, &format!("http://u@{authority}/fr/"), &[]).await;
        assert_eq!(user.status, 400);
    });
}
