//! Whether the render threads can serve: the one count of threads whose runtime is up and
//! warmed, and how the start-up warm-up ended. `/readyz` and `/metrics` read it; the render
//! threads alone change it (warmed up, replacing a runtime, taking a new bundle).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::watch;

/// Where the start-up warm-up stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Warmth {
    Warming,
    Ready,
    Failed(String),
}

#[derive(Debug)]
pub struct Readiness {
    threads: usize,
    ready: AtomicUsize,
    warmth: watch::Sender<Warmth>,
}

impl Readiness {
    pub fn new(threads: usize) -> Self {
        Self {
            threads,
            ready: AtomicUsize::new(0),
            warmth: watch::channel(Warmth::Warming).0,
        }
    }

    /// A thread's runtime is up and warmed; the start-up warm-up is over when all are.
    pub fn thread_ready(&self) {
        let ready = self.ready.fetch_add(1, Ordering::SeqCst) + 1;
        if ready == self.threads {
            self.settle(Warmth::Ready);
        }
    }

    /// A thread's runtime is gone until it has another.
    pub fn thread_unready(&self) {
        self.ready.fetch_sub(1, Ordering::SeqCst);
    }

    /// A thread could not warm up: the first such reason is the start-up's.
    pub fn thread_failed(&self, why: String) {
        self.settle(Warmth::Failed(why));
    }

    fn settle(&self, settled: Warmth) {
        self.warmth.send_if_modified(|warmth| {
            let warming = *warmth == Warmth::Warming;
            if warming {
                *warmth = settled;
            }
            warming
        });
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Threads whose runtime is up and warmed.
    pub fn ready_threads(&self) -> usize {
        self.ready.load(Ordering::SeqCst)
    }

    pub fn all_ready(&self) -> bool {
        self.ready_threads() == self.threads
    }

    /// Resolves once every thread has warmed up, or with the first reason one could not.
    pub async fn warmed(&self) -> Result<(), String> {
        let mut warmth = self.warmth.subscribe();
        let settled = warmth
            .wait_for(|w| *w != Warmth::Warming)
            .await
            .map(|w| w.clone());
        match settled {
            Ok(Warmth::Failed(why)) => Err(why),
            Ok(_) => Ok(()),
            Err(_) => Err("the render threads are gone".into()),
        }
    }
}

/// One thread's part of the count: counted once at most while its runtime serves, and
/// no longer once it is dropped, so a thread that dies (a panic unwinds it) is never
/// reported ready.
#[derive(Debug)]
pub struct ThreadReadiness {
    readiness: Arc<Readiness>,
    counted: bool,
}

impl ThreadReadiness {
    pub fn new(readiness: Arc<Readiness>) -> Self {
        Self {
            readiness,
            counted: false,
        }
    }

    /// The thread's runtime is up and warmed.
    pub fn ready(&mut self) {
        if !self.counted {
            self.counted = true;
            self.readiness.thread_ready();
        }
    }

    /// The thread has no runtime until it has another.
    pub fn unready(&mut self) {
        if self.counted {
            self.counted = false;
            self.readiness.thread_unready();
        }
    }

    /// The thread could not warm up (see [`Readiness::thread_failed`]).
    pub fn failed(&self, why: String) {
        self.readiness.thread_failed(why);
    }
}

impl Drop for ThreadReadiness {
    fn drop(&mut self) {
        self.unready();
    }
}

#[cfg(test)]
mod tests {
    use super::{Readiness, ThreadReadiness};
    use std::sync::Arc;

    #[test]
    fn a_thread_counts_once_and_not_after_it_is_gone() {
        let readiness = Arc::new(Readiness::new(2));
        let mut first = ThreadReadiness::new(readiness.clone());
        first.ready();
        first.ready();
        assert_eq!(readiness.ready_threads(), 1);
        let mut second = ThreadReadiness::new(readiness.clone());
        second.ready();
        assert!(readiness.all_ready());
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            let _held = second;
            panic!("the thread dies");
        }));
        assert!(unwound.is_err());
        assert_eq!(readiness.ready_threads(), 1, "the dead thread is not ready");
        first.unready();
        first.unready();
        assert_eq!(readiness.ready_threads(), 0);
        drop(first);
        assert_eq!(readiness.ready_threads(), 0);
    }

    #[tokio::test]
    async fn the_warm_up_is_over_when_every_thread_is_ready_or_one_failed() {
        let readiness = Readiness::new(2);
        readiness.thread_ready();
        assert!(!readiness.all_ready());
        readiness.thread_ready();
        assert!(readiness.all_ready());
        assert_eq!(readiness.warmed().await, Ok(()));
        readiness.thread_unready();
        assert_eq!(readiness.ready_threads(), 1);
        readiness.thread_failed("late".into());
        assert_eq!(readiness.warmed().await, Ok(()), "settled once, for good");

        let failing = Readiness::new(2);
        failing.thread_ready();
        failing.thread_failed("the bundle throws".into());
        assert_eq!(failing.warmed().await, Err("the bundle throws".into()));
    }
}
