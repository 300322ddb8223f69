//! Renders under way for pages missing from the cache: the first request for a page leads
//! its render, the others wait until the lead is gone (settled, failed or dropped).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

use tokio::sync::watch;

use crate::lang::Language;

pub type Key = (Language, String);

#[derive(Default)]
pub struct Flights(Mutex<HashMap<Key, watch::Receiver<()>>>);

/// A render under way for a page missing from the cache.
pub enum Flight<'a> {
    /// This request renders it; the others wait until this is dropped.
    Lead(Lead<'a>),
    /// Another request renders it: resolves when that one is done.
    Follow(Pin<Box<dyn Future<Output = ()> + Send>>),
}

pub struct Lead<'a> {
    flights: &'a Flights,
    key: Key,
    _landed: watch::Sender<()>,
}

impl Drop for Lead<'_> {
    fn drop(&mut self) {
        self.flights
            .0
            .lock()
            .expect("flights lock")
            .remove(&self.key);
    }
}

impl Flights {
    /// Joins the render of `key`, or leads it.
    pub fn join(&self, key: &Key) -> Flight<'_> {
        let mut flights = self.0.lock().expect("flights lock");
        if let Some(landed) = flights.get(key) {
            let mut landed = landed.clone();
            // Resolves when the lead's sender is dropped.
            return Flight::Follow(Box::pin(
                async move { while landed.changed().await.is_ok() {} },
            ));
        }
        let (sender, landed) = watch::channel(());
        flights.insert(key.clone(), landed);
        Flight::Lead(Lead {
            flights: self,
            key: key.clone(),
            _landed: sender,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: &str) -> Key {
        (crate::lang::demo().by_code(code).unwrap(), "/".into())
    }

    #[tokio::test]
    async fn one_request_leads_the_render_of_a_missing_page_and_the_others_wait_for_it() {
        let flights = Flights::default();
        let Flight::Lead(lead) = flights.join(&key("fr")) else {
            panic!("the first leads")
        };
        let Flight::Follow(landed) = flights.join(&key("fr")) else {
            panic!("the second follows")
        };
        assert!(
            matches!(flights.join(&key("en")), Flight::Lead(_)),
            "another page is another flight"
        );
        let waiting = tokio::spawn(landed);
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "waits while the lead renders");
        drop(lead);
        waiting.await.unwrap();
        assert!(
            matches!(flights.join(&key("fr")), Flight::Lead(_)),
            "the flight is over"
        );
    }
}
