//! The static shells of the pages that stream, prerendered once and kept: a page's shell
//! is what React renders of it before its data comes (the head's text, the frame, each
//! part that waits showing its fallback), the same for every visitor of that page, so the
//! host sends it the moment a visitor asks, before any render thread has looked at the
//! request; the thread then only fills the holes (`resume`). Kept per page (language and
//! path, parameters included: a screen may show its parameters in its frame, so the shell
//! of `/fr/langues/en` is not `/fr/langues/fr`'s), a bounded number, the one asked for
//! least recently dropped first: a crawl through a route's many values keeps memory flat
//! and leaves the busy pages' shells kept. A new bundle (development) starts with none.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::contract::{BootState, StreamHead};
use super::shell_hold::DataPace;
use crate::lang::Language;

/// Shells kept at most: a page with parameters has one per value asked for, the least
/// recently asked for going first.
pub const SHELLS_KEPT: usize = 512;

/// Which page a shell is of.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShellKey {
    language: Language,
    path: String,
}

impl ShellKey {
    pub fn of(boot: &BootState) -> Self {
        Self {
            language: boot.language,
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
    /// How soon the page's data came lately: whether its shell is held for it.
    pub pace: Arc<DataPace>,
}

#[derive(Debug, Default)]
pub struct Shells {
    table: Mutex<Table>,
}

#[derive(Debug, Default)]
struct Table {
    /// Each shell, and when it was last asked for (or kept): a count of uses, each get or
    /// keep taking the next. Asked for at every visit of a page that streams, kept only
    /// at its first: a get writes its count in place, and the least recent is found by a
    /// look over all (512 at most) only when a shell is kept past the bound.
    by_key: HashMap<ShellKey, (Arc<KeptShell>, u64), foldhash::fast::RandomState>,
    uses: u64,
}

impl Shells {
    pub fn get(&self, key: &ShellKey) -> Option<Arc<KeptShell>> {
        let mut table = self.table.lock().expect("shells lock");
        table.uses += 1;
        let now = table.uses;
        let (shell, used) = table.by_key.get_mut(key)?;
        *used = now;
        Some(shell.clone())
    }

    /// Keeps `shell`; past [`SHELLS_KEPT`], the least recently asked for goes.
    pub fn keep(&self, key: ShellKey, shell: KeptShell) {
        let mut table = self.table.lock().expect("shells lock");
        table.uses += 1;
        let now = table.uses;
        table.by_key.insert(key, (Arc::new(shell), now));
        while table.by_key.len() > SHELLS_KEPT {
            let least = table
                .by_key
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(key, _)| key.clone())
                .expect("longer than the bound");
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
            language: crate::lang::demo().default_language(),
            path: path.into(),
        }
    }

    fn shell(prelude: &str) -> KeptShell {
        KeptShell {
            head: StreamHead {
                status: 200,
                title: "t".into(),
                description: "d".into(),
            },
            prelude: prelude.into(),
            postponed: "{}".into(),
            pace: Default::default(),
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
        assert_eq!(shells.kept(), SHELLS_KEPT);
        assert!(
            shells.get(&key("/etat")).is_some(),
            "the busy page's shell stays"
        );
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
