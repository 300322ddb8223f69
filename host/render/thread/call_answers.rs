//! Answers to the loaders' API calls, held by a render thread until the bundle takes them,
//! handed over within a budget of the heap: what many visitors' large answers would take of
//! the heap at once is spread over several calls into the bundle, between which the pages
//! they finished are garbage.

use std::collections::VecDeque;

use crate::render::CallOutcome;

/// The answers handed to the bundle in one call take at most this part of its heap (their
/// bodies; parsed, they take a few times that).
const ANSWERS_SHARE_OF_HEAP: usize = 16;

/// An answer to an API call of page `job`, from the runtime it was asked by (a replaced
/// runtime's late answers are dropped).
pub(super) struct CallAnswer {
    pub runtime: u64,
    pub job: u64,
    pub outcome: CallOutcome,
}

/// Answers come, not yet handed to the bundle, in the order they came.
pub(super) struct HeldAnswers {
    held: VecDeque<CallAnswer>,
    /// The bodies one call into the bundle takes at most (but always one answer).
    budget: usize,
}

impl HeldAnswers {
    /// For a runtime whose heap may grow to `heap_bytes`.
    pub(super) fn new(heap_bytes: usize) -> Self {
        Self {
            held: VecDeque::new(),
            budget: heap_bytes / ANSWERS_SHARE_OF_HEAP,
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    pub(super) fn hold(&mut self, answers: impl IntoIterator<Item = CallAnswer>) {
        self.held.extend(answers);
    }

    /// The answers for runtime `runtime` to hand the bundle in one call, in the order they
    /// came, their bodies within the budget (at least one answer); other runtimes' are
    /// dropped.
    pub(super) fn next_batch(&mut self, runtime: u64) -> Vec<CallAnswer> {
        let mut taken = Vec::new();
        let mut bytes = 0;
        while let Some(next) = self.held.front() {
            if next.runtime != runtime {
                self.held.pop_front();
                continue;
            }
            let size = next.outcome.answer.body.as_ref().map_or(0, String::len);
            if !taken.is_empty() && bytes + size > self.budget {
                break;
            }
            bytes += size;
            taken.push(self.held.pop_front().expect("looked at"));
        }
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::ApiAnswer;

    fn answer(runtime: u64, id: u64, body_bytes: usize) -> CallAnswer {
        CallAnswer {
            runtime,
            job: id,
            outcome: CallOutcome {
                answer: ApiAnswer {
                    id,
                    body: Some("x".repeat(body_bytes)),
                    ..ApiAnswer::default()
                },
                per_visitor: false,
            },
        }
    }

    fn ids(batch: &[CallAnswer]) -> Vec<u64> {
        batch
            .iter()
            .map(|answer| answer.outcome.answer.id)
            .collect()
    }

    #[test]
    fn the_budget_is_a_sixteenth_of_the_heap() {
        assert_eq!(HeldAnswers::new(64 << 20).budget, 4 << 20);
    }

    #[test]
    fn answers_go_to_the_bundle_in_their_order_within_the_budget() {
        let mut held = HeldAnswers::new(16 * 100);
        held.hold([
            answer(0, 1, 40),
            answer(0, 2, 60),
            answer(0, 3, 1),
            answer(0, 4, 0),
        ]);
        assert_eq!(
            ids(&held.next_batch(0)),
            [1, 2],
            "100 bytes fit, 101 do not"
        );
        assert_eq!(ids(&held.next_batch(0)), [3, 4]);
        assert!(held.is_empty());
        assert!(held.next_batch(0).is_empty());
    }

    #[test]
    fn an_answer_larger_than_the_budget_still_goes_alone() {
        let mut held = HeldAnswers::new(16 * 100);
        held.hold([answer(0, 1, 500), answer(0, 2, 500), answer(0, 3, 10)]);
        assert_eq!(ids(&held.next_batch(0)), [1]);
        assert_eq!(ids(&held.next_batch(0)), [2]);
        assert_eq!(ids(&held.next_batch(0)), [3]);
    }

    #[test]
    fn a_replaced_runtimes_answers_are_dropped() {
        let mut held = HeldAnswers::new(16 * 100);
        held.hold([
            answer(0, 1, 10),
            answer(1, 2, 10),
            answer(0, 3, 10),
            answer(1, 4, 10),
        ]);
        assert_eq!(ids(&held.next_batch(1)), [2, 4]);
        assert!(held.is_empty());
    }
}
