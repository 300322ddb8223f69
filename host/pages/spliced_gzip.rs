//! Gzip for a document that differs per response only by short inserts (the CSP nonce).
//! The fixed parts are deflated once, each ending on a byte boundary (a sync flush) and
//! with no reference outside itself; a response is then those parts with the inserts
//! between them as stored blocks, a final empty block, and the trailer. Building one costs
//! a copy and a CRC over a few KiB, instead of compressing the page for every request.

use std::io::Write as _;

use flate2::Compression;
use flate2::write::DeflateEncoder;

/// Gzip header: deflate, no flags, no time, unknown OS.
const HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
/// An empty stored block marked final (byte-aligned: BFINAL=1, BTYPE=00, LEN 0, NLEN !0).
const FINAL_BLOCK: [u8; 5] = [0x01, 0x00, 0x00, 0xff, 0xff];

/// The fixed parts of a document, plain and deflated.
pub struct SplicedGzip {
    parts: Vec<Vec<u8>>,
    deflated: Vec<Vec<u8>>,
}

impl SplicedGzip {
    /// `parts` are what stands before, between and after the inserts.
    pub fn new(parts: Vec<Vec<u8>>) -> Self {
        let deflated = parts.iter().map(|part| deflate_alone(part)).collect();
        Self { parts, deflated }
    }

    /// The document with `insert` between every two parts, plain.
    pub fn plain(&self, insert: &[u8]) -> Vec<u8> {
        let inserts = self.parts.len().saturating_sub(1);
        let mut out = Vec::with_capacity(
            self.parts.iter().map(Vec::len).sum::<usize>() + inserts * insert.len(),
        );
        for (i, part) in self.parts.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(insert);
            }
            out.extend_from_slice(part);
        }
        out
    }

    /// The same document, gzip-encoded. `insert` must be shorter than 64 KiB.
    pub fn gzip(&self, insert: &[u8]) -> Vec<u8> {
        assert!(
            insert.len() <= usize::from(u16::MAX),
            "a stored block holds 64 KiB"
        );
        let mut crc = crc32fast::Hasher::new();
        let mut length: u32 = 0;
        let deflated: usize = self.deflated.iter().map(Vec::len).sum();
        let mut out = Vec::with_capacity(
            HEADER.len() + deflated + self.parts.len() * (insert.len() + 5) + 13,
        );
        out.extend_from_slice(&HEADER);
        for (i, (part, deflated)) in self.parts.iter().zip(&self.deflated).enumerate() {
            if i > 0 {
                let len = insert.len() as u16;
                out.push(0x00);
                out.extend_from_slice(&len.to_le_bytes());
                out.extend_from_slice(&(!len).to_le_bytes());
                out.extend_from_slice(insert);
                crc.update(insert);
                length = length.wrapping_add(insert.len() as u32);
            }
            out.extend_from_slice(deflated);
            crc.update(part);
            length = length.wrapping_add(part.len() as u32);
        }
        out.extend_from_slice(&FINAL_BLOCK);
        out.extend_from_slice(&crc.finalize().to_le_bytes());
        out.extend_from_slice(&length.to_le_bytes());
        out
    }
}

/// Raw deflate of `part` as if it began a stream, ended by a sync flush and not final.
fn deflate_alone(part: &[u8]) -> Vec<u8> {
    let mut encoder =
        DeflateEncoder::new(Vec::with_capacity(part.len() / 2 + 16), Compression::new(6));
    encoder.write_all(part).expect("in-memory deflate");
    encoder.flush().expect("in-memory deflate");
    // Finishing would add a final block; the sync-flushed bytes are all that is wanted.
    encoder.get_ref().clone()
}

#[cfg(test)]
mod tests {
    use super::SplicedGzip;
    use crate::test_support::gunzip;

    #[test]
    fn the_spliced_stream_decodes_to_the_plain_document() {
        let page =
            "<html><script nonce=\"@\"></script><p>répété répété répété</p><link nonce=\"@\">"
                .repeat(40);
        let parts = page.split('@').map(|p| p.as_bytes().to_vec()).collect();
        let spliced = SplicedGzip::new(parts);
        for insert in [&b"0123456789abcdef0123456789abcdef"[..], b"", b"x"] {
            let plain = spliced.plain(insert);
            assert_eq!(gunzip(&spliced.gzip(insert)), plain);
            assert_eq!(
                plain,
                page.replace('@', std::str::from_utf8(insert).unwrap())
                    .as_bytes()
            );
        }
    }

    #[test]
    fn it_compresses_and_handles_empty_and_single_parts() {
        let page = "abcdefgh".repeat(1000);
        let spliced = SplicedGzip::new(vec![page.as_bytes().to_vec()]);
        let gzip = spliced.gzip(b"never used");
        assert!(gzip.len() < page.len() / 10, "{} bytes", gzip.len());
        assert_eq!(gunzip(&gzip), page.as_bytes());
        let empty = SplicedGzip::new(vec![Vec::new(), Vec::new()]);
        assert_eq!(gunzip(&empty.gzip(b"nonce")), b"nonce");
    }
}
