//! An answer's body, as its head frames it.

use std::time::Duration;

use tokio::net::TcpStream;

use super::{MAX_HEAD, MAX_HEADERS, read_some};

/// Reads an answer's body from `buffer` (what came after the head) and the socket. What is
/// taken is passed over, not removed: the buffer is compacted only before a read, so many
/// small chunks cost no copy of what follows each (which could be megabytes).
pub(super) struct BodyReader<'a> {
    stream: &'a TcpStream,
    buffer: &'a mut Vec<u8>,
    /// Where the bytes not taken yet begin.
    start: usize,
    idle_timeout: Duration,
}

impl<'a> BodyReader<'a> {
    pub(super) fn new(stream: &'a TcpStream, buffer: &'a mut Vec<u8>, idle: Duration) -> Self {
        Self {
            stream,
            buffer,
            start: 0,
            idle_timeout: idle,
        }
    }

    fn rest(&self) -> &[u8] {
        &self.buffer[self.start..]
    }

    /// Reads more; an error if the upstream closed or went quiet.
    async fn more(&mut self) -> Result<(), String> {
        match self.read().await? {
            0 => Err("it broke off".to_owned()),
            _ => Ok(()),
        }
    }

    /// Reads what comes next after the rest (0: the upstream closed).
    async fn read(&mut self) -> Result<usize, String> {
        self.buffer.drain(..self.start);
        self.start = 0;
        let read = tokio::time::timeout(self.idle_timeout, read_some(self.stream, self.buffer));
        match read.await {
            Err(_) => Err(format!("nothing came for {:?}", self.idle_timeout)),
            Ok(Err(error)) => Err(error.to_string()),
            Ok(Ok(read)) => Ok(read),
        }
    }

    /// Leaves in the buffer only what came after the body.
    fn done(self, body: Vec<u8>) -> Vec<u8> {
        self.buffer.drain(..self.start);
        body
    }

    pub(super) async fn exactly(mut self, length: usize) -> Result<Vec<u8>, String> {
        while self.rest().len() < length {
            self.more().await?;
        }
        let body = self.rest()[..length].to_vec();
        self.start += length;
        Ok(self.done(body))
    }

    pub(super) async fn until_close(mut self, max: usize) -> Result<Vec<u8>, String> {
        while self.read().await? > 0 {
            if self.rest().len() > max {
                return Err(format!("it is over {max} bytes"));
            }
        }
        Ok(std::mem::take(self.buffer))
    }

    /// RFC 9112 §7.1: chunks, each its size in hex (extensions ignored), its bytes and a
    /// CRLF; a chunk of size 0; trailers, which are read and dropped; a CRLF.
    pub(super) async fn chunked(mut self, max: usize) -> Result<Vec<u8>, String> {
        let mut body = Vec::new();
        loop {
            let (line, size) = loop {
                match httparse::parse_chunk_size(self.rest()) {
                    // httparse reads a line with no digit as 0, the last chunk.
                    Ok(httparse::Status::Complete(_)) if !self.rest()[0].is_ascii_hexdigit() => {
                        return Err("a chunk's size is not valid".to_owned());
                    }
                    Ok(httparse::Status::Complete(found)) => break found,
                    Ok(httparse::Status::Partial) if self.rest().len() > MAX_HEAD => {
                        return Err("a chunk's size line is too long".to_owned());
                    }
                    Ok(httparse::Status::Partial) => self.more().await?,
                    Err(_) => return Err("a chunk's size is not valid".to_owned()),
                }
            };
            self.start += line;
            if size == 0 {
                self.trailers().await?;
                return Ok(self.done(body));
            }
            if size > (max - body.len()) as u64 {
                return Err(format!("it is over {max} bytes"));
            }
            let size = size as usize;
            while self.rest().len() < size + 2 {
                self.more().await?;
            }
            if &self.rest()[size..size + 2] != b"\r\n" {
                return Err("a chunk does not end where its size says".to_owned());
            }
            body.extend_from_slice(&self.rest()[..size]);
            self.start += size + 2;
        }
    }

    /// The trailer section after the last chunk, up to and with its closing CRLF.
    async fn trailers(&mut self) -> Result<(), String> {
        loop {
            if self.rest().starts_with(b"\r\n") {
                self.start += 2;
                return Ok(());
            }
            if let Some(end) = self.rest().windows(4).position(|w| w == b"\r\n\r\n") {
                let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
                match httparse::parse_headers(&self.rest()[..end + 4], &mut fields) {
                    Ok(httparse::Status::Complete(_)) => {}
                    _ => return Err("its trailers are not valid".to_owned()),
                }
                self.start += end + 4;
                return Ok(());
            }
            if self.rest().len() > MAX_HEAD {
                return Err("its trailers are too long".to_owned());
            }
            self.more().await?;
        }
    }
}
