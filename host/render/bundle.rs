//! The server bundle a render thread starts from: a snapshot, or a script.

use std::sync::Arc;

/// The server bundle a render thread starts from. A process uses one kind only: V8 shares
/// one read-only heap between its isolates, and isolates made from the build's snapshot
/// cannot live beside isolates made without it.
#[derive(Debug, Clone)]
pub enum Bundle {
    /// A V8 startup snapshot with the bundle already evaluated (made by build.rs).
    Snapshot(&'static [u8]),
    /// The bundle's source, evaluated when a runtime starts (tests and development).
    Script(Arc<str>),
}
