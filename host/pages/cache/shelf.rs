//! One shelf of the page cache: entries by language, then by path (a lookup borrows the
//! request's path, it copies nothing), bounded in number; past the bound, an entry drawn
//! at random makes room.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use super::kept::KeptPage;
use crate::lang::Language;

/// A kept page, or the mark of a page that may not be kept (`None`), and when it stops
/// being served (`None`: never, within this process).
pub struct Entry {
    pub page: Option<Arc<KeptPage>>,
    pub expires: Option<Instant>,
}

pub struct Shelf {
    capacity: usize,
    by_language: HashMap<Language, HashMap<String, Entry>>,
    len: usize,
    /// Picks which entry makes room (xorshift; seeded per process).
    victims: u64,
}

impl Shelf {
    pub fn new(capacity: usize) -> Self {
        use std::hash::{BuildHasher, Hasher};
        Self {
            capacity,
            by_language: HashMap::new(),
            len: 0,
            victims: std::hash::RandomState::new().build_hasher().finish() | 1,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The entry for this page, while it has not expired.
    pub fn get(&self, language: Language, path: &str) -> Option<&Entry> {
        self.by_language
            .get(&language)
            .and_then(|paths| paths.get(path))
            .filter(|entry| entry.expires.is_none_or(|expires| Instant::now() < expires))
    }

    pub fn put(&mut self, language: Language, path: &str, entry: Entry) {
        if self.capacity == 0 {
            return;
        }
        let replaces = self
            .by_language
            .get(&language)
            .is_some_and(|paths| paths.contains_key(path));
        if !replaces && self.len >= self.capacity {
            // Past the bound, one entry makes room: paths no one asks for again (random
            // 404s) cannot grow the cache, and popular pages come back on their next request.
            self.evict_one();
        }
        if self
            .by_language
            .entry(language)
            .or_default()
            .insert(path.to_string(), entry)
            .is_none()
        {
            self.len += 1;
        }
    }

    pub fn remove(&mut self, language: Language, path: &str) {
        if self
            .by_language
            .get_mut(&language)
            .and_then(|paths| paths.remove(path))
            .is_some()
        {
            self.len -= 1;
        }
    }

    /// Removes every entry `drops` picks; how many.
    pub fn remove_where(&mut self, drops: impl Fn(Language, &str, &Entry) -> bool) -> usize {
        let before = self.len;
        for (language, paths) in &mut self.by_language {
            paths.retain(|path, entry| !drops(*language, path, entry));
        }
        self.len = self.by_language.values().map(HashMap::len).sum();
        before - self.len
    }

    /// Removes an entry drawn at random. The first in a map's order would be the same page
    /// every time: two popular pages would push each other out while cold ones stayed.
    fn evict_one(&mut self) {
        if self.len == 0 {
            return;
        }
        self.victims ^= self.victims << 13;
        self.victims ^= self.victims >> 7;
        self.victims ^= self.victims << 17;
        let mut at = (self.victims % self.len as u64) as usize;
        for paths in self.by_language.values_mut() {
            if at < paths.len() {
                let victim = paths.keys().nth(at).cloned().expect("within the map");
                paths.remove(&victim);
                self.len -= 1;
                return;
            }
            at -= paths.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(code: &str) -> Language {
        crate::lang::demo().by_code(code).unwrap()
    }

    fn entry() -> Entry {
        Entry {
            page: None,
            expires: None,
        }
    }

    #[test]
    fn pages_asked_for_again_do_not_just_push_each_other_out() {
        // Nine pages through a shelf of eight, each put back as soon as it is missed: the
        // page that makes room must be drawn from all of them, not be whichever came
        // first in the map's order (then the last two put back would evict each other
        // for ever while the other seven stayed).
        let mut shelf = Shelf::new(8);
        let paths: Vec<String> = (0..9).map(|i| format!("/{i}")).collect();
        for path in &paths {
            shelf.put(lang("fr"), path, entry());
        }
        let mut evicted = std::collections::HashSet::new();
        for _ in 0..100 {
            let missing = paths
                .iter()
                .find(|path| shelf.get(lang("fr"), path).is_none())
                .expect("one of nine is always out");
            evicted.insert(missing.clone());
            shelf.put(lang("fr"), missing, entry());
        }
        // Drawn at random, all 100 from the same four of nine: odds around 1e-28.
        assert!(evicted.len() >= 5, "only {evicted:?} ever made room");
    }

    #[test]
    fn a_shelf_never_holds_more_than_its_capacity() {
        let mut shelf = Shelf::new(3);
        for i in 0..100 {
            shelf.put(lang("fr"), &format!("/{i}"), entry());
        }
        assert_eq!(shelf.len(), 3);
        assert!(shelf.get(lang("fr"), "/99").is_some(), "the newest is kept");
        for i in 0..100 {
            shelf.put(lang(["fr", "en"][i % 2]), "/same", entry());
        }
        assert_eq!(shelf.len(), 3, "replacing an entry takes no room");
        assert!(
            shelf.get(lang("fr"), "/same").is_some() && shelf.get(lang("en"), "/same").is_some()
        );
    }

    #[test]
    fn capacity_zero_holds_nothing() {
        let mut shelf = Shelf::new(0);
        shelf.put(lang("fr"), "/", entry());
        assert!(shelf.get(lang("fr"), "/").is_none());
        assert_eq!(shelf.len(), 0);
    }
}
