//! How a page's markup leaves V8: as a string handed to this op, which the host takes as
//! it is (one copy, V8's text to UTF-8), not escaped into the outbox's JSON and unescaped
//! again. The outbox then names the markup by its index among what the call handed over.
//! Shared with `build.rs`: the snapshot and every runtime made from it know the same ops.

use deno_core::{OpState, op2};

/// The markup handed over since the host last took it, in order.
#[derive(Debug, Default)]
pub struct Handed(pub Vec<String>);

/// Keeps `html`; its index, which the outbox names it by.
#[op2(fast)]
#[smi]
pub fn op_bilingue_markup(state: &mut OpState, #[string] html: &str) -> u32 {
    let handed = state.borrow_mut::<Handed>();
    handed.0.push(html.to_owned());
    u32::try_from(handed.0.len() - 1).unwrap_or(u32::MAX)
}

deno_core::extension!(
    bilingue_markup,
    ops = [op_bilingue_markup],
    state = |state| {
        state.put(Handed::default());
    }
);
