//! Markup a call into the bundle handed over through `op_bilingue_markup`, at hand while
//! that call's outbox is read: an entry names each by its index (`markup_op.rs`). A leaf,
//! read by the contract's types and the exchange alike.

use std::cell::RefCell;

use serde::Deserialize;

thread_local! {
    /// The markup handed over by the calls whose outbox is being dispatched on this thread
    /// (see `Outbox::markup`): an entry names each by its index, and takes it.
    static HANDED: RefCell<Vec<Option<String>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `dispatch` with `markup` at hand for the entries that name it.
pub fn with_handed_markup<R>(markup: Vec<String>, dispatch: impl FnOnce() -> R) -> R {
    HANDED.set(markup.into_iter().map(Some).collect());
    let dispatched = dispatch();
    HANDED.set(Vec::new());
    dispatched
}

/// A page's markup as an outbox entry gives it: the text, or (in the host) the index of
/// what the call handed over through `op_bilingue_markup`.
pub fn handed_markup<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Markup {
        Text(String),
        Handed(usize),
    }
    match Markup::deserialize(deserializer)? {
        Markup::Text(text) => Ok(text),
        Markup::Handed(index) => HANDED
            .with_borrow_mut(|handed| handed.get_mut(index).and_then(Option::take))
            .ok_or_else(|| {
                serde::de::Error::custom(format!("no markup was handed over as {index}"))
            }),
    }
}

/// Markup read through [`handed_markup`].
pub struct HandedMarkup(pub String);

impl<'de> Deserialize<'de> for HandedMarkup {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        handed_markup(deserializer).map(HandedMarkup)
    }
}
