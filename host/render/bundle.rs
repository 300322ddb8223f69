//! The server bundle a render thread starts from: a snapshot, or a script.

use std::sync::{Arc, Mutex};

use super::error::RenderError;

/// The server bundle a render thread starts from. A process uses one kind only: V8 shares
/// one read-only heap between its isolates, and isolates made from the build's snapshot
/// cannot live beside isolates made without it (V8 aborts the process).
#[derive(Debug, Clone)]
pub enum Bundle {
    /// A V8 startup snapshot with the bundle already evaluated (made by build.rs).
    Snapshot(&'static [u8]),
    /// The bundle's source, evaluated when a runtime starts (tests and development).
    Script(Arc<str>),
}

/// The runtimes alive in this process, by kind: [snapshot, script].
static ALIVE: Mutex<[usize; 2]> = Mutex::new([0, 0]);

/// A runtime's claim on its kind, given back when the runtime ends.
pub struct KindClaim(usize);

impl Bundle {
    fn kind(&self) -> usize {
        match self {
            Bundle::Snapshot(_) => 0,
            Bundle::Script(_) => 1,
        }
    }

    /// Claims a runtime of this bundle's kind; an error while one of the other kind lives
    /// in this process (two sites served by one process through the library, say), which
    /// V8 would answer by aborting the process.
    pub fn claim(&self) -> Result<KindClaim, RenderError> {
        let kind = self.kind();
        let mut alive = ALIVE.lock().unwrap_or_else(|e| e.into_inner());
        if alive[1 - kind] > 0 {
            return Err(RenderError::Start(
                "V8 cannot run a runtime made from the built-in snapshot beside one made from a \
                 script (--app-build, --server-bundle, --dev) in one process: serve each from \
                 a process of its own"
                    .into(),
            ));
        }
        alive[kind] += 1;
        Ok(KindClaim(kind))
    }
}

impl Drop for KindClaim {
    fn drop(&mut self) {
        ALIVE.lock().unwrap_or_else(|e| e.into_inner())[self.0] -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runtime_of_the_other_kind_is_refused_while_one_lives() {
        // The runtimes of the other tests count too: none lives while this is held.
        let _v8 = crate::test_support::v8_runtimes();
        let snapshot = Bundle::Snapshot(&[]);
        let script = Bundle::Script("".into());
        let first = snapshot.claim().unwrap();
        let second = snapshot.claim().unwrap();
        let refused = script
            .claim()
            .err()
            .expect("refused beside a snapshot's runtime");
        assert!(
            refused.to_string().contains("a process of its own"),
            "{refused}"
        );
        drop((first, second));
        let script_runtime = script.claim().expect("alone, a script's runtime may start");
        assert!(snapshot.claim().is_err(), "and then the other way round");
        drop(script_runtime);
        snapshot.claim().expect("none left");
    }
}
