//! The per-response nonce of the Content-Security-Policy: 128 random bits, in hex (a
//! subset of the base64 characters CSP expects), drawn from the operating system.

use std::fmt;

#[derive(Clone, Copy)]
pub struct Nonce([u8; 32]);

impl Nonce {
    pub fn random() -> Self {
        let mut bits = [0u8; 16];
        getrandom::fill(&mut bits).expect("the operating system's random source");
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
}
