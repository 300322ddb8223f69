//! The static shells of the pages that stream, prerendered once and kept: a page's shell
//! is what React renders of it before its data comes (the head's text, the frame, each
//! part that waits showing its fallback), the same for every visitor of that page, so the
//! host sends it the moment a visitor asks, before any render thread has looked at the
//! request; the thread then only fills the holes (`resume`). Kept per page (language and
//! path, parameters included), a bounded number, the oldest dropped first; a new bundle
//! (development) starts with none.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use super::contract::{BootState, StreamHead};

/// Shells kept at most: a page with parameters has one per value asked for.
pub const SHELLS_KEPT: usize = 512;

/// Which page a shell is of.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShellKey {
    language: &'static str,
    path: String,
}

impl ShellKey {
    pub fn of(boot: &BootState) -> Self {
        Self {
            language: boot.language.code(),
            path: boot.path.clone(),
        }
    }
}

/// A page's shell as the host sends it: the head's text, the markup React prerendered,
/// and React's postponed state, which the render resumes from.
#[derive(Debug)]
pub struct KeptShell {
    pub head: StreamHead,
    pub prelude: Arc<str>,
    pub postponed: Arc<str>,
}

#[derive(Debug, Default)]
pub struct Shells {
    table: Mutex<Table>,
}

#[derive(Debug, Default)]
struct Table {
    by_key: HashMap<ShellKey, Arc<KeptShell>>,
    /// Keys in the order they were kept, for the oldest to go first.
    order: VecDeque<ShellKey>,
}

impl Shells {
    pub fn get(&self, key: &ShellKey) -> Option<Arc<KeptShell>> {
        self.table
            .lock()
            .expect("shells lock")
            .by_key
            .get(key)
            .cloned()
    }

    /// Keeps `shell`; past [`SHELLS_KEPT`], the oldest goes.
    pub fn keep(&self, key: ShellKey, shell: KeptShell) {
        let mut table = self.table.lock().expect("shells lock");
        if table.by_key.insert(key.clone(), Arc::new(shell)).is_none() {
            table.order.push_back(key);
        }
        while table.order.len() > SHELLS_KEPT {
            let oldest = table.order.pop_front().expect("longer than the bound");
            table.by_key.remove(&oldest);
        }
    }

    /// A new bundle: its pages' shells are to be made again.
    pub fn clear(&self) {
        *self.table.lock().expect("shells lock") = Table::default();
    }

    /// How many shells are kept.
    pub fn kept(&self) -> usize {
        self.table.lock().expect("shells lock").by_key.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;

    fn key(path: &str) -> ShellKey {
        ShellKey {
            language: Language::default_language().code(),
            path: path.into(),
        }
    }

    fn shell(prelude: &str) -> KeptShell {
        KeptShell {
            head: StreamHead {
                status: 200,
                title: "t".into(),
                description: "d".into(),
                page: crate::render::PageIdentity::everywhere(None, "/"),
            },
            prelude: prelude.into(),
            postponed: "{}".into(),
        }
    }

    #[test]
    fn shells_are_kept_per_page_and_the_oldest_goes_past_the_bound() {
        let shells = Shells::default();
        for i in 0..SHELLS_KEPT + 3 {
            shells.keep(key(&format!("/languages/{i}")), shell(&i.to_string()));
        }
        assert_eq!(shells.kept(), SHELLS_KEPT);
        assert!(shells.get(&key("/languages/0")).is_none());
        assert!(shells.get(&key("/languages/2")).is_none());
        let newest = format!("/languages/{}", SHELLS_KEPT + 2);
        assert_eq!(
            &*shells.get(&key(&newest)).unwrap().prelude,
            (SHELLS_KEPT + 2).to_string()
        );
        shells.keep(key(&newest), shell("again"));
        assert_eq!(shells.kept(), SHELLS_KEPT, "kept again, not twice");
        shells.clear();
        assert_eq!(shells.kept(), 0);
    }
}
