//! An answer's body, as its head frames it.

use std::time::Duration;

use tokio::net::TcpStream;

use super::{MAX_HEAD, MAX_HEADERS, read_some};

/// Reads an answer's body: `buffer` holds what came after the head and is consumed as the
/// body is taken from it.
pub(super) struct BodyReader<'a> {
    pub(super) stream: &'a TcpStream,
    pub(super) buffer: &'a mut Vec<u8>,
    pub(super) idle_timeout: Duration,
}

impl BodyReader<'_> {
    /// Reads more into the buffer; an error if the upstream closed or went quiet.
    async fn more(&mut self) -> Result<(), String> {
        let read = tokio::time::timeout(self.idle_timeout, read_some(self.stream, self.buffer));
        match read.await {
            Err(_) => Err(format!("nothing came for {:?}", self.idle_timeout)),
            Ok(Err(error)) => Err(error.to_string()),
            Ok(Ok(0)) => Err("it broke off".to_owned()),
            Ok(Ok(_)) => Ok(()),
        }
    }

    pub(super) async fn exactly(&mut self, length: usize) -> Result<Vec<u8>, String> {
        while self.buffer.len() < length {
            self.more().await?;
        }
        let rest = self.buffer.split_off(length);
        Ok(std::mem::replace(self.buffer, rest))
    }

    pub(super) async fn until_close(&mut self, max: usize) -> Result<Vec<u8>, String> {
        loop {
            if self.buffer.len() > max {
                return Err(format!("it is over {max} bytes"));
            }
            let read = tokio::time::timeout(self.idle_timeout, read_some(self.stream, self.buffer));
            match read.await {
                Err(_) => return Err(format!("nothing came for {:?}", self.idle_timeout)),
                Ok(Err(error)) => return Err(error.to_string()),
                Ok(Ok(0)) => return Ok(std::mem::take(self.buffer)),
                Ok(Ok(_)) => {}
            }
        }
    }

    /// RFC 9112 §7.1: chunks, each its size in hex (extensions ignored), its bytes and a
    /// CRLF; a chunk of size 0; trailers, which are read and dropped; a CRLF.
    pub(super) async fn chunked(&mut self, max: usize) -> Result<Vec<u8>, String> {
        let mut body = Vec::new();
        loop {
            let (line, size) = loop {
                match httparse::parse_chunk_size(self.buffer) {
                    Ok(httparse::Status::Complete(found)) => break found,
                    Ok(httparse::Status::Partial) if self.buffer.len() > MAX_HEAD => {
                        return Err("a chunk's size line is too long".to_owned());
                    }
                    Ok(httparse::Status::Partial) => self.more().await?,
                    Err(_) => return Err("a chunk's size is not valid".to_owned()),
                }
            };
            self.buffer.drain(..line);
            if size == 0 {
                self.trailers().await?;
                return Ok(body);
            }
            if size > (max - body.len()) as u64 {
                return Err(format!("it is over {max} bytes"));
            }
            let size = size as usize;
            while self.buffer.len() < size + 2 {
                self.more().await?;
            }
            if &self.buffer[size..size + 2] != b"\r\n" {
                return Err("a chunk does not end where its size says".to_owned());
            }
            body.extend_from_slice(&self.buffer[..size]);
            self.buffer.drain(..size + 2);
        }
    }

    /// The trailer section after the last chunk, up to and with its closing CRLF.
    async fn trailers(&mut self) -> Result<(), String> {
        loop {
            if self.buffer.starts_with(b"\r\n") {
                self.buffer.drain(..2);
                return Ok(());
            }
            if let Some(end) = self.buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
                match httparse::parse_headers(&self.buffer[..end + 4], &mut fields) {
                    Ok(httparse::Status::Complete(_)) => {}
                    _ => return Err("its trailers are not valid".to_owned()),
                }
                self.buffer.drain(..end + 4);
                return Ok(());
            }
            if self.buffer.len() > MAX_HEAD {
                return Err("its trailers are too long".to_owned());
            }
            self.more().await?;
        }
    }
}
