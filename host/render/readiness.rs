//! Whether the render threads can serve: the one count of threads whose runtime is up and
//! warmed, and how the start-up warm-up ended. `/readyz` and `/metrics` read it; the render
//! threads alone change it (warmed up, replacing a runtime, taking a new bundle).

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

#[cfg(test)]
mod tests {
    use super::Readiness;

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
