//! Which protocol a new connection speaks, told from its first bytes without taking them:
//! HTTP/2 with prior knowledge starts with the preface, anything else is HTTP/1. The
//! bytes are only peeked at, so hyper then reads the socket itself, from its first byte.
//! (hyper-util's own detection reads the first bytes and hands them back to hyper, which
//! then grows its read buffer for the rest of the head: 16 KiB per HTTP/1 connection, for
//! as long as it lives, where 8 KiB are enough.)

use std::io;
use std::time::Duration;

use tokio::net::TcpStream;

/// What every HTTP/2 connection with prior knowledge begins with (RFC 9113, 3.4).
const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// How long to wait before looking again when the bytes so far begin the preface but do
/// not finish it (a client that sends its first bytes in pieces): at first, and at most.
/// The wait doubles each time, so a client that stops there, on purpose or not, costs a
/// dozen looks before the head time-out, not one every few milliseconds.
const FIRST_WAIT: Duration = Duration::from_millis(5);
const LONGEST_WAIT: Duration = Duration::from_millis(640);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Http1,
    Http2,
}

/// The protocol `stream` speaks, once its first bytes tell: the whole preface, or a byte
/// that differs from it (or none: a client that closed at once is HTTP/1's to see out).
/// The caller bounds the wait: a client may send nothing, or a part of the preface only.
pub async fn spoken(stream: &TcpStream) -> io::Result<Protocol> {
    let mut first = [0u8; PREFACE.len()];
    let mut wait = FIRST_WAIT;
    loop {
        let seen = stream.peek(&mut first).await?;
        if seen == 0 || first[..seen] != PREFACE[..seen] {
            return Ok(Protocol::Http1);
        }
        if seen == PREFACE.len() {
            return Ok(Protocol::Http2);
        }
        // Peeking again at once would find the same bytes: the socket is readable already.
        tokio::time::sleep(wait).await;
        wait = longer(wait);
    }
}

/// The wait after `wait`.
fn longer(wait: Duration) -> Duration {
    (wait * 2).min(LONGEST_WAIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    /// The protocol the server side tells from what the client sends, in these pieces; and
    /// that every byte is still there to read afterwards.
    async fn told(pieces: &[&[u8]]) -> Protocol {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        let (mut server, _) = listener.accept().await.unwrap();
        let pieces: Vec<Vec<u8>> = pieces.iter().map(|p| p.to_vec()).collect();
        let all: Vec<u8> = pieces.concat();
        // The client closes once it has sent its pieces.
        let sending = tokio::spawn(async move {
            for piece in pieces {
                client.write_all(&piece).await.unwrap();
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
        let protocol = spoken(&server).await.unwrap();
        sending.await.unwrap();
        let mut read = Vec::new();
        server.read_to_end(&mut read).await.unwrap();
        assert_eq!(read, all, "peeking took nothing");
        protocol
    }

    #[tokio::test]
    async fn the_preface_is_http2_even_in_pieces() {
        assert_eq!(told(&[PREFACE]).await, Protocol::Http2);
        assert_eq!(
            told(&[b"P", b"RI * HTTP/2", b".0\r\n\r\nSM\r\n\r\n"]).await,
            Protocol::Http2
        );
    }

    #[tokio::test]
    async fn anything_else_is_http1() {
        assert_eq!(told(&[b"GET / HTTP/1.1\r\n\r\n"]).await, Protocol::Http1);
        assert_eq!(
            told(&[b"P", b"OST / HTTP/1.1\r\n\r\n"]).await,
            Protocol::Http1
        );
        assert_eq!(told(&[b"PRI * HTTP/1.1\r\n\r\n"]).await, Protocol::Http1);
        assert_eq!(told(&[]).await, Protocol::Http1, "closed at once");
    }

    #[tokio::test]
    async fn the_start_of_the_preface_alone_tells_nothing_yet() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        let (server, _) = listener.accept().await.unwrap();
        client.write_all(b"PRI * HTTP").await.unwrap();
        let waited = tokio::time::timeout(Duration::from_millis(200), spoken(&server)).await;
        assert!(
            waited.is_err(),
            "decided on a part of the preface: {waited:?}"
        );
    }

    #[test]
    fn a_client_stopped_inside_the_preface_is_looked_at_a_few_times_only() {
        let mut looks = 0;
        let mut waited = Duration::ZERO;
        let mut wait = FIRST_WAIT;
        while waited < crate::server::HEADER_READ_TIMEOUT {
            looks += 1;
            waited += wait;
            wait = longer(wait);
        }
        assert!(looks <= 25, "{looks} looks before the head time-out");
    }
}
