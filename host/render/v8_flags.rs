//! V8's flags, the same for every runtime: set once, before V8's platform starts (`init_v8`
//! and each runtime's start call it first); V8 freezes its flags then, and aborts the
//! process on a later change.
//!
//! `--no-concurrent-recompilation`: a function V8 optimises is compiled on the render
//! thread that made it hot, not on V8's worker threads. The render threads are as many as
//! the cores and busy under load, so background compiles only took CPU from the other
//! render thread, while each worker's compile zones kept glibc arenas of their own: peak
//! RSS with 64 streamed pages in flight went from 126-130 MB to 113-114 MB, the heavy
//! page's from 94-103 to 85-87 MB, at the same throughput (three rounds each, in turns).

use std::sync::OnceLock;

use deno_core::v8_set_flags;

const FLAGS: &[&str] = &["--no-concurrent-recompilation"];

/// Sets V8's flags, the first time only; the flags this V8 did not know, which it ignored.
pub fn set_once() -> &'static [String] {
    static UNKNOWN: OnceLock<Vec<String>> = OnceLock::new();
    UNKNOWN.get_or_init(|| {
        // V8 reads a command line: it skips the first argument, the program's name, and
        // gives it back with the flags it did not know.
        let arguments = std::iter::once("bilingue").chain(FLAGS.iter().copied());
        let unknown: Vec<String> = v8_set_flags(arguments.map(String::from).collect())
            .into_iter()
            .skip(1)
            .collect();
        if !unknown.is_empty() {
            tracing::warn!(flags = ?unknown, "V8 does not know these flags; it runs without them");
        }
        unknown
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn this_v8_knows_every_flag() {
        assert_eq!(super::set_once(), &[] as &[String]);
    }
}
