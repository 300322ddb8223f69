//! Answers to the loaders' API calls, held by a render thread until the bundle takes them,
//! handed over within a budget of the heap: what many visitors' large answers would take of
//! the heap at once is spread over several calls into the bundle, between which the pages
//! they finished are garbage. An answer that would take more than half the heap by itself
//! is refused before V8 sees it: parsing it (`JSON.parse` cannot be interrupted) could
//! grow the heap past what the runtime may ever take, and V8 would end the process.

use std::collections::VecDeque;

use crate::render::contract::ApiAnswer;
use crate::render::page::CallOutcome;

/// The answers handed to the bundle in one call cost at most this part of its heap.
const ANSWERS_SHARE_OF_HEAP: usize = 8;

/// Answers handed to the bundle in one call at most: each page they finish is rendered in
/// that call, and a thread looks at the pages asked for between two calls, so a crowd's
/// answers coming at once never hold a new visitor's first byte for long.
const ANSWERS_PER_CALL: usize = 16;

/// One answer may cost at most this part of the heap.
const ONE_ANSWER_SHARE_OF_HEAP: usize = 2;

/// What V8 takes at most for an object or an array parsed from JSON (its header and the
/// room it keeps for properties or elements), and for each value or property in one.
const CONTAINER_BYTES: usize = 64;
const SLOT_BYTES: usize = 16;

/// An answer to an API call of page `job`, from the runtime it was asked by (a replaced
/// runtime's late answers are dropped).
pub(super) struct CallAnswer {
    pub runtime: u64,
    pub job: u64,
    pub outcome: CallOutcome,
}

/// Answers come, not yet handed to the bundle, in the order they came, each with what it
/// costs the heap. Those for pages of which nothing has gone yet lead every other batch: a
/// crowd's streamed pages have their first bytes, and an answer come after theirs must not
/// hold a fresh visitor's first byte behind all of them; nor may a stream of such answers
/// hold the crowd's for ever.
pub(super) struct HeldAnswers {
    /// For pages of which nothing has been sent.
    first: VecDeque<(CallAnswer, usize)>,
    /// For pages on their way (their head, their shell sent).
    rest: VecDeque<(CallAnswer, usize)>,
    /// Whether the next batch starts with `rest` (when both queues hold answers).
    rest_leads: bool,
    /// What one call into the bundle may cost at most (but always one answer).
    budget: usize,
    /// What one answer may cost at most.
    most: usize,
}

impl HeldAnswers {
    /// For a runtime whose heap may grow to `heap_bytes`.
    pub(super) fn new(heap_bytes: usize) -> Self {
        Self {
            first: VecDeque::new(),
            rest: VecDeque::new(),
            rest_leads: false,
            budget: heap_bytes / ANSWERS_SHARE_OF_HEAP,
            most: heap_bytes / ONE_ANSWER_SHARE_OF_HEAP,
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.first.is_empty() && self.rest.is_empty()
    }

    /// Holds `answers`, ahead of the others those whose page nothing has been sent of
    /// (`sent_nothing`); one that would cost more than its share of the heap becomes a
    /// failed call, which the page shows as its data's error.
    pub(super) fn hold(
        &mut self,
        answers: impl IntoIterator<Item = CallAnswer>,
        sent_nothing: impl Fn(u64) -> bool,
    ) {
        for mut answer in answers {
            let body = answer.outcome.answer.body.as_deref().unwrap_or_default();
            let cost = heap_cost(body);
            if cost > self.most {
                let why = format!(
                    "the answer ({} bytes) would take about {} MiB of the render's heap, more than half of --render-heap-mb ({} MiB)",
                    body.len(),
                    cost.div_ceil(1 << 20),
                    (self.most * ONE_ANSWER_SHARE_OF_HEAP) >> 20
                );
                tracing::warn!(why, "a loader's answer was refused");
                let refused = ApiAnswer {
                    status: answer.outcome.answer.status,
                    ..ApiAnswer::failed(answer.outcome.answer.id, why)
                };
                answer.outcome.answer = refused;
            }
            let queue = match sent_nothing(answer.job) {
                true => &mut self.first,
                false => &mut self.rest,
            };
            queue.push_back((answer, cost.min(self.most)));
        }
    }

    /// The answers for runtime `runtime` to hand the bundle in one call, each kind in the
    /// order they came, their cost within the budget and at most [`ANSWERS_PER_CALL`] (at
    /// least one answer); other runtimes' are dropped. Those of pages nothing has been sent
    /// of come first, but every other batch when both kinds wait: then one batch of the
    /// others' goes between two of theirs.
    pub(super) fn next_batch(&mut self, runtime: u64) -> Vec<CallAnswer> {
        let mut taken = Vec::new();
        let mut spent = 0;
        let both = !self.first.is_empty() && !self.rest.is_empty();
        let rest_leads = both && self.rest_leads;
        if both {
            self.rest_leads = !self.rest_leads;
        }
        let order = match rest_leads {
            true => [&mut self.rest, &mut self.first],
            false => [&mut self.first, &mut self.rest],
        };
        for held in order {
            while let Some((next, cost)) = held.front() {
                if next.runtime != runtime {
                    held.pop_front();
                    continue;
                }
                if !taken.is_empty()
                    && (spent + cost > self.budget || taken.len() == ANSWERS_PER_CALL)
                {
                    return taken;
                }
                spent += cost;
                taken.push(held.pop_front().expect("looked at").0);
            }
        }
        taken
    }
}

/// What an answer's body may take of the heap once the bundle has it, at most: the text
/// of the answers as handed over (with JSON's escapes; two bytes a character, should any be
/// outside Latin-1), the body as a string of its own, and, when it looks like JSON, the
/// objects, arrays and values parsing it makes (their strings are the body's, counted).
pub(super) fn heap_cost(body: &str) -> usize {
    let mut escaped = 0;
    let mut containers = 0;
    let mut slots = 0;
    let mut in_string = false;
    let mut escaping = false;
    for &byte in body.as_bytes() {
        escaped += match byte {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..0x20 => 6,
            _ => 1,
        };
        if in_string {
            match (escaping, byte) {
                (true, _) => escaping = false,
                (false, b'\\') => escaping = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => containers += 1,
            b',' | b':' => slots += 1,
            _ => {}
        }
    }
    let looks_like_json = matches!(body.trim_start().as_bytes().first(), Some(b'{' | b'['));
    let parsed = match looks_like_json {
        true => containers * (CONTAINER_BYTES + SLOT_BYTES) + slots * SLOT_BYTES,
        false => 0,
    };
    2 * escaped + 2 * body.len() + parsed
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
                data_keys: crate::data_keys::DataKeys::default(),
            },
        }
    }

    /// For the tests of the budget and the order: every page has had its first bytes.
    fn no_page_waits_first(_job: u64) -> bool {
        false
    }

    fn ids(batch: &[CallAnswer]) -> Vec<u64> {
        batch
            .iter()
            .map(|answer| answer.outcome.answer.id)
            .collect()
    }

    #[test]
    fn the_budget_is_an_eighth_of_the_heap_and_one_answer_half_of_it() {
        let held = HeldAnswers::new(64 << 20);
        assert_eq!((held.budget, held.most), (8 << 20, 32 << 20));
    }

    #[test]
    fn an_answer_costs_its_text_its_string_and_what_parsing_it_makes() {
        assert_eq!(heap_cost(""), 0);
        assert_eq!(heap_cost("abc"), 2 * 3 + 2 * 3);
        assert_eq!(heap_cost("a\"b"), 2 * 4 + 2 * 3, "an escaped quote");
        assert_eq!(heap_cost("\u{1}"), 2 * 6 + 2, "a control character");
        // `[{},{}]`: three containers, one comma.
        assert_eq!(heap_cost("[{},{}]"), 2 * 7 + 2 * 7 + 3 * 80 + 16);
        // Brackets and commas inside strings are text.
        assert_eq!(heap_cost(r#"["[,{"]"#), 2 * 9 + 2 * 7 + 80);
        assert_eq!(heap_cost(r#"["\"[,{"]"#), 2 * 13 + 2 * 9 + 80);
        assert_eq!(heap_cost("not [json], {}"), 2 * 14 + 2 * 14);
    }

    #[test]
    fn an_answer_that_would_fill_half_the_heap_is_refused_before_v8() {
        // 1.4 million empty objects in 4 MiB: what ended the process at a 16 MiB heap.
        let objects = format!("[{}{{}}]", "{},".repeat(1_398_000));
        for heap_mb in [16, 32, 48, 128] {
            let mut held = HeldAnswers::new(heap_mb << 20);
            let mut big = answer(0, 1, 0);
            big.outcome.answer.body = Some(objects.clone());
            big.outcome.answer.status = Some(200);
            held.hold([big, answer(0, 2, 10)], no_page_waits_first);
            let batch = held.next_batch(0);
            let refused = &batch[0].outcome.answer;
            assert_eq!(refused.body, None, "{heap_mb} MiB");
            assert_eq!(refused.status, Some(200), "the API's own status is kept");
            let why = refused.error.as_deref().unwrap();
            assert!(why.contains(&format!("({heap_mb} MiB)")), "{why}");
        }
        let mut held = HeldAnswers::new(512 << 20);
        let mut big = answer(0, 1, 0);
        big.outcome.answer.body = Some(objects);
        held.hold([big], no_page_waits_first);
        assert!(
            held.next_batch(0)[0].outcome.answer.body.is_some(),
            "room enough"
        );
    }

    #[test]
    fn answers_go_to_the_bundle_in_their_order_within_the_budget() {
        // Plain text costs four bytes a byte (its text handed over, and its string).
        let mut held = HeldAnswers::new(8 * 400);
        held.hold(
            [
                answer(0, 1, 40),
                answer(0, 2, 60),
                answer(0, 3, 1),
                answer(0, 4, 0),
            ],
            no_page_waits_first,
        );
        assert_eq!(
            ids(&held.next_batch(0)),
            [1, 2],
            "400 bytes of cost fit, 404 do not"
        );
        assert_eq!(ids(&held.next_batch(0)), [3, 4]);
        assert!(held.is_empty());
        assert!(held.next_batch(0).is_empty());
    }

    #[test]
    fn at_most_sixteen_answers_go_in_one_call() {
        let mut held = HeldAnswers::new(64 << 20);
        held.hold((0..40).map(|id| answer(0, id, 10)), no_page_waits_first);
        assert_eq!(held.next_batch(0).len(), ANSWERS_PER_CALL);
        assert_eq!(held.next_batch(0).len(), ANSWERS_PER_CALL);
        assert_eq!(held.next_batch(0).len(), 8);
    }

    #[test]
    fn an_answer_larger_than_the_budget_still_goes_alone() {
        let mut held = HeldAnswers::new(8 * 400 * 4);
        held.hold(
            [answer(0, 1, 500), answer(0, 2, 500), answer(0, 3, 10)],
            no_page_waits_first,
        );
        assert_eq!(ids(&held.next_batch(0)), [1]);
        assert_eq!(ids(&held.next_batch(0)), [2]);
        assert_eq!(ids(&held.next_batch(0)), [3]);
    }

    #[test]
    fn a_replaced_runtimes_answers_are_dropped() {
        let mut held = HeldAnswers::new(8 * 400);
        held.hold(
            [
                answer(0, 1, 10),
                answer(1, 2, 10),
                answer(0, 3, 10),
                answer(1, 4, 10),
            ],
            no_page_waits_first,
        );
        assert_eq!(ids(&held.next_batch(1)), [2, 4]);
        assert!(held.is_empty());
    }

    /// A crowd's answers came, then one for a page nothing has been sent of (a crawler's,
    /// whole): that one goes in the next call, not after the crowd's.
    #[test]
    fn an_answer_for_a_page_nothing_has_been_sent_of_goes_first() {
        let mut held = HeldAnswers::new(64 << 20);
        let fresh = 1_000;
        held.hold((0..40).map(|id| answer(0, id, 10)), |job| job == fresh);
        held.hold([answer(0, fresh, 10), answer(0, 40, 10)], |job| {
            job == fresh
        });
        let batch = ids(&held.next_batch(0));
        assert_eq!(batch[0], fresh);
        assert_eq!(
            batch[1..],
            (0..ANSWERS_PER_CALL as u64 - 1).collect::<Vec<_>>()
        );
        let rest: Vec<u64> = std::iter::from_fn(|| Some(held.next_batch(0)))
            .take_while(|batch| !batch.is_empty())
            .flat_map(|batch| ids(&batch))
            .collect();
        assert_eq!(rest, (ANSWERS_PER_CALL as u64 - 1..=40).collect::<Vec<_>>());
    }

    /// Answers for pages nothing has been sent of, coming as fast as the bundle takes them,
    /// still let the others through: one batch of theirs in two.
    #[test]
    fn the_others_answers_go_in_every_other_batch_however_many_come_first() {
        // Each answer fills a batch by itself.
        let mut held = HeldAnswers::new(8 * 400);
        let urgent = |job: u64| job >= 100;
        held.hold((0..3).map(|id| answer(0, id, 100)), urgent);
        let mut order = Vec::new();
        for fresh in 100..106 {
            held.hold([answer(0, fresh, 100)], urgent);
            order.extend(ids(&held.next_batch(0)));
        }
        while !held.is_empty() {
            order.extend(ids(&held.next_batch(0)));
        }
        assert_eq!(order, [100, 0, 101, 1, 102, 2, 103, 104, 105]);
    }
}
