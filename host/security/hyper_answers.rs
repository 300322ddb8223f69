//! hyper answers an HTTP/1 head it cannot read (400, 431) by itself, before any service sees
//! a request, and with no way to add a header: those answers are recognised as they are
//! written to the socket and given the security headers every answer of the host carries.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// What the writer must know of its connection: while a service's own answer is being sent
/// (or the connection speaks HTTP/2, whose refusals are frames), nothing is rewritten.
pub trait ServiceAnswers: Send + Sync {
    fn service_answers(&self) -> bool;
}

/// A connection's socket whose hyper-written refusals get the security headers.
pub struct WithHeadersOnRefusals<IO, C> {
    io: IO,
    connection: Arc<C>,
    /// A rewritten answer still to send, and how much of it is sent.
    rewritten: Vec<u8>,
    sent: usize,
}

impl<IO: AsyncWrite + Unpin, C: ServiceAnswers> WithHeadersOnRefusals<IO, C> {
    pub fn new(io: IO, connection: Arc<C>) -> Self {
        Self {
            io,
            connection,
            rewritten: Vec::new(),
            sent: 0,
        }
    }

    /// Sends what is left of a rewritten answer.
    fn poll_rewritten(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.rewritten.len() {
            match ready!(Pin::new(&mut self.io).poll_write(cx, &self.rewritten[self.sent..]))? {
                0 => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                n => self.sent += n,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Whether `bytes` were hyper's own refusal, now rewritten.
    fn rewrite(&mut self, bytes: &[u8]) -> bool {
        if self.connection.service_answers() {
            return false;
        }
        match with_security_headers(bytes) {
            Some(rewritten) => {
                self.rewritten = rewritten;
                self.sent = 0;
                true
            }
            None => false,
        }
    }

    /// Writes `first`, rewritten, if it is a refusal: how much of the caller's bytes that took.
    fn poll_write_rewritten(
        &mut self,
        cx: &mut Context<'_>,
        first: &[u8],
    ) -> Option<Poll<io::Result<usize>>> {
        if !self.rewrite(first) {
            return None;
        }
        Some(match self.poll_rewritten(cx) {
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            _ => Poll::Ready(Ok(first.len())),
        })
    }
}

impl<IO: AsyncRead + Unpin, C> AsyncRead for WithHeadersOnRefusals<IO, C> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<IO: AsyncWrite + Unpin, C: ServiceAnswers> AsyncWrite for WithHeadersOnRefusals<IO, C> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_rewritten(cx))?;
        if let Some(written) = self.poll_write_rewritten(cx, buf) {
            return written;
        }
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_rewritten(cx))?;
        if let Some(first) = bufs.iter().find(|b| !b.is_empty())
            && let Some(written) = self.poll_write_rewritten(cx, first)
        {
            return written;
        }
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_rewritten(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_rewritten(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// hyper's answer to an HTTP/1 head it could not read is a whole 4xx head, written at once,
/// without the headers every service answer has: the same answer with them.
fn with_security_headers(bytes: &[u8]) -> Option<Vec<u8>> {
    if !(bytes.starts_with(b"HTTP/1.1 4") || bytes.starts_with(b"HTTP/1.0 4")) {
        return None;
    }
    let head_end = find(bytes, b"\r\n\r\n")?;
    let head = bytes[..head_end].to_ascii_lowercase();
    if find(&head, super::MARKER.as_bytes()).is_some() {
        return None;
    }
    let status_line_end = find(bytes, b"\r\n")? + 2;
    let mut out = Vec::with_capacity(bytes.len() + 512);
    out.extend_from_slice(&bytes[..status_line_end]);
    for (name, value) in super::headers() {
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(&bytes[status_line_end..]);
    Some(out)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_own_error_answer_gets_the_security_headers() {
        let bare =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let rewritten = String::from_utf8(with_security_headers(bare).unwrap()).unwrap();
        assert!(rewritten.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(rewritten.contains("\r\nx-content-type-options: nosniff\r\n"));
        assert!(rewritten.ends_with("content-length: 0\r\ndate: x\r\n\r\n"));
    }

    #[test]
    fn an_answer_that_has_them_or_is_not_an_error_head_is_left_alone() {
        for bytes in [
            &b"HTTP/1.1 404 Not Found\r\nx-content-type-options: nosniff\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\nno end of head",
            b"<html>HTTP/1.1 400</html>",
        ] {
            assert!(with_security_headers(bytes).is_none());
        }
    }
}
