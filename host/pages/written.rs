//! What step 5 hands step 6: a page as written, of one of its kinds. Every kind is
//! answered by `answer::send`, with the same headers and the cache's turn settled the
//! same way, from who may keep it (`sharing`).

use super::document::WholeDocument;
use super::streamed::StreamedPage;

pub enum Written {
    /// A page rendered whole: its document, markup and data in it.
    Whole(WholeDocument),
    /// A page sent as it renders: its frame now, the rest as it comes.
    Frame(Box<StreamedPage>),
    /// The client-rendered page, standing in for a failed render.
    StandIn(WholeDocument),
    /// To a crawler whose page failed to render: a 503 asking it to come back later, with
    /// this text in the page's language.
    ComeBackLater(String),
}
