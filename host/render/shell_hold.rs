//! A visitor's page whose static shell is kept waits a moment for its data before the shell
//! goes (`--shell-hold`): data that comes within it makes the page whole, rendered as any
//! page with its data and sent in one piece; past it, the shell goes, and the holes follow
//! in the same answer once the data comes. Two sides decide, each once: the host's handler,
//! when the moment is over, sends the shell; the bundle, when the data is there, renders
//! the page whole (it asks through `op_bilingue_shell_sent`). Whichever comes first wins,
//! and the other follows it. A page whose data came too late for its last hold is not held
//! (`DataPace`): its shell goes at once, as the hold would only have delayed it, until a
//! visitor's data comes within the hold again. Shared with `build.rs` (no `crate::` here),
//! for the op.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

const HOLDING: u8 = 0;
const WHOLE: u8 = 1;
const SHELL_SENT: u8 = 2;

/// How long a page's data took to come for its last visitor (whose data came, or whose
/// hold ran out first): whether holding its shell is likely to pay. Kept with the page's
/// shell. What it tells a visitor is only whether their shell waits (at most the hold) or
/// goes at once: their document is the same either way, its answer a stream's (the
/// shell's status, no validator, kept by no one) as any visitor's whose data outlasts the
/// hold.
#[derive(Debug, Default)]
pub struct DataPace {
    /// Microseconds; 0 until a visitor's data has come.
    last: AtomicU64,
}

impl DataPace {
    /// Whether the data is likely to come within `hold`: it did for the last visitor.
    pub fn comes_within(&self, hold: Duration) -> bool {
        self.last.load(Ordering::Relaxed) <= micros(hold)
    }

    /// A visitor's data came `took` after they asked.
    pub fn came_after(&self, took: Duration) {
        self.last.store(micros(took), Ordering::Relaxed);
    }

    /// A visitor's hold of `hold` ran out before their data came.
    pub fn not_within(&self, hold: Duration) {
        self.last.fetch_max(micros(hold) + 1, Ordering::Relaxed);
    }
}

fn micros(duration: Duration) -> u64 {
    u64::try_from(duration.as_micros()).unwrap_or(u64::MAX - 1)
}

/// One page's hold: which side has decided, and what its holes resume from.
#[derive(Debug)]
pub struct ShellHold {
    state: AtomicU8,
    /// React's postponed state, as the bundle handed it over with the shell (JSON).
    postponed: Arc<str>,
    /// When the page was asked for, and its shell's record of how soon data comes.
    asked: Instant,
    pace: Arc<DataPace>,
}

impl ShellHold {
    pub fn new(postponed: Arc<str>, pace: Arc<DataPace>) -> Self {
        Self {
            state: AtomicU8::new(HOLDING),
            postponed,
            asked: Instant::now(),
            pace,
        }
    }

    /// The handler sends the shell: whether it may (the page was not taken whole first).
    pub fn send_shell(&self) -> bool {
        self.decide(SHELL_SENT)
    }

    /// The hold of `hold` ran out before the data came: the handler sends the shell, if it
    /// may (the page was not taken whole meanwhile), and only then is the page's data known
    /// to have come too late for it.
    pub fn ran_out(&self, hold: Duration) -> bool {
        let sent = self.send_shell();
        if sent {
            self.pace.not_within(hold);
        }
        sent
    }

    /// The page goes whole: whether it may (its shell has not gone).
    pub fn take_whole(&self) -> bool {
        self.decide(WHOLE)
    }

    /// Whether the shell has gone: the rest of the page is a stream's.
    pub fn shell_sent(&self) -> bool {
        self.state.load(Ordering::Acquire) == SHELL_SENT
    }

    fn decide(&self, to: u8) -> bool {
        match self
            .state
            .compare_exchange(HOLDING, to, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(decided) => decided == to,
        }
    }
}

/// The holds of the pages a runtime is rendering, by job, for the bundle to ask about; the
/// pages own them (a hold whose page has ended is gone).
#[derive(Debug)]
pub struct Holds {
    by_job: HashMap<u64, Weak<ShellHold>>,
    /// How many there may be before those of pages that have ended are dropped: twice
    /// what the last pruning left, so that thousands of live holds (a crowd) are not looked
    /// over at every insert.
    prune_at: usize,
}

/// The fewest holds at which those of pages that have ended are dropped.
const HOLDS_BEFORE_PRUNING: usize = 64;

impl Default for Holds {
    fn default() -> Self {
        Self {
            by_job: HashMap::new(),
            prune_at: HOLDS_BEFORE_PRUNING,
        }
    }
}

impl Holds {
    pub fn insert(&mut self, job: u64, hold: &Arc<ShellHold>) {
        if self.by_job.len() >= self.prune_at {
            self.by_job.retain(|_, hold| hold.strong_count() > 0);
            self.prune_at = HOLDS_BEFORE_PRUNING.max(2 * self.by_job.len());
        }
        self.by_job.insert(job, Arc::downgrade(hold));
    }

    /// The bundle has the data of held page `job`: `None` if the page goes whole (and so
    /// its shell never will), else what its holes resume from. A page not held, or ended,
    /// goes whole: a page that has ended hands nothing over.
    pub fn data_came(&mut self, job: u64) -> Option<Arc<str>> {
        let hold = self.by_job.remove(&job)?.upgrade()?;
        hold.pace.came_after(hold.asked.elapsed());
        (!hold.take_whole()).then(|| hold.postponed.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hold() -> Arc<ShellHold> {
        Arc::new(ShellHold::new(r#"{"state":1}"#.into(), Default::default()))
    }

    #[test]
    fn a_page_is_held_while_its_last_visitors_data_came_within_the_hold() {
        let hold = Duration::from_millis(20);
        let pace = DataPace::default();
        assert!(pace.comes_within(hold), "no visitor yet: held");
        pace.came_after(Duration::from_millis(5));
        assert!(pace.comes_within(hold));
        pace.not_within(hold);
        assert!(!pace.comes_within(hold), "the last hold ran out: not held");
        pace.came_after(Duration::from_millis(2_000));
        assert!(!pace.comes_within(hold));
        pace.came_after(Duration::from_millis(3));
        assert!(pace.comes_within(hold), "data in time again: held again");
        pace.came_after(Duration::from_millis(1));
        pace.not_within(hold);
        assert!(!pace.comes_within(hold));
    }

    /// The data came just within the hold, and the page was being rendered whole when the
    /// hold's time-out fired: the page went whole, its data in time.
    #[test]
    fn a_hold_that_runs_out_after_its_page_went_whole_leaves_the_page_held() {
        let hold_for = Duration::from_millis(20);
        let pace = Arc::new(DataPace::default());
        let mut holds = Holds::default();
        let held = Arc::new(ShellHold::new("{}".into(), pace.clone()));
        holds.insert(1, &held);
        assert_eq!(holds.data_came(1), None, "whole");
        assert!(!held.ran_out(hold_for), "the page went whole: no shell");
        assert!(pace.comes_within(hold_for), "its data came in time");
        let late = Arc::new(ShellHold::new("{}".into(), pace.clone()));
        assert!(late.ran_out(hold_for), "no data yet: the shell goes");
        assert!(!pace.comes_within(hold_for), "too late for the hold");
    }

    #[test]
    fn the_data_coming_says_how_long_it_took_for_the_page() {
        let pace = Arc::new(DataPace::default());
        let mut holds = Holds::default();
        let held = Arc::new(ShellHold::new("{}".into(), pace.clone()));
        holds.insert(7, &held);
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(holds.data_came(7), None);
        assert!(!pace.comes_within(Duration::from_millis(20)));
        assert!(pace.comes_within(Duration::from_millis(1_000)));
    }

    #[test]
    fn the_first_side_to_decide_wins_and_the_other_follows() {
        let data_first = hold();
        assert!(data_first.take_whole());
        assert!(
            !data_first.send_shell(),
            "the page went whole: no shell after it"
        );
        assert!(!data_first.shell_sent());

        let shell_first = hold();
        assert!(shell_first.send_shell());
        assert!(shell_first.shell_sent());
        assert!(
            !shell_first.take_whole(),
            "the shell has gone: the holes follow it"
        );
        assert!(
            shell_first.send_shell(),
            "deciding again keeps the decision"
        );
    }

    #[test]
    fn the_bundle_resumes_only_a_page_whose_shell_has_gone() {
        let mut holds = Holds::default();
        let (whole, streamed) = (hold(), hold());
        holds.insert(1, &whole);
        holds.insert(2, &streamed);
        assert!(streamed.send_shell());
        assert_eq!(holds.data_came(1), None, "its data came first: whole");
        assert!(!whole.send_shell());
        assert_eq!(holds.data_came(2).as_deref(), Some(r#"{"state":1}"#));
        assert_eq!(holds.data_came(2), None, "asked once");
    }

    #[test]
    fn the_holds_of_pages_that_ended_are_dropped() {
        let mut holds = Holds::default();
        for job in 0..HOLDS_BEFORE_PRUNING as u64 {
            holds.insert(job, &hold());
        }
        assert_eq!(
            holds.by_job.len(),
            HOLDS_BEFORE_PRUNING,
            "none pruned below the bound"
        );
        assert_eq!(holds.data_came(0), None, "an ended page hands nothing over");
        let live = hold();
        assert!(live.send_shell());
        holds.insert(100, &live);
        holds.insert(101, &hold());
        assert_eq!(holds.by_job.len(), 2, "the ended pages' holds went");
        assert!(holds.data_came(100).is_some(), "a live page's hold is kept");
    }

    #[test]
    fn many_live_holds_are_looked_over_once_each_time_they_double() {
        let mut holds = Holds::default();
        let live: Vec<_> = (0..1000).map(|_| hold()).collect();
        for (job, hold) in live.iter().enumerate() {
            holds.insert(job as u64, hold);
        }
        assert_eq!(holds.by_job.len(), 1000, "every live hold is kept");
        assert_eq!(holds.prune_at, 1024, "pruned at 64, 128, 256 and 512 only");
        drop(live);
        holds.insert(1000, &hold());
        assert_eq!(
            holds.by_job.len(),
            1001,
            "below the next bound: not pruned yet"
        );
        for job in 1001..1024 {
            holds.insert(job, &hold());
        }
        holds.insert(1024, &hold());
        assert_eq!(
            holds.by_job.len(),
            1,
            "past it, the ended pages' holds went"
        );
        assert_eq!(holds.prune_at, HOLDS_BEFORE_PRUNING);
    }
}
