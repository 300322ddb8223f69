//! Gzip for documents written per request, part by part, without a compressor held between
//! parts. A streamed page waits for its data between its parts; with a compressor of its
//! own (about 300 KB of tables) each waiting page held it all that time, and 64 pages
//! waiting on a slow upstream held 30 MB more than the same pages sent plain. Here each
//! part is deflated by its thread's one compressor, reset first, and ends on a byte
//! boundary (a sync flush); the parts then join into one deflate stream, and what a page
//! keeps between parts is the checksum and length of the gzip trailer. A part cannot refer
//! back into the one before: what that costs is the little the shell and the data's markup
//! have in common.

use std::cell::RefCell;

use axum::body::Bytes;
use flate2::{Compress, Compression, FlushCompress, Status};

/// A gzip header with no name, no time and an unknown system (RFC 1952, 2.3).
const HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];

thread_local! {
    /// Level 1: see the module `encoding` for why.
    static DEFLATE: RefCell<Compress> = RefCell::new(Compress::new(Compression::fast(), false));
}

/// One gzip member, written a part at a time.
pub struct GzipParts {
    started: bool,
    crc: crc32fast::Hasher,
    /// The input's length modulo 2^32, as the trailer says it.
    size: u32,
}

impl GzipParts {
    pub fn new() -> Self {
        Self {
            started: false,
            crc: crc32fast::Hasher::new(),
            size: 0,
        }
    }

    /// `text` compressed, to be sent after the parts before it; the member ends with the
    /// `last` part.
    pub fn part(&mut self, text: &[u8], last: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() / 3 + 64);
        if !std::mem::replace(&mut self.started, true) {
            out.extend_from_slice(&HEADER);
        }
        self.crc.update(text);
        self.size = self.size.wrapping_add(text.len() as u32);
        deflate(text, last, &mut out);
        if last {
            out.extend_from_slice(&self.crc.clone().finalize().to_le_bytes());
            out.extend_from_slice(&self.size.to_le_bytes());
        }
        out
    }
}

/// A member's first part compressed once (with the header), and what the trailer needs of
/// it, for the members that start with the same text: the frame and kept shell of a page
/// that many visitors ask (see `first_parts`).
#[derive(Clone)]
pub struct FirstPart {
    bytes: Bytes,
    crc: crc32fast::Hasher,
    size: u32,
}

impl FirstPart {
    pub fn new(text: &[u8]) -> Self {
        let mut parts = GzipParts::new();
        let bytes = Bytes::from(parts.part(text, false));
        Self {
            bytes,
            crc: parts.crc,
            size: parts.size,
        }
    }

    /// The compressed bytes, to send first; what follows continues the member they start.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The member these bytes start, to write the parts that follow them.
    pub fn rest(&self) -> GzipParts {
        GzipParts {
            started: true,
            crc: self.crc.clone(),
            size: self.size,
        }
    }
}

/// `text` as one gzip member.
pub fn whole(text: &[u8]) -> Vec<u8> {
    GzipParts::new().part(text, true)
}

/// Appends `input` deflated by a fresh compressor to `out`: the final block when `last`,
/// else blocks that end on a byte boundary.
fn deflate(input: &[u8], last: bool, out: &mut Vec<u8>) {
    let flush = if last {
        FlushCompress::Finish
    } else {
        FlushCompress::Sync
    };
    DEFLATE.with_borrow_mut(|compress| {
        compress.reset();
        loop {
            out.reserve(input.len() / 2 + 64);
            let room = out.capacity() - out.len();
            let written = out.len();
            let consumed = compress.total_in() as usize;
            let status = compress
                .compress_vec(&input[consumed..], out, flush)
                .expect("deflating in memory");
            let all_in = compress.total_in() as usize == input.len();
            // Done when the compressor stopped for want of work, not of room.
            let flushed = out.len() - written < room;
            match status {
                Status::StreamEnd => break,
                _ if !last && all_in && flushed => break,
                _ => {}
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::gunzip;

    /// Text that does not compress: its deflated form is longer than the room first given.
    fn noise(len: usize) -> Vec<u8> {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect()
    }

    #[test]
    fn parts_join_into_one_gzip_member() {
        let parts: [&[u8]; 5] = [
            b"<!doctype html><html lang=\"fr\"><head>",
            b"",
            &"<p>bonjour</p>".repeat(5_000).into_bytes(),
            &noise(200_000),
            b"</html>",
        ];
        let mut gzip = GzipParts::new();
        let mut sent = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            sent.extend(gzip.part(part, i == parts.len() - 1));
        }
        assert_eq!(gunzip(&sent), parts.concat());
    }

    #[test]
    fn a_member_started_from_a_first_part_compressed_ahead_is_the_same_member() {
        let first = b"<!doctype html><html lang=\"fr\"><head><title>\xc3\x89tat</title>".repeat(40);
        let ahead = FirstPart::new(&first);
        for rest in [&b"<p>les donn\xc3\xa9es</p></html>"[..], b""] {
            let mut fresh = GzipParts::new();
            let mut expected = fresh.part(&first, false);
            expected.extend(fresh.part(rest, true));
            let mut sent = ahead.bytes().to_vec();
            sent.extend(ahead.rest().part(rest, true));
            assert_eq!(
                sent, expected,
                "byte for byte what compressing it all per page gives"
            );
            assert_eq!(gunzip(&sent), [&first[..], rest].concat());
        }
    }

    #[test]
    fn each_part_ends_where_a_browser_can_show_it() {
        let mut gzip = GzipParts::new();
        let first = gzip.part(b"<!doctype html><title>Accueil</title>", false);
        // Everything before the trailer is there: a streaming decoder gives the text out.
        let mut decoder = flate2::write::GzDecoder::new(Vec::new());
        std::io::Write::write_all(&mut decoder, &first).unwrap();
        std::io::Write::flush(&mut decoder).unwrap();
        assert_eq!(decoder.get_ref(), b"<!doctype html><title>Accueil</title>");
    }

    #[test]
    fn a_whole_document_and_an_empty_one() {
        let page = "<p>bonjour</p>".repeat(1_000);
        let sent = whole(page.as_bytes());
        assert!(sent.len() < page.len() / 10);
        assert_eq!(gunzip(&sent), page.as_bytes());
        assert_eq!(gunzip(&whole(b"")), b"");
    }

    #[test]
    fn a_page_waiting_for_its_data_holds_no_compressor() {
        assert!(std::mem::size_of::<GzipParts>() <= 32);
    }
}
