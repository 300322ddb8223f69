//! One thread per runtime that stops a render still running after the time-out. A stop
//! can only land inside the render it was meant for: the watchdog stops a render while
//! holding the lock that [`Watchdog::finish`] takes to end it, so once `finish` returns,
//! no stop from that render is still on its way (and the caller can clear it for good).

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct State {
    /// When the render in progress must be stopped; `None` between renders.
    deadline: Option<Instant>,
    /// The watchdog waits with no time-out: only a new render wakes it.
    idle: bool,
    /// The deadline the watchdog is asleep until, if it is.
    sleeping_until: Option<Instant>,
    closed: bool,
}

/// What a renderer and its watchdog's thread share: the state, and the condition that wakes
/// the thread when it changes.
#[derive(Default)]
struct Alarm {
    state: Mutex<State>,
    changed: Condvar,
}

pub struct Watchdog {
    shared: Arc<Alarm>,
}

impl Watchdog {
    /// `stop` is called on the watchdog's thread when a render overruns.
    pub fn spawn(stop: impl Fn() + Send + 'static) -> std::io::Result<Self> {
        let shared = Arc::new(Alarm::default());
        let watched = shared.clone();
        std::thread::Builder::new()
            .name("render-watchdog".into())
            .spawn(move || watch(&watched, stop))?;
        Ok(Self { shared })
    }

    /// Begins a render that is stopped if it still runs after `limit`.
    pub fn start(&self, limit: Duration) {
        let mut state = self.shared.state.lock().expect("watchdog lock");
        let deadline = Instant::now() + limit;
        state.deadline = Some(deadline);
        // Under steady load the watchdog is already asleep until an earlier render's
        // deadline, which comes before this one: it will find this deadline then, so
        // there is no need to wake it for every render. A render with a shorter limit than
        // the one it sleeps for (after the warm-up's) does wake it.
        if state.idle || state.sleeping_until.is_some_and(|until| deadline < until) {
            self.shared.changed.notify_one();
        }
    }

    /// Ends the render: after this returns, the watchdog will not stop it any more.
    pub fn finish(&self) {
        self.shared.state.lock().expect("watchdog lock").deadline = None;
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.shared.state.lock().expect("watchdog lock").closed = true;
        self.shared.changed.notify_one();
    }
}

fn watch(shared: &Alarm, stop: impl Fn()) {
    let mut state = shared.state.lock().expect("watchdog lock");
    while !state.closed {
        state = match state.deadline {
            None => {
                state.idle = true;
                let mut state = shared.changed.wait(state).expect("watchdog lock");
                state.idle = false;
                state
            }
            Some(deadline) => {
                let now = Instant::now();
                if now >= deadline {
                    stop();
                    state.deadline = None;
                    state
                } else {
                    state.sleeping_until = Some(deadline);
                    let mut state = shared
                        .changed
                        .wait_timeout(state, deadline - now)
                        .expect("watchdog lock")
                        .0;
                    state.sleeping_until = None;
                    state
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn spin(duration: Duration) {
        let until = Instant::now() + duration;
        while Instant::now() < until {
            std::hint::spin_loop();
        }
    }

    #[test]
    fn a_short_limit_after_a_long_one_is_still_kept() {
        let stops = Arc::new(AtomicUsize::new(0));
        let counted = stops.clone();
        let watchdog = Watchdog::spawn(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
        watchdog.start(Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(20));
        watchdog.finish();
        let started = Instant::now();
        watchdog.start(Duration::from_millis(30));
        while stops.load(Ordering::SeqCst) == 0 && started.elapsed() < Duration::from_secs(2) {
            std::thread::sleep(Duration::from_millis(5));
        }
        watchdog.finish();
        assert_eq!(stops.load(Ordering::SeqCst), 1);
        assert!(
            started.elapsed() < Duration::from_millis(500),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn an_overrunning_render_is_stopped_and_a_quick_one_is_not() {
        let stops = Arc::new(AtomicUsize::new(0));
        let counted = stops.clone();
        let limit = Duration::from_millis(20);
        let watchdog = Watchdog::spawn(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
        watchdog.start(limit);
        std::thread::sleep(Duration::from_millis(60));
        watchdog.finish();
        assert_eq!(stops.load(Ordering::SeqCst), 1, "stopped once");
        watchdog.start(limit);
        watchdog.finish();
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(
            stops.load(Ordering::SeqCst),
            1,
            "a finished render is left alone"
        );
    }

    /// Renders that end right around the deadline, back to back: a stop must land in the
    /// render it was meant for, never between renders or early in the next one.
    #[test]
    fn a_stop_never_lands_after_its_render_has_finished() {
        let timeout = Duration::from_micros(300);
        let started: Arc<Mutex<Option<Instant>>> = Arc::default();
        let late = Arc::new(AtomicUsize::new(0));
        let stops = Arc::new(AtomicUsize::new(0));
        let (seen, counted, counted_late) = (started.clone(), stops.clone(), late.clone());
        let watchdog = Watchdog::spawn(move || {
            counted.fetch_add(1, Ordering::SeqCst);
            // A stop slow to land (V8's terminate takes its own lock) must still land inside.
            std::thread::sleep(Duration::from_micros(100));
            let in_its_render = seen
                .lock()
                .unwrap()
                .is_some_and(|start| start.elapsed() >= timeout);
            if !in_its_render {
                counted_late.fetch_add(1, Ordering::SeqCst);
            }
        })
        .unwrap();
        for i in 0..1000u64 {
            *started.lock().unwrap() = Some(Instant::now());
            watchdog.start(timeout);
            spin(Duration::from_micros(200 + (i * 7919) % 200));
            watchdog.finish();
            *started.lock().unwrap() = None;
        }
        assert!(stops.load(Ordering::SeqCst) > 0, "some renders overran");
        assert_eq!(late.load(Ordering::SeqCst), 0, "no stop after its render");
    }
}
