//! Which protocol a new connection speaks, told from its first bytes: HTTP/2 with prior
//! knowledge starts with the preface, anything else is HTTP/1. The bytes are peeked at,
//! not taken, so hyper then reads the socket itself from its first byte. (hyper-util's
//! own detection reads the first bytes and hands them back to hyper, which then grows its
//! read buffer for the rest of the head: 16 KiB per HTTP/1 connection, for as long as it
//! lives, where 8 KiB are enough.)
//!
//! Only when the first bytes begin the preface without finishing it (a client that sends
//! them in pieces) are they read from there on, so that what comes next, or the client's
//! leaving, wakes the host: peeking again would see the same bytes at once, and never the
//! end behind them. The bytes read that way go to hyper first (`Spoken::taken`).

use std::io;

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// What every HTTP/2 connection with prior knowledge begins with (RFC 9113, 3.4).
const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Http1,
    Http2,
}

/// What a connection's first bytes told.
#[derive(Debug)]
pub struct Spoken {
    pub protocol: Protocol,
    /// The bytes already read from the socket (none, unless they came in pieces), which
    /// come before the rest.
    pub taken: Vec<u8>,
}

/// The protocol `stream` speaks, once its first bytes tell: the whole preface, or a byte
/// that differs from it, or the client's leaving (HTTP/1's to see out). The caller bounds
/// the wait: a client may send nothing, or a part of the preface only.
pub async fn spoken(stream: &mut TcpStream) -> io::Result<Spoken> {
    let mut first = [0u8; PREFACE.len()];
    let seen = stream.peek(&mut first).await?;
    if let Some(protocol) = told(&first[..seen]) {
        return Ok(Spoken {
            protocol,
            taken: Vec::new(),
        });
    }
    let mut taken = Vec::with_capacity(PREFACE.len());
    loop {
        // Never past the preface: what follows it is hyper's to read.
        let wanted = PREFACE.len() - taken.len();
        let read = stream.read(&mut first[..wanted]).await?;
        if read == 0 {
            return Ok(Spoken {
                protocol: Protocol::Http1,
                taken,
            });
        }
        taken.extend_from_slice(&first[..read]);
        if let Some(protocol) = told(&taken) {
            return Ok(Spoken { protocol, taken });
        }
    }
}

/// The protocol these first bytes tell, if they tell it yet (none: the client left).
fn told(first: &[u8]) -> Option<Protocol> {
    if first.is_empty() || first != &PREFACE[..first.len()] {
        Some(Protocol::Http1)
    } else if first.len() == PREFACE.len() {
        Some(Protocol::Http2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use tokio::io::AsyncWriteExt;
    use tokio::net::TcpListener;

    /// The client's socket and the server's, connected.
    async fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        let (server, _) = listener.accept().await.unwrap();
        (client, server)
    }

    /// The protocol the server side tells from what the client sends, in these pieces,
    /// before it closes; and that every byte is there for hyper, taken or still unread.
    async fn told_by(pieces: &[&[u8]]) -> Protocol {
        let (mut client, mut server) = pair().await;
        let pieces: Vec<Vec<u8>> = pieces.iter().map(|p| p.to_vec()).collect();
        let all: Vec<u8> = pieces.concat();
        let sending = tokio::spawn(async move {
            for piece in pieces {
                client.write_all(&piece).await.unwrap();
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
        let spoken = spoken(&mut server).await.unwrap();
        sending.await.unwrap();
        let mut rest = Vec::new();
        server.read_to_end(&mut rest).await.unwrap();
        assert_eq!([spoken.taken, rest].concat(), all, "nothing lost");
        spoken.protocol
    }

    #[tokio::test]
    async fn the_preface_is_http2_even_in_pieces() {
        assert_eq!(told_by(&[PREFACE]).await, Protocol::Http2);
        assert_eq!(
            told_by(&[b"P", b"RI * HTTP/2", b".0\r\n\r\nSM\r\n\r\n"]).await,
            Protocol::Http2
        );
        let mut with_frames = PREFACE.to_vec();
        with_frames.extend_from_slice(b"\0\0\0\x04\0\0\0\0\0");
        assert_eq!(
            told_by(&[b"PRI * ", &with_frames[6..]]).await,
            Protocol::Http2,
            "what follows the preface is left to hyper"
        );
    }

    #[tokio::test]
    async fn anything_else_is_http1() {
        assert_eq!(told_by(&[b"GET / HTTP/1.1\r\n\r\n"]).await, Protocol::Http1);
        assert_eq!(
            told_by(&[b"P", b"OST / HTTP/1.1\r\n\r\n"]).await,
            Protocol::Http1
        );
        assert_eq!(told_by(&[b"PRI * HTTP/1.1\r\n\r\n"]).await, Protocol::Http1);
        assert_eq!(told_by(&[]).await, Protocol::Http1, "closed at once");
    }

    #[tokio::test]
    async fn a_client_that_leaves_inside_the_preface_is_seen_to_leave() {
        let (mut client, mut server) = pair().await;
        client.write_all(b"PRI * HTTP").await.unwrap();
        let waited = tokio::time::timeout(Duration::from_millis(200), spoken(&mut server)).await;
        assert!(
            waited.is_err(),
            "decided on a part of the preface: {waited:?}"
        );
        drop(client);
        let spoken = tokio::time::timeout(Duration::from_secs(1), spoken(&mut server))
            .await
            .expect("told at once when the client leaves")
            .unwrap();
        assert_eq!(spoken.protocol, Protocol::Http1);
    }
}
