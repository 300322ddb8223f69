//! The loading budget: what the pages in the render threads' hands (waiting for their data,
//! being rendered, being streamed) are reckoned to hold, in V8 and beside it, counted
//! against `--loading-budget-mb`. A page is taken only when its part fits; when it does
//! not, the page is answered at once with its fallback (the client-rendered page), never
//! queued behind other visitors' data. A page that waits holds no render thread: only its
//! part of this budget.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a page is reckoned to hold while its data comes: its boot state and visitor, its
/// loader's call and promise, its answer once it comes.
pub const PAGE_BYTES: usize = 16 << 10;

/// What a page streamed without a shell holds besides: React's render of it, started before
/// its data (`renderToPipeableStream`), and the frame it wrote.
pub const STREAMED_RENDER_BYTES: usize = 96 << 10;

#[derive(Debug)]
pub struct LoadingBudget {
    used: AtomicUsize,
    limit: usize,
}

/// A page's part of the budget, given back when it is dropped (the page ended, however).
#[derive(Debug)]
pub struct Reservation {
    budget: Arc<LoadingBudget>,
    bytes: usize,
}

impl LoadingBudget {
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(Self {
            used: AtomicUsize::new(0),
            limit,
        })
    }

    /// `bytes` of the budget, if they fit.
    pub fn reserve(self: &Arc<Self>, bytes: usize) -> Option<Reservation> {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|total| *total <= self.limit)
            })
            .ok()
            .map(|_| Reservation {
                budget: self.clone(),
                bytes,
            })
    }

    /// What the pages in hand hold now, by the reckoning.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget.used.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_taken_while_their_parts_fit_and_give_them_back_when_they_end() {
        let budget = LoadingBudget::new(3 * PAGE_BYTES);
        let pages: Vec<_> = (0..3)
            .map(|_| budget.reserve(PAGE_BYTES).unwrap())
            .collect();
        assert!(budget.reserve(1).is_none(), "full");
        drop(pages);
        assert_eq!(budget.used(), 0);
        let streamed = budget.reserve(PAGE_BYTES + STREAMED_RENDER_BYTES);
        assert!(
            streamed.is_none(),
            "a part larger than the whole never fits"
        );
    }
}
