use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::*;
use axum::http::HeaderValue;

/// What a scripted upstream does after it read a request: answer with these bytes, then
/// keep the connection for the next request, close it, or say nothing more for a while.
enum Then {
    Keep,
    Close,
    Hang,
}

struct Upstream {
    client: Http1Client,
    /// The requests it read, in order, as bytes.
    requests: Arc<Mutex<Vec<String>>>,
    accepted: Arc<Mutex<usize>>,
}

/// An upstream that answers the nth request it reads (on any connection) with
/// `script[n]`.
async fn upstream(script: Vec<(&'static [u8], Then)>) -> Upstream {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let accepted = Arc::new(Mutex::new(0));
    let script = Arc::new(Mutex::new(VecDeque::from(script)));
    let (seen, count) = (requests.clone(), accepted.clone());
    tokio::spawn(async move {
        loop {
            let (mut stream, _) = listener.accept().await.unwrap();
            *count.lock().unwrap() += 1;
            let (seen, script) = (seen.clone(), script.clone());
            tokio::spawn(async move {
                loop {
                    let Some(request) = read_request(&mut stream).await else {
                        return;
                    };
                    seen.lock().unwrap().push(request);
                    let Some((bytes, then)) = script.lock().unwrap().pop_front() else {
                        return;
                    };
                    stream.write_all(bytes).await.unwrap();
                    match then {
                        Then::Keep => {}
                        Then::Close => return,
                        Then::Hang => {
                            tokio::time::sleep(Duration::from_secs(5)).await;
                            return;
                        }
                    }
                }
            });
        }
    });
    Upstream {
        client: Http1Client::new(url::Host::Ipv4([127, 0, 0, 1].into()), port),
        requests,
        accepted,
    }
}

/// A request's head and its body (by its Content-Length), or `None` at the end.
async fn read_request(stream: &mut TcpStream) -> Option<String> {
    let mut bytes = Vec::new();
    let mut byte = [0u8; 1];
    while !bytes.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).await.ok()? == 0 {
            return None;
        }
        bytes.push(byte[0]);
    }
    let head = String::from_utf8(bytes).unwrap();
    let length = head
        .lines()
        .find_map(|line| line.strip_prefix("content-length: "))
        .map_or(0, |n| n.parse().unwrap());
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).await.ok()?;
    Some(head + &String::from_utf8(body).unwrap())
}

const LIMITS: CallLimits = CallLimits {
    head_timeout: Duration::from_millis(500),
    idle_timeout: Duration::from_millis(300),
    max_body: 64,
};

async fn get(upstream: &Upstream) -> Result<Answer, Failure> {
    send(upstream, &Method::GET, HeaderMap::new(), "").await
}

async fn send(
    upstream: &Upstream,
    method: &Method,
    headers: HeaderMap,
    body: &'static str,
) -> Result<Answer, Failure> {
    let call = upstream
        .client
        .call(method, "/api/status?x=1", &headers, body.as_bytes());
    upstream.client.send(call, LIMITS).await
}

#[tokio::test]
async fn an_answer_with_a_length_is_read_and_its_connection_used_again() {
    let up = upstream(vec![
        (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 7\r\n\r\n{\"a\":1}", Then::Keep),
        (b"HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", Then::Keep),
    ])
    .await;
    let first = get(&up).await.unwrap();
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(&first.body[..], b"{\"a\":1}");
    assert_eq!(first.headers.get_all(header::SET_COOKIE).iter().count(), 2);
    let second = get(&up).await.unwrap();
    assert_eq!(
        (second.status, &second.body[..]),
        (StatusCode::CREATED, &b"ok"[..])
    );
    assert_eq!(*up.accepted.lock().unwrap(), 1, "one connection for both");
}

#[tokio::test]
async fn the_request_carries_its_host_its_headers_and_its_own_length() {
    let up = upstream(vec![(b"HTTP/1.1 204 No Content\r\n\r\n", Then::Keep)]).await;
    let mut headers = HeaderMap::new();
    headers.insert("x-trace", HeaderValue::from_static("abc"));
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from_static("999"));
    headers.insert(header::HOST, HeaderValue::from_static("evil.example"));
    let answer = send(&up, &Method::POST, headers, "{\"q\":1}")
        .await
        .unwrap();
    assert_eq!(answer.status, StatusCode::NO_CONTENT);
    let requests = up.requests.lock().unwrap();
    let port = requests[0].split("host: 127.0.0.1:").nth(1).unwrap();
    assert!(
        port.starts_with(|c: char| c.is_ascii_digit()),
        "{}",
        requests[0]
    );
    assert!(requests[0].starts_with("POST /api/status?x=1 HTTP/1.1\r\nhost: 127.0.0.1:"));
    assert!(requests[0].contains("\r\nx-trace: abc\r\n"));
    assert!(requests[0].ends_with("\r\ncontent-length: 7\r\n\r\n{\"q\":1}"));
    assert!(!requests[0].contains("999") && !requests[0].contains("evil"));
}

#[tokio::test]
async fn a_chunked_answer_is_joined_and_its_trailers_dropped() {
    let up = upstream(vec![
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n4;ext=1\r\nabcd\r\n3\r\nefg\r\n0\r\nX-Sum: 1\r\n\r\n", Then::Keep),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n", Then::Keep),
    ])
    .await;
    assert_eq!(&get(&up).await.unwrap().body[..], b"abcdefg");
    assert_eq!(&get(&up).await.unwrap().body[..], b"hi");
    assert_eq!(*up.accepted.lock().unwrap(), 1);
}

#[tokio::test]
async fn informational_heads_are_passed_over() {
    let up = upstream(vec![(
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx",
        Then::Keep,
    )])
    .await;
    let answer = get(&up).await.unwrap();
    assert_eq!(
        (answer.status, &answer.body[..]),
        (StatusCode::OK, &b"x"[..])
    );
    assert!(answer.headers.get(header::LINK).is_none());
}

#[tokio::test]
async fn an_answer_without_length_ends_with_its_connection() {
    let up = upstream(vec![
        (b"HTTP/1.1 200 OK\r\n\r\nuntil the end", Then::Close),
        (
            b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
            Then::Keep,
        ),
        (
            b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
            Then::Keep,
        ),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            Then::Keep,
        ),
    ])
    .await;
    assert_eq!(&get(&up).await.unwrap().body[..], b"until the end");
    // HTTP/1.0 and `Connection: close`: the connection is not used again either.
    assert_eq!(&get(&up).await.unwrap().body[..], b"ok");
    assert_eq!(&get(&up).await.unwrap().body[..], b"ok");
    assert_eq!(&get(&up).await.unwrap().body[..], b"ok");
    assert_eq!(*up.accepted.lock().unwrap(), 4);
}

#[tokio::test]
async fn a_kept_connection_the_upstream_closed_is_not_an_error() {
    let up = upstream(vec![
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na",
            Then::Close,
        ),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb", Then::Keep),
    ])
    .await;
    assert_eq!(&get(&up).await.unwrap().body[..], b"a");
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(&get(&up).await.unwrap().body[..], b"b");
    assert_eq!(*up.accepted.lock().unwrap(), 2);
}

#[tokio::test]
async fn a_connection_is_not_used_again_after_bytes_it_was_not_asked_for() {
    let up = upstream(vec![
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nforged", Then::Keep),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb", Then::Keep),
    ])
    .await;
    assert_eq!(&get(&up).await.unwrap().body[..], b"a");
    assert_eq!(&get(&up).await.unwrap().body[..], b"b");
    assert_eq!(*up.accepted.lock().unwrap(), 2);
}

#[tokio::test]
async fn a_head_answer_has_no_body_whatever_its_length() {
    let up = upstream(vec![
        (b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n", Then::Keep),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb", Then::Keep),
    ])
    .await;
    let head = send(&up, &Method::HEAD, HeaderMap::new(), "")
        .await
        .unwrap();
    assert!(head.body.is_empty());
    assert_eq!(&get(&up).await.unwrap().body[..], b"b");
    assert_eq!(*up.accepted.lock().unwrap(), 1);
}

#[tokio::test]
async fn a_malformed_head_is_refused() {
    for bytes in [
        &b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"[..],
        b"HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\nab",
        b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: +1\r\n\r\nx",
        b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: \xffchunked\r\n\r\n",
        b"HTTP/1.1 2000 OK\r\n\r\n",
        b"SSH-2.0-OpenSSH\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-",
    ] {
        let up = upstream(vec![(bytes, Then::Close)]).await;
        let failure = get(&up).await.unwrap_err();
        assert!(
            matches!(failure, Failure::Malformed(_)),
            "{failure:?} for {}",
            String::from_utf8_lossy(bytes)
        );
    }
    let mut huge = b"HTTP/1.1 200 OK\r\n".to_vec();
    while huge.len() <= MAX_HEAD {
        huge.extend_from_slice(b"X-Pad: 0123456789012345678901234567890123456789\r\n");
    }
    let up = upstream(vec![(huge.leak(), Then::Hang)]).await;
    assert!(matches!(get(&up).await, Err(Failure::Malformed(_))));
}

#[tokio::test]
async fn a_body_that_is_too_large_broken_or_stalled_fails_the_call() {
    for bytes in [
        &b"HTTP/1.1 200 OK\r\nContent-Length: 65\r\n\r\n"[..],
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n",
    ] {
        let up = upstream(vec![(bytes, Then::Close)]).await;
        let failure = get(&up).await.unwrap_err();
        assert!(matches!(failure, Failure::Body { .. }), "{failure:?}");
    }
    // A length over the limit is refused from the head, though the whole body is there.
    let mut whole = b"HTTP/1.1 200 OK\r\nContent-Length: 65\r\n\r\n".to_vec();
    whole.extend_from_slice(&[b'x'; 65]);
    let up = upstream(vec![(whole.leak(), Then::Keep)]).await;
    match get(&up).await {
        Err(Failure::Body { why, .. }) => assert!(why.contains("over 64"), "{why}"),
        other => panic!("{other:?}"),
    }
    let mut long = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for _ in 0..3 {
        long.extend_from_slice(b"20\r\n0123456789abcdef0123456789abcdef\r\n");
    }
    let up = upstream(vec![(long.leak(), Then::Keep)]).await;
    assert!(
        matches!(get(&up).await, Err(Failure::Body { .. })),
        "96 > 64"
    );
    let up = upstream(vec![(
        b"HTTP/1.1 200 OK\r\nSet-Cookie: s=1\r\nContent-Length: 10\r\n\r\nabc",
        Then::Hang,
    )])
    .await;
    let started = Instant::now();
    match get(&up).await {
        Err(Failure::Body {
            why,
            status,
            sets_cookie,
        }) => {
            assert!(why.contains("nothing came"), "{why}");
            assert_eq!(status, StatusCode::OK);
            assert!(sets_cookie);
        }
        other => panic!("{other:?}"),
    }
    // The idle time-out (300 ms) cut it, as `why` says; the bound leaves room for a busy
    // machine and still excludes the upstream's own 5 s.
    assert!(started.elapsed() < Duration::from_secs(3));
    let up = upstream(vec![(
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
        Then::Close,
    )])
    .await;
    assert!(matches!(get(&up).await, Err(Failure::Body { .. })));
}

#[tokio::test]
async fn a_head_that_does_not_come_in_time_or_at_all() {
    let up = upstream(vec![(b"HTTP/1.1 200 OK\r\n", Then::Hang)]).await;
    let started = Instant::now();
    assert!(matches!(get(&up).await, Err(Failure::TimedOut)));
    let took = started.elapsed();
    assert!(
        took >= LIMITS.head_timeout && took < Duration::from_secs(3),
        "{took:?}"
    );
    let up = upstream(vec![]).await;
    assert!(matches!(get(&up).await, Err(Failure::Unreachable(_))));
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let client = Http1Client::new(url::Host::Ipv4([127, 0, 0, 1].into()), closed);
    let call = client.call(&Method::GET, "/api", &HeaderMap::new(), b"");
    assert!(matches!(
        client.send(call, LIMITS).await,
        Err(Failure::Unreachable(_))
    ));
}

#[tokio::test]
async fn the_host_is_named_as_the_url_names_it_and_anything_is_accepted() {
    let client = Http1Client::new(url::Host::Domain("api.internal"), 80);
    let call = client.call(&Method::GET, "/api", &HeaderMap::new(), b"");
    let text = String::from_utf8(call.bytes).unwrap();
    assert_eq!(
        text,
        "GET /api HTTP/1.1\r\nhost: api.internal\r\naccept: */*\r\n\r\n"
    );
    let client = Http1Client::new(url::Host::Ipv6(std::net::Ipv6Addr::LOCALHOST), 8080);
    let mut headers = HeaderMap::new();
    headers.insert(header::ACCEPT, HeaderValue::from_static("application/json"));
    let call = client.call(&Method::DELETE, "/api/x", &headers, b"");
    let text = String::from_utf8(call.bytes).unwrap();
    assert_eq!(
        text,
        "DELETE /api/x HTTP/1.1\r\nhost: [::1]:8080\r\naccept: application/json\r\n\r\n"
    );
}

#[tokio::test]
async fn a_connection_is_not_kept_after_a_switch_of_protocol() {
    let up = upstream(vec![
        (
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n",
            Then::Keep,
        ),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb", Then::Keep),
    ])
    .await;
    assert_eq!(
        get(&up).await.unwrap().status,
        StatusCode::SWITCHING_PROTOCOLS
    );
    assert_eq!(&get(&up).await.unwrap().body[..], b"b");
    assert_eq!(*up.accepted.lock().unwrap(), 2);
}

#[tokio::test]
async fn a_call_not_to_be_sent_twice_takes_only_a_connection_just_used() {
    let ok = &b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"[..];
    let up = upstream(vec![(ok, Then::Keep), (ok, Then::Keep), (ok, Then::Keep)]).await;
    get(&up).await.unwrap();
    send(&up, &Method::POST, HeaderMap::new(), "{}")
        .await
        .unwrap();
    assert_eq!(
        *up.accepted.lock().unwrap(),
        1,
        "a POST on the connection just used"
    );
    tokio::time::sleep(JUST_USED + Duration::from_millis(100)).await;
    send(&up, &Method::POST, HeaderMap::new(), "{}")
        .await
        .unwrap();
    assert_eq!(
        *up.accepted.lock().unwrap(),
        2,
        "not on one idle for longer"
    );
}

/// An upstream that writes `bytes` on its first connection once it has read a request.
async fn writes(bytes: Vec<u8>) -> Http1Client {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let (mut stream, _) = listener.accept().await.unwrap();
        read_request(&mut stream).await;
        stream.write_all(&bytes).await.unwrap();
        tokio::time::sleep(Duration::from_secs(60)).await;
    });
    Http1Client::new(url::Host::Ipv4([127, 0, 0, 1].into()), port)
}

/// Many small parts after a large one: each part taken must not cost a copy of all that
/// follows it (20 s for these 9 MB when it did).
#[tokio::test]
async fn small_chunks_after_a_large_one_cost_no_more_than_their_bytes() {
    let mut bytes = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    let large = 3 << 20;
    bytes.extend_from_slice(format!("{large:x}\r\n").as_bytes());
    bytes.extend(std::iter::repeat_n(b'a', large));
    bytes.extend_from_slice(b"\r\n");
    for _ in 0..1_000_000 {
        bytes.extend_from_slice(b"1\r\nb\r\n");
    }
    bytes.extend_from_slice(b"0\r\n\r\n");
    let client = writes(bytes).await;
    let call = client.call(&Method::GET, "/api/x", &HeaderMap::new(), b"");
    let limits = CallLimits {
        max_body: 4 << 20,
        head_timeout: Duration::from_secs(30),
        idle_timeout: Duration::from_secs(30),
    };
    let started = Instant::now();
    let answer = client.send(call, limits).await.unwrap();
    assert_eq!(answer.body.len(), large + 1_000_000);
    let took = started.elapsed();
    // 1.1 s here, 15 s with a copy of what follows each chunk; the bound leaves room for a
    // busy machine.
    assert!(took < Duration::from_secs(8), "{took:?}");
}

/// A crowd's calls end together; the next crowd's take their connections again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowds_connections_are_kept_for_the_next_crowd() {
    let ok = &b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"[..];
    let up = upstream((0..400).map(|_| (ok, Then::Keep)).collect()).await;
    // What it checks is which connections are used, not how soon: the machine may be busy.
    let patient = CallLimits {
        head_timeout: Duration::from_secs(30),
        ..LIMITS
    };
    let call = |_| {
        let call = up
            .client
            .call(&Method::GET, "/api/x", &HeaderMap::new(), b"");
        up.client.send(call, patient)
    };
    for _ in 0..2 {
        let crowd = (0..200).map(call);
        for answer in futures_util::future::join_all(crowd).await {
            assert_eq!(&answer.unwrap().body[..], b"ok");
        }
    }
    // A call of the first crowd may end before the last one starts, and lend it its
    // connection: the first crowd opens up to 200. The second opens only what the first
    // did not leave it, so never more than 200 in all (400 if nothing were kept).
    let accepted = *up.accepted.lock().unwrap();
    assert!(
        accepted <= 200,
        "{accepted} connections for two crowds of 200"
    );
}

/// The head's and the trailers' bounds: at most `MAX_HEADERS` fields, and no part of what
/// frames the body (a chunk's size line, the trailers) longer than `MAX_HEAD`.
#[tokio::test]
async fn fields_size_lines_and_trailers_are_bounded() {
    let mut many = b"HTTP/1.1 200 OK\r\n".to_vec();
    for n in 0..=MAX_HEADERS {
        many.extend_from_slice(format!("X-F{n}: 1\r\n").as_bytes());
    }
    many.extend_from_slice(b"Content-Length: 0\r\n\r\n");
    let client = writes(many).await;
    let call = client.call(&Method::GET, "/api/x", &HeaderMap::new(), b"");
    assert!(matches!(
        client.send(call, LIMITS).await,
        Err(Failure::Malformed("its head has too many fields"))
    ));
    let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    let endless = |after: &[u8], filler: &[u8]| {
        let mut bytes = chunked.to_vec();
        bytes.extend_from_slice(after);
        while bytes.len() < 2 * MAX_HEAD {
            bytes.extend_from_slice(filler);
        }
        bytes
    };
    let patient = CallLimits {
        idle_timeout: Duration::from_secs(30),
        head_timeout: Duration::from_secs(30),
        ..LIMITS
    };
    for (bytes, why) in [
        (
            endless(b"1;", b"ext=aaaaaaaa;"),
            "a chunk's size line is too long",
        ),
        (
            endless(b"0\r\n", b"X-Trailer: aaaaaaaa\r\n"),
            "its trailers are too long",
        ),
    ] {
        let client = writes(bytes).await;
        let call = client.call(&Method::GET, "/api/x", &HeaderMap::new(), b"");
        match client.send(call, patient).await {
            Err(Failure::Body { why: said, .. }) => assert_eq!(said, why),
            other => panic!("{other:?}"),
        }
    }
}

/// A kept connection the upstream closes on reading the next request, unanswered: a GET
/// is sent once more on a new connection, a POST is not (it may have been acted on).
#[tokio::test]
async fn a_call_the_upstream_dropped_unanswered_is_sent_again_only_if_it_may_be() {
    let ok = &b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na"[..];
    for (method, connections, requests) in [(Method::POST, 1, 2), (Method::GET, 2, 3)] {
        // One answer, then each request read is dropped unanswered.
        let up = upstream(vec![(ok, Then::Keep)]).await;
        assert_eq!(&get(&up).await.unwrap().body[..], b"a");
        let failure = send(&up, &method, HeaderMap::new(), "{}")
            .await
            .unwrap_err();
        assert!(matches!(failure, Failure::Unreachable(_)), "{failure:?}");
        assert_eq!(*up.accepted.lock().unwrap(), connections, "{method}");
        assert_eq!(up.requests.lock().unwrap().len(), requests, "{method}");
    }
}

/// A head that never ends is refused once it passes `MAX_HEAD`, not read until the
/// head's time-out.
#[tokio::test]
async fn a_head_longer_than_the_host_reads_is_refused() {
    let mut endless = b"HTTP/1.1 200 OK\r\nX-Long: ".to_vec();
    endless.resize(MAX_HEAD + 1024, b'a');
    let client = writes(endless).await;
    let call = client.call(&Method::GET, "/api/x", &HeaderMap::new(), b"");
    let patient = CallLimits {
        head_timeout: Duration::from_secs(30),
        ..LIMITS
    };
    assert!(matches!(
        client.send(call, patient).await,
        Err(Failure::Malformed("its head is larger than the host reads"))
    ));
}

/// An answer framed by chunks that also names a length is read by its chunks, and its
/// connection is not trusted with another call.
#[tokio::test]
async fn a_chunked_answer_that_names_a_length_ends_its_connection() {
    let up = upstream(vec![
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n",
            Then::Keep,
        ),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nb", Then::Keep),
    ])
    .await;
    assert_eq!(&get(&up).await.unwrap().body[..], b"hi");
    assert_eq!(&get(&up).await.unwrap().body[..], b"b");
    assert_eq!(*up.accepted.lock().unwrap(), 2);
}

impl Http1Client {
    /// A client that keeps at most `most` connections, for `for_` each.
    fn keeping(mut self, most: usize, for_: Duration) -> Self {
        self.kept = PoolLimits { most, for_ };
        self
    }
}

async fn get_from(client: &Http1Client) -> Result<Answer, Failure> {
    let call = client.call(&Method::GET, "/api/x", &HeaderMap::new(), b"");
    client.send(call, LIMITS).await
}

/// At most `most` connections are kept: of a crowd of three, two are left to the next.
#[tokio::test]
async fn no_more_connections_are_kept_than_the_most() {
    let ok = &b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"[..];
    let Upstream {
        client, accepted, ..
    } = upstream((0..6).map(|_| (ok, Then::Keep)).collect()).await;
    let client = client.keeping(2, IDLE_KEPT);
    for (crowd, opened) in [(1, 3), (2, 4)] {
        // The three calls are all under way before any answer is read.
        let calls = (0..3).map(|_| get_from(&client));
        for answer in futures_util::future::join_all(calls).await {
            assert_eq!(&answer.unwrap().body[..], b"ok");
        }
        assert_eq!(*accepted.lock().unwrap(), opened, "crowd {crowd}");
        assert_eq!(client.idle.lock().unwrap().len(), 2, "crowd {crowd}");
    }
}

/// A connection kept longer than `for_` is closed, not used: the next call opens another.
#[tokio::test]
async fn a_connection_kept_too_long_is_not_used_again() {
    let ok = &b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"[..];
    let Upstream {
        client, accepted, ..
    } = upstream(vec![(ok, Then::Keep), (ok, Then::Keep)]).await;
    let client = client.keeping(MAX_IDLE, Duration::from_millis(100));
    assert_eq!(&get_from(&client).await.unwrap().body[..], b"ok");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(&get_from(&client).await.unwrap().body[..], b"ok");
    assert_eq!(*accepted.lock().unwrap(), 2);
    assert_eq!(
        client.idle.lock().unwrap().len(),
        1,
        "the old one was closed"
    );
}

/// The oldest kept connections, past `for_`, are closed when another is put back, though
/// a newer one kept them from being looked at.
#[tokio::test]
async fn old_connections_behind_a_newer_one_are_closed() {
    let ok = &b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"[..];
    let Upstream {
        client, accepted, ..
    } = upstream((0..4).map(|_| (ok, Then::Keep)).collect()).await;
    let client = client.keeping(MAX_IDLE, Duration::from_millis(400));
    let both = futures_util::future::join(get_from(&client), get_from(&client)).await;
    assert!(both.0.is_ok() && both.1.is_ok());
    // One of the two is used again: it is newer than the other.
    tokio::time::sleep(Duration::from_millis(250)).await;
    get_from(&client).await.unwrap();
    // The other is now past 400 ms, the newer one not.
    tokio::time::sleep(Duration::from_millis(250)).await;
    get_from(&client).await.unwrap();
    assert_eq!(*accepted.lock().unwrap(), 2);
    assert_eq!(
        client.idle.lock().unwrap().len(),
        1,
        "the older one was closed"
    );
}
