//! How the bundle hands the host what a call into it produced: through ops that name their
//! page (`job`) and their kind, as deno_core's own `op_write_sync(rid, buffer)` names what
//! it writes into. Each appends to the outbox kept in the runtime's `OpState`, whether it
//! runs in the call itself or in the microtasks after it; the host takes the outbox once
//! the call and its microtask checkpoint are over (`runtime.rs`), so one call into V8 gives
//! all it produced. Markup crosses as the string it is (`#[string]`: one copy, V8's text
//! to UTF-8), never escaped into JSON; the rest is JSON of the contract's types
//! (`contract.rs`), kept as text and read one entry at a time by the host
//! (`exchange.rs`), so an entry that cannot be read fails its own page alone.
//! Shared with `build.rs` (no `crate::` here): the snapshot and every runtime made from it
//! know the same ops, in the same order.

use deno_core::{OpState, op2};

use super::shell_hold::Holds;

/// What the bundle handed over, in the order it did.
#[derive(Debug, PartialEq)]
pub enum Handed {
    /// A page rendered whole: its markup, and the rest of its result (`RenderResult`).
    Rendered {
        job: u64,
        html: String,
        result: String,
    },
    /// A page that failed in the bundle (its error's stack).
    Failed { job: u64, why: String },
    /// A streamed page's head (`StreamHead`): its stream starts.
    Head { job: u64, head: String },
    /// Its static shell, prerendered: the markup, and what React resumes it from (React's
    /// postponed state, JSON; none when nothing waits).
    Shell {
        job: u64,
        prelude: String,
        postponed: Option<String>,
    },
    /// More of its markup.
    Part { job: u64, html: String },
    /// Its end (`StreamEnd`).
    End { job: u64, end: String },
    /// An API call to make for a page (`Fetch`, which names its page).
    Fetch { call: String },
    /// A line of the bundle's console (`LogLevel`).
    Log { level: String, message: String },
}

/// What the bundle handed over since the host last took it.
#[derive(Debug, Default)]
pub struct Outbox(pub Vec<Handed>);

fn hand(state: &mut OpState, handed: Handed) {
    state.borrow_mut::<Outbox>().0.push(handed);
}

// A page's job is a number that only grows: `#[number]` (a JavaScript number, exact to
// 2^53) rather than `#[smi]`, which would wrap past 2^31 pages in a runtime's life.

#[op2(fast)]
pub fn op_bilingue_rendered(
    state: &mut OpState,
    #[number] job: u64,
    #[string] html: String,
    #[string] result: String,
) {
    hand(state, Handed::Rendered { job, html, result });
}

#[op2(fast)]
pub fn op_bilingue_failed(state: &mut OpState, #[number] job: u64, #[string] why: String) {
    hand(state, Handed::Failed { job, why });
}

#[op2(fast)]
pub fn op_bilingue_head(state: &mut OpState, #[number] job: u64, #[string] head: String) {
    hand(state, Handed::Head { job, head });
}

#[op2]
pub fn op_bilingue_shell(
    state: &mut OpState,
    #[number] job: u64,
    #[string] prelude: String,
    #[string] postponed: Option<String>,
) {
    let shell = Handed::Shell {
        job,
        prelude,
        postponed,
    };
    hand(state, shell);
}

#[op2(fast)]
pub fn op_bilingue_part(state: &mut OpState, #[number] job: u64, #[string] html: String) {
    hand(state, Handed::Part { job, html });
}

#[op2(fast)]
pub fn op_bilingue_end(state: &mut OpState, #[number] job: u64, #[string] end: String) {
    hand(state, Handed::End { job, end });
}

#[op2(fast)]
pub fn op_bilingue_fetch(state: &mut OpState, #[string] call: String) {
    hand(state, Handed::Fetch { call });
}

#[op2(fast)]
pub fn op_bilingue_log(state: &mut OpState, #[string] level: String, #[string] message: String) {
    hand(state, Handed::Log { level, message });
}

/// The one question the bundle asks the host: held page `job` has its data; has its shell
/// gone? Its postponed state if it has (the holes are filled from it), `null` if not: the
/// page is then rendered whole, and its shell will not go (`shell_hold.rs`).
#[op2]
#[string]
pub fn op_bilingue_shell_sent(state: &mut OpState, #[number] job: u64) -> Option<String> {
    let postponed = state.borrow_mut::<Holds>().data_came(job)?;
    Some(postponed.to_string())
}

deno_core::extension!(
    bilingue_outbox,
    ops = [
        op_bilingue_rendered,
        op_bilingue_failed,
        op_bilingue_head,
        op_bilingue_shell,
        op_bilingue_part,
        op_bilingue_end,
        op_bilingue_fetch,
        op_bilingue_log,
        op_bilingue_shell_sent,
    ],
    state = |state| {
        state.put(Outbox::default());
        state.put(Holds::default());
    }
);
