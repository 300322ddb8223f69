//! The first part of a page compressed once, not per visitor. A page with a kept shell
//! starts with the same bytes for everyone who asks it (the document's frame, then the
//! shell: no nonce, no data, nothing of the visitor's), and its first write went through
//! the compressor each time: the path a crowd takes, on every request. A page rendered
//! whole starts with its head, the same for every render of that page (`encoding`). Here
//! the gzip of that text is kept by the text itself, so a part is reused only where it is
//! byte for byte what would have been compressed, and a page whose first part is its own
//! merely misses. Bounded in count and size; full, it starts again empty.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::gzip::FirstPart;

/// At most this many first parts kept (routes × languages × parameter values asked lately,
/// frames and heads).
const KEPT: usize = 256;
/// A longer first part is compressed per page: a screen whose shell is this long is rare,
/// and the bound holds what the parts kept may take (under 6 MiB with their gzip).
const LONGEST: usize = 16 * 1024;

#[derive(Default)]
pub struct FirstParts {
    kept: Mutex<HashMap<Arc<str>, FirstPart, foldhash::fast::RandomState>>,
}

impl FirstParts {
    /// `text` compressed as a member's first part: the one kept, or compressed now (and
    /// kept, if it may be).
    pub fn compressed(&self, text: &str) -> FirstPart {
        if text.len() > LONGEST {
            return FirstPart::new(text.as_bytes());
        }
        if let Some(found) = self.kept.lock().expect("first parts lock").get(text) {
            return found.clone();
        }
        let part = FirstPart::new(text.as_bytes());
        let mut kept = self.kept.lock().expect("first parts lock");
        if kept.len() >= KEPT {
            kept.clear();
        }
        kept.insert(Arc::from(text), part.clone());
        part
    }

    /// How many are kept now.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.kept.lock().expect("first parts lock").len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_text_is_compressed_once_and_another_text_is_not_given_its_bytes() {
        let parts = FirstParts::default();
        let frame = "<!doctype html><html lang=\"fr\"><body><div id=\"app\">".repeat(10);
        let first = parts.compressed(&frame);
        let again = parts.compressed(&frame.clone());
        assert_eq!(
            first.bytes().as_ptr(),
            again.bytes().as_ptr(),
            "compressed once"
        );
        let other = parts.compressed(&frame.replace("fr", "en"));
        assert_ne!(other.bytes(), first.bytes());
        assert_eq!(parts.len(), 2);
    }

    #[test]
    fn the_parts_kept_are_bounded_in_count_and_length() {
        let parts = FirstParts::default();
        for n in 0..KEPT + 10 {
            parts.compressed(&format!("<p>{n}</p>"));
        }
        assert!(parts.len() <= KEPT);
        let long = "x".repeat(LONGEST + 1);
        let before = parts.len();
        parts.compressed(&long);
        assert_eq!(parts.len(), before, "too long to keep");
    }
}
