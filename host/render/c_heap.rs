//! V8 takes its parsers' and compilers' working memory (zones) from glibc's malloc, in an
//! arena per render thread (the host's own allocations go to mimalloc), and glibc gives
//! freed memory back to the system only from the top of an arena. Compiling a large bundle
//! leaves each runtime's arena ~110 MB long and nearly empty; the zones that later renders
//! take and free (lazy compiles, optimisations) land all over it, and every page they touch
//! stays resident: along a crawl of the real-size site each arena held 23 MB for 2-3 MB in
//! use. So the free pages are handed back (`malloc_trim`, which releases them wherever
//! they are) once a runtime has warmed up, then every [`HANDED_BACK_EVERY`] at most while
//! renders run: the arenas' resident memory along that crawl went from 50 MB to 5 MB, each
//! trim taking under a millisecond.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often, at most, the process hands back what the render threads' arenas freed.
pub const HANDED_BACK_EVERY: Duration = Duration::from_millis(500);

static LAST: Cadence = Cadence::new(HANDED_BACK_EVERY);

/// Hands back the C heap's free pages now.
pub fn hand_back() {
    // SAFETY: glibc's malloc_trim only returns free memory to the system.
    unsafe { libc::malloc_trim(0) };
}

/// Hands back the C heap's free pages if the process has not for [`HANDED_BACK_EVERY`]:
/// after a render thread's calls (any thread's turn will do, `malloc_trim` trims all).
pub fn hand_back_now_and_then() {
    static EPOCH: LazyLock<Instant> = LazyLock::new(Instant::now);
    if LAST.due(EPOCH.elapsed()) {
        hand_back();
    }
}

/// Due once every `every` at most, whichever thread asks.
struct Cadence {
    every_ms: u64,
    /// When it was last due, in milliseconds from the clock's start.
    last_ms: AtomicU64,
}

impl Cadence {
    const fn new(every: Duration) -> Self {
        Self {
            every_ms: every.as_millis() as u64,
            last_ms: AtomicU64::new(0),
        }
    }

    /// Whether it is due at `now` (on the clock's scale); then not again for `every`.
    fn due(&self, now: Duration) -> bool {
        let now = now.as_millis() as u64;
        let last = self.last_ms.load(Ordering::Relaxed);
        now >= last + self.every_ms
            && self
                .last_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_back_is_due_once_an_interval_whoever_asks() {
        let cadence = Cadence::new(Duration::from_millis(500));
        let at = Duration::from_millis;
        assert!(!cadence.due(at(100)), "not before the first interval");
        assert!(cadence.due(at(500)));
        assert!(!cadence.due(at(500)), "the other thread, at the same time");
        assert!(!cadence.due(at(999)));
        assert!(cadence.due(at(1_200)));
        assert!(!cadence.due(at(1_699)));
        assert!(cadence.due(at(5_000)), "after a pause, at once");
    }

    #[test]
    fn handing_back_keeps_what_is_in_use() {
        let kept: Vec<Box<[u8; 4096]>> = (0..256).map(|i| Box::new([i as u8; 4096])).collect();
        hand_back();
        hand_back_now_and_then();
        assert!(
            kept.iter()
                .enumerate()
                .all(|(i, page)| page.iter().all(|&b| b == i as u8))
        );
    }
}
