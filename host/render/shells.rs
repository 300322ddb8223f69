//! The static shells of the pages that stream, prerendered once and kept: a page's shell
//! is what React renders of it before its data comes (the head's text, the frame, each
//! part that waits showing its fallback), the same for every visitor of that page, so the
//! host sends it the moment a visitor asks, before any render thread has looked at the
//! request; the thread then only fills the holes (`resume`). Kept per page (language and
//! path, parameters included: a screen may show its parameters in its frame, so the shell
//! of `/fr/langues/en` is not `/fr/langues/fr`'s), a bounded number, the one asked for
//! least recently dropped first: a crawl through a route's many values keeps memory flat
//! and leaves the busy pages' shells kept. A new bundle (development) starts with none.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use super::contract::{BootState, StreamHead};

/// Shells kept at most: a page with parameters has one per value asked for, the least
/// recently asked for going first.
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
    /// React's postponed state, as the bundle handed it over: JSON, checked.
    pub postponed: Arc<str>,
}

#[derive(Debug, Default)]
pub struct Shells {
    table: Mutex<Table>,
}

#[derive(Debug, Default)]
struct Table {
    /// Each shell, and when it was last asked for (or kept).
    by_key: HashMap<ShellKey, (Arc<KeptShell>, u64)>,
    /// The keys by when they were last asked for, for the least recent to go first.
    by_use: BTreeMap<u64, ShellKey>,
    /// A count of uses: each get or keep takes the next.
    uses: u64,
}

impl Table {
    /// `key` used now: its shell's place among the most recently used.
    fn used(&mut self, key: &ShellKey, before: Option<u64>) -> u64 {
        self.uses += 1;
        if let Some(before) = before {
            self.by_use.remove(&before);
        }
        self.by_use.insert(self.uses, key.clone());
        self.uses
    }
}

impl Shells {
    pub fn get(&self, key: &ShellKey) -> Option<Arc<KeptShell>> {
        let mut table = self.table.lock().expect("shells lock");
        let (shell, before) = table.by_key.get(key).map(|(s, u)| (s.clone(), *u))?;
        let now = table.used(key, Some(before));
        table.by_key.get_mut(key).expect("just read").1 = now;
        Some(shell)
    }

    /// Keeps `shell`; past [`SHELLS_KEPT`], the least recently asked for goes.
    pub fn keep(&self, key: ShellKey, shell: KeptShell) {
        let mut table = self.table.lock().expect("shells lock");
        let before = table.by_key.get(&key).map(|(_, used)| *used);
        let now = table.used(&key, before);
        table.by_key.insert(key, (Arc::new(shell), now));
        while table.by_key.len() > SHELLS_KEPT {
            let (_, least) = table.by_use.pop_first().expect("longer than the bound");
            table.by_key.remove(&least);
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

    fn key(path: &str) -> ShellKey {
        ShellKey {
            language: crate::lang::demo().default_language().code(),
            path: path.into(),
        }
    }

    fn shell(prelude: &str) -> KeptShell {
        KeptShell {
            head: StreamHead {
                status: 200,
                title: "t".into(),
                description: "d".into(),
                page: crate::page_identity::PageIdentity::everywhere(None, "/"),
            },
            prelude: prelude.into(),
            postponed: "{}".into(),
        }
    }

    #[test]
    fn a_crawl_through_many_values_keeps_the_bound_and_the_busy_pages_shells() {
        let shells = Shells::default();
        shells.keep(key("/etat"), shell("busy"));
        for i in 0..100_000 {
            shells.keep(key(&format!("/produits/{i}")), shell("one of many"));
            // A busy page is asked for now and then, as visitors do.
            if i % 100 == 0 {
                assert_eq!(&*shells.get(&key("/etat")).unwrap().prelude, "busy", "{i}");
            }
            assert!(shells.kept() <= SHELLS_KEPT);
        }
        let table = shells.table.lock().unwrap();
        assert_eq!(table.by_use.len(), SHELLS_KEPT, "one use a shell kept");
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
