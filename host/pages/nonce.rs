//! The per-response nonce of the Content-Security-Policy: 128 random bits, in hex (a
//! subset of the base64 characters CSP expects), drawn from the operating system. Each
//! thread draws bits for 32 nonces at a time: one system call per response was a tenth of
//! a cached page's cost.

use std::cell::RefCell;
use std::fmt;

const BITS: usize = 16;
const DRAWN_AT_ONCE: usize = 32 * BITS;

/// Random bytes drawn from the operating system and not yet used, per thread.
struct Drawn {
    bytes: [u8; DRAWN_AT_ONCE],
    used: usize,
}

thread_local! {
    static DRAWN: RefCell<Drawn> = const {
        RefCell::new(Drawn { bytes: [0; DRAWN_AT_ONCE], used: DRAWN_AT_ONCE })
    };
}

fn random_bits() -> [u8; BITS] {
    DRAWN.with_borrow_mut(|drawn| {
        if drawn.used == DRAWN_AT_ONCE {
            getrandom::fill(&mut drawn.bytes).expect("the operating system's random source");
            drawn.used = 0;
        }
        let mut bits = [0u8; BITS];
        bits.copy_from_slice(&drawn.bytes[drawn.used..drawn.used + BITS]);
        // Used bits are not kept: nothing in memory tells a nonce already sent.
        drawn.bytes[drawn.used..drawn.used + BITS].fill(0);
        drawn.used += BITS;
        bits
    })
}

#[derive(Clone, Copy)]
pub struct Nonce([u8; 32]);

impl Nonce {
    pub fn random() -> Self {
        let bits = random_bits();
        let mut text = [0u8; 32];
        for (i, byte) in bits.iter().enumerate() {
            text[2 * i] = HEX[usize::from(byte >> 4)];
            text[2 * i + 1] = HEX[usize::from(byte & 0xf)];
        }
        Self(text)
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).expect("hex digits")
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl fmt::Display for Nonce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Nonce;

    #[test]
    fn nonces_are_32_hex_digits_and_differ() {
        let a = Nonce::random();
        let b = Nonce::random();
        assert_eq!(a.as_str().len(), 32);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a.as_str(), b.as_str());
    }

    #[test]
    fn nonces_never_repeat_across_refills_and_threads() {
        let draw = || {
            (0..1000)
                .map(|_| Nonce::random().to_string())
                .collect::<Vec<_>>()
        };
        let other = std::thread::spawn(draw);
        let mut all = draw();
        all.extend(other.join().unwrap());
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), all.len());
    }
}
