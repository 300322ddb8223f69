//! Word to a page's API calls that the page is gone before its end: its client went away
//! (a streamed page whose connection closed), or it failed (its runtime broke or was
//! replaced, it ran past its time). A call still waiting for its answer is cut then,
//! rather than holding the API and a connection to it until it answers for no one. A call
//! of a page that finished runs to its own end.

use tokio::sync::watch;

/// The side a page keeps: it says when the page is gone (its client left, or it failed).
#[derive(Debug)]
pub struct Departure(watch::Sender<bool>);

/// The side a call of the page waits on.
#[derive(Debug)]
pub struct ClientLeft(watch::Receiver<bool>);

impl Departure {
    pub fn new() -> Self {
        Self(watch::Sender::new(false))
    }

    /// What a call of the page waits on.
    pub fn watch(&self) -> ClientLeft {
        ClientLeft(self.0.subscribe())
    }

    /// The page is gone (its client left, or it failed): every call watching is cut.
    pub fn left(self) {
        self.0.send_replace(true);
    }
}

impl ClientLeft {
    /// Settles once the page is gone before its end; never, if it finishes.
    pub async fn wait(mut self) {
        if self.0.wait_for(|left| *left).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Whether `left` settles within 50 ms (for the tests of whoever cuts calls).
#[cfg(test)]
pub fn settles(left: ClientLeft) -> bool {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::timeout(std::time::Duration::from_millis(50), left.wait())
            .await
            .is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_hears_that_its_client_left_even_after_the_page_is_gone() {
        let departure = Departure::new();
        let (before, after) = (departure.watch(), departure.watch());
        departure.left();
        assert!(settles(before));
        assert!(settles(after));
    }

    #[test]
    fn a_page_that_ends_otherwise_cuts_none_of_its_calls() {
        let departure = Departure::new();
        let call = departure.watch();
        drop(departure);
        assert!(!settles(call));
    }
}
