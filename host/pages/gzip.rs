//! Gzip for documents written per request, part by part, without a compressor held between
//! parts. A streamed page waits for its data between its parts; with a compressor of its
//! own (about 300 KB of tables) each waiting page held it all that time, and 64 pages
//! waiting on a slow upstream held 30 MB more than the same pages sent plain. Here each
//! part is deflated by its thread's one compressor, reset first, and ends on a byte
//! boundary (a sync flush); the parts then join into one deflate stream, and what a page
//! keeps between parts is the checksum and length of the gzip trailer. A part cannot refer
//! back into the one before: what that costs is the little the shell and the data's markup
//! have in common.
//!
//! A part that comes while the member still fits the first flight (`FIRST_FLIGHT_BYTES`) is not
//! compressed but stored (RFC 1951, 3.2.4): whatever it is sent as, it reaches the browser
//! in the round trip that carries the part before it, so compressing it would only spend
//! the server's CPU. A visitor's status page resumed after its kept shell: 1,541 bytes of
//! markup deflated to 1,051 in ~4.6 µs (the compressor's reset is most of it), stored as
//! 1,546 in a copy.

use std::cell::RefCell;

use axum::body::Bytes;
use flate2::{Compress, Compression, FlushCompress, Status};

/// What a new connection's first flight carries of a response: 10 segments of 1,460
/// bytes, less room for the headers. A page this long goes plain (see `encoding`), and a
/// member this long so far takes its parts stored.
pub const FIRST_FLIGHT_BYTES: usize = 12 * 1024;
/// A gzip header with no name, no time and an unknown system (RFC 1952, 2.3).
const HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
/// The trailer: the input's CRC-32 and length.
const TRAILER_BYTES: usize = 8;
/// A stored block's header: its first byte (`BFINAL`, `BTYPE` 00 and the padding to the
/// byte), then `LEN` and `NLEN`.
const STORED_HEADER_BYTES: usize = 5;

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
    /// The member's bytes written so far (past the first flight, any number will do).
    written: u32,
}

impl GzipParts {
    pub fn new() -> Self {
        Self {
            started: false,
            crc: crc32fast::Hasher::new(),
            size: 0,
            written: 0,
        }
    }

    /// `text` to be sent after the parts before it, stored while the member fits the
    /// first flight, else compressed; the member ends with the `last` part.
    pub fn part(&mut self, text: &[u8], last: bool) -> Vec<u8> {
        let header = if self.started { 0 } else { HEADER.len() };
        let trailer = if last { TRAILER_BYTES } else { 0 };
        let stored = header + STORED_HEADER_BYTES + text.len() + trailer;
        let fits = (self.written as usize).saturating_add(stored) <= FIRST_FLIGHT_BYTES;
        self.write(text, last, if fits { store } else { deflate })
    }

    /// `text` compressed, whatever its size: a part compressed once and sent many times.
    fn compressed(&mut self, text: &[u8], last: bool) -> Vec<u8> {
        self.write(text, last, deflate)
    }

    fn write(&mut self, text: &[u8], last: bool, code: fn(&[u8], bool, &mut Vec<u8>)) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() / 3 + 64);
        if !std::mem::replace(&mut self.started, true) {
            out.extend_from_slice(&HEADER);
        }
        self.crc.update(text);
        self.size = self.size.wrapping_add(text.len() as u32);
        code(text, last, &mut out);
        if last {
            out.extend_from_slice(&self.crc.clone().finalize().to_le_bytes());
            out.extend_from_slice(&self.size.to_le_bytes());
        }
        self.written = self.written.saturating_add(out.len() as u32);
        out
    }
}

/// A member's first part compressed once (with the header), and what the trailer needs of
/// it, for the members that start with the same text: the frame and kept shell of a page
/// that many visitors ask, the head of a page rendered whole (see `first_parts`).
#[derive(Clone)]
pub struct FirstPart {
    bytes: Bytes,
    crc: crc32fast::Hasher,
    size: u32,
}

impl FirstPart {
    pub fn new(text: &[u8]) -> Self {
        let mut parts = GzipParts::new();
        let bytes = Bytes::from(parts.compressed(text, false));
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
            written: u32::try_from(self.bytes.len()).unwrap_or(u32::MAX),
        }
    }
}

/// `text` as one gzip member.
pub fn whole(text: &[u8]) -> Vec<u8> {
    GzipParts::new().part(text, true)
}

/// Appends `input` to `out` as stored blocks (each starts on a byte boundary, where the
/// part before ended): the final one when `last`.
fn store(input: &[u8], last: bool, out: &mut Vec<u8>) {
    let mut blocks = input.chunks(usize::from(u16::MAX)).peekable();
    if blocks.peek().is_none() {
        // Nothing, yet a block: the last one must say it is.
        out.extend_from_slice(&[u8::from(last), 0, 0, 0xff, 0xff]);
        return;
    }
    while let Some(block) = blocks.next() {
        let final_block = last && blocks.peek().is_none();
        let len = u16::try_from(block.len()).expect("chunks of at most u16::MAX");
        out.push(u8::from(final_block));
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
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
    use crate::test_support::{Random, gunzip};

    /// Text that does not compress: its deflated form is longer than the room first given.
    fn noise(len: usize) -> Vec<u8> {
        Random(0x2545_f491_4f6c_dd1d).bytes(len)
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
            let mut expected = fresh.compressed(&first, false);
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

    /// Whether `text` is in `sent` as it is (stored, not compressed).
    fn carries(sent: &[u8], text: &[u8]) -> bool {
        sent.windows(text.len()).any(|window| window == text)
    }

    #[test]
    fn a_part_within_the_first_flight_is_stored_and_one_past_it_compressed() {
        let markup = "<p>les donn\u{e9}es</p>".repeat(100).into_bytes();
        let mut gzip = GzipParts::new();
        let first = gzip.part(&markup, false);
        assert!(carries(&first, &markup));
        assert_eq!(
            first.len(),
            HEADER.len() + STORED_HEADER_BYTES + markup.len()
        );
        // With what the member holds, the next part would pass the first flight.
        let more = "<li>une ligne</li>"
            .repeat(FIRST_FLIGHT_BYTES / 18)
            .into_bytes();
        let second = gzip.part(&more, false);
        assert!(
            second.len() < more.len() / 10,
            "compressed: {}",
            second.len()
        );
        // The member is still small: a small part is stored again.
        let aside = b"<aside>rien</aside>";
        let third = gzip.part(aside, false);
        assert!(carries(&third, aside));
        // Once it has passed the first flight, a small part is compressed too.
        let noisy = noise(FIRST_FLIGHT_BYTES);
        let fourth = gzip.part(&noisy, false);
        let last = "<li></li>".repeat(200).into_bytes();
        let end = gzip.part(&last, true);
        assert!(end.len() < last.len() / 2, "compressed: {}", end.len());
        let sent = [first, second, third, fourth, end].concat();
        assert_eq!(
            gunzip(&sent),
            [&markup[..], &more, aside, &noisy, &last].concat()
        );
    }

    #[test]
    fn the_first_flight_counts_the_trailer_of_the_last_part() {
        let room = FIRST_FLIGHT_BYTES - HEADER.len() - STORED_HEADER_BYTES - TRAILER_BYTES;
        let whole_in_flight = GzipParts::new().part(&vec![b'a'; room], true);
        assert_eq!(whole_in_flight.len(), FIRST_FLIGHT_BYTES);
        let over = GzipParts::new().part(&vec![b'a'; room + 1], true);
        assert!(over.len() < 1_000, "compressed: {}", over.len());
        assert_eq!(gunzip(&over), vec![b'a'; room + 1]);
    }

    #[test]
    fn after_a_first_part_compressed_ahead_the_parts_within_the_flight_are_stored() {
        let first = b"<!doctype html><html lang=\"fr\"><main>".repeat(100);
        let ahead = FirstPart::new(&first);
        assert!(
            ahead.bytes().len() < first.len() / 10,
            "the first part is compressed, however small"
        );
        let resumed = b"<div hidden id=\"S:0\"><dd>bench-upstream</dd></div></main></html>";
        let mut rest = ahead.rest();
        let end = rest.part(resumed, true);
        assert!(carries(&end, resumed));
        assert_eq!(
            gunzip(&[ahead.bytes().to_vec(), end].concat()),
            [&first[..], resumed].concat()
        );
    }

    #[test]
    fn stored_blocks_of_nothing_and_of_more_than_one_block() {
        for (text, last) in [
            (Vec::new(), false),
            (Vec::new(), true),
            (noise(70_000), true),
        ] {
            let mut sent = HEADER.to_vec();
            store(&text, last, &mut sent);
            if !last {
                store(b"", true, &mut sent);
            }
            let mut crc = crc32fast::Hasher::new();
            crc.update(&text);
            sent.extend_from_slice(&crc.finalize().to_le_bytes());
            sent.extend_from_slice(&(text.len() as u32).to_le_bytes());
            assert_eq!(gunzip(&sent), text);
        }
    }

    #[test]
    fn a_page_waiting_for_its_data_holds_no_compressor() {
        assert!(std::mem::size_of::<GzipParts>() <= 32);
    }
}
