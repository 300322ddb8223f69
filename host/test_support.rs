//! What the unit tests of several modules need alike: request headers, gzip, random input,
//! V8's runtimes one kind at a time, and Node to ask the app's build code what it writes.

use std::io::Read as _;

use axum::http::{HeaderMap, HeaderValue, header};

/// V8 for a test that makes runtimes: started, and held by one such test at a time. V8
/// aborts the process when runtimes made from the embedded snapshot and runtimes made
/// from a script (no snapshot) are made at once (a libc++ bounds check on its read-only
/// heap's pages: 15 runs in 40 with the two kinds' tests side by side, none with one kind).
/// A host makes one kind only; the tests make both.
pub fn v8_runtimes() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    static V8: std::sync::Once = std::sync::Once::new();
    V8.call_once(crate::render::init_v8);
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// A request's headers that accept these content codings.
pub fn accepting(value: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::ACCEPT_ENCODING,
        HeaderValue::from_str(value).unwrap(),
    );
    headers
}

/// A gzip stream's content; it must be valid gzip.
pub fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("valid gzip");
    out
}

/// xorshift64*: deterministic random input, so a failure names a seed that reproduces it.
pub struct Random(pub u64);

impl Random {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// `len` bytes that do not compress.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }

    /// Bytes made of pieces paths and cookies are made of, and some that break them.
    pub fn text(&mut self) -> Vec<u8> {
        const PIECES: [&[u8]; 14] = [
            b"/",
            b"fr",
            b"en",
            b"de",
            b"-",
            b"BR",
            b";",
            b"=",
            b"bilingue_lang",
            b" ",
            b"%2F",
            b"\xff",
            b"\xc3\xa9",
            b"..",
        ];
        let len = self.next() % 12;
        (0..len)
            .flat_map(|_| PIECES[(self.next() % PIECES.len() as u64) as usize].to_vec())
            .collect()
    }
}

/// Runs `script`, an ES module, with Node in the repository (as the build runs it), with
/// `args` after it; what it wrote to its output.
pub fn node(script: &str, args: &[&str]) -> String {
    let output = std::process::Command::new("node")
        .args(["--input-type=module", "-e", script])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("node runs (the build needs it too)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}
