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
    // Not serde's untagged enum: that buffers the value and, for an index, first fails to
    // read it as text, writing the error out, for every part of every page.
    enum Markup {
        Text(String),
        Handed(u64),
    }
    struct TextOrIndex;
    impl serde::de::Visitor<'_> for TextOrIndex {
        type Value = Markup;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("the markup, or the index it was handed over as")
        }

        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Markup, E> {
            Ok(Markup::Text(text.to_owned()))
        }

        fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Markup, E> {
            Ok(Markup::Text(text))
        }

        fn visit_u64<E: serde::de::Error>(self, index: u64) -> Result<Markup, E> {
            Ok(Markup::Handed(index))
        }
    }
    match deserializer.deserialize_any(TextOrIndex)? {
        Markup::Text(text) => Ok(text),
        Markup::Handed(index) => HANDED
            .with_borrow_mut(|handed| {
                let index = usize::try_from(index).ok()?;
                handed.get_mut(index).and_then(Option::take)
            })
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

#[cfg(test)]
mod tests {
    use super::{HandedMarkup, with_handed_markup};

    fn read(json: &str) -> Result<String, serde_json::Error> {
        serde_json::from_str::<HandedMarkup>(json).map(|markup| markup.0)
    }

    #[test]
    fn markup_is_its_text_or_what_was_handed_over_once_as_its_index() {
        let handed = vec!["<p>zero</p>".to_string(), "<p>un</p>".to_string()];
        with_handed_markup(handed, || {
            assert_eq!(read("1").unwrap(), "<p>un</p>");
            assert!(read("1").is_err(), "taken once");
            assert_eq!(read(r#""<p>\u00e9</p>""#).unwrap(), "<p>é</p>");
            assert_eq!(read(r#""plain""#).unwrap(), "plain");
            assert!(read("2").is_err(), "never handed over");
            assert!(read("-1").is_err());
            assert!(read("0.5").is_err());
            assert!(read("null").is_err());
            assert_eq!(read("0").unwrap(), "<p>zero</p>");
        });
        assert!(read("0").is_err(), "nothing at hand outside a dispatch");
    }
}
