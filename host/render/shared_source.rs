//! A bundle run as a script (`--app-build`, `--server-bundle`) is compiled from the host's
//! own copy of its source, lent to V8 as an external string: V8 keeps a script's source for
//! as long as its functions live (it compiles them lazily, from the source), and a string
//! made the usual way is a copy on the runtime's heap. A real-size site's 8.2 MB bundle was
//! one more 8.2 MB copy in every runtime (its large-object space), and another made and
//! dropped on each start. Lent, the runtimes share the one the host holds: the string keeps
//! a count of the host's `Arc`, handed back when V8 lets the string go (its isolate's end).
//! An external one-byte string must be Latin-1: a source with other than ASCII is copied.

use std::sync::Arc;

use deno_core::{JsRuntime, v8};

use super::error::RenderError;

/// Compiles and runs `source` as a classic script named `name`, in `runtime`'s context.
pub fn run(
    runtime: &mut JsRuntime,
    name: &'static str,
    source: &Arc<str>,
) -> Result<(), RenderError> {
    if !source.is_ascii() {
        return runtime
            .execute_script(name, source.to_string())
            .map(drop)
            .map_err(|e| RenderError::Script(e.to_string()));
    }
    deno_core::scope!(scope, runtime);
    let lent = Arc::into_raw(source.clone());
    // SAFETY: the bytes are ASCII and stay alive until `give_back` drops the count taken
    // here, which V8 calls once, when it lets the string go; on failure nothing kept them.
    let text = unsafe {
        v8::String::new_external_onebyte_raw(
            scope,
            lent.cast::<u8>().cast_mut().cast(),
            source.len(),
            give_back,
        )
    };
    let Some(text) = text else {
        // SAFETY: V8 did not take the bytes: the count taken above is ours to drop.
        drop(unsafe { Arc::from_raw(lent) });
        return Err(RenderError::Start(
            "V8 would not make the bundle's source".into(),
        ));
    };
    let resource = v8::String::new(scope, name).expect("short ASCII string");
    let origin = v8::ScriptOrigin::new(
        scope,
        resource.into(),
        0,
        0,
        false,
        0,
        None,
        false,
        false,
        false,
        None,
    );
    v8::tc_scope!(let scope, scope);
    let ran = v8::Script::compile(scope, text, Some(&origin)).and_then(|script| script.run(scope));
    match (ran, scope.exception()) {
        (Some(_), _) => Ok(()),
        (None, Some(exception)) => Err(RenderError::Script(
            deno_core::error::JsError::from_v8_exception(scope, exception).to_string(),
        )),
        (None, None) => Err(RenderError::Script(
            "the bundle stopped without an exception".into(),
        )),
    }
}

/// V8 lets a lent source go: the count it held is dropped.
unsafe extern "C" fn give_back(bytes: *mut std::ffi::c_char, len: usize) {
    let text = std::ptr::slice_from_raw_parts(bytes.cast::<u8>().cast_const(), len) as *const str;
    // SAFETY: `bytes` and `len` are what `run` lent, from `Arc::into_raw` of an `Arc<str>`.
    drop(unsafe { Arc::from_raw(text) });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::bundle::Bundle;
    use crate::render::runtime::{Limits, Renderer};
    use std::sync::Barrier;
    use std::thread;
    use std::time::Duration;

    fn limits() -> Limits {
        Limits {
            timeout: Duration::from_secs(10),
            heap_bytes: 64 << 20,
        }
    }

    /// The test snapshot's source is not at hand: a bundle that defines the entry points.
    fn bundle(padding: usize) -> Arc<str> {
        let entry = crate::render::contract::ENTRY_POINTS;
        let entries = [entry.render, entry.deliver, entry.cancel, entry.halt]
            .map(|name| format!("globalThis.{name} = () => undefined;"))
            .concat();
        format!("{entries}/*{}*/", "x".repeat(padding)).into()
    }

    #[test]
    fn runtimes_share_the_hosts_source_and_give_it_back_when_they_end() {
        let _v8 = crate::test_support::v8_runtimes();
        let source = bundle(4 << 20);
        // Each runtime on its own thread, as the pool's are; both alive between the waits.
        let both = Arc::new(Barrier::new(3));
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let (script, both) = (Bundle::Script(source.clone()), both.clone());
                thread::spawn(move || {
                    let mut renderer = Renderer::new(&script, limits()).unwrap();
                    let used = renderer.heap_used();
                    both.wait();
                    both.wait();
                    used
                })
            })
            .collect();
        both.wait();
        assert_eq!(
            Arc::strong_count(&source),
            5,
            "ours, each thread's bundle, one lent to each runtime"
        );
        both.wait();
        for used in threads.into_iter().map(|t| t.join().unwrap()) {
            assert!(
                used < 4 << 20,
                "the 4 MB source is not on the heap: {used} bytes"
            );
        }
        assert_eq!(Arc::strong_count(&source), 1, "given back");
    }

    #[test]
    fn a_source_with_more_than_ascii_is_copied_and_runs() {
        let _v8 = crate::test_support::v8_runtimes();
        let source: Arc<str> = format!("{}/* été */", bundle(0)).into();
        let script = Bundle::Script(source.clone());
        let renderer = Renderer::new(&script, limits()).unwrap();
        assert_eq!(
            Arc::strong_count(&source),
            2,
            "ours and the bundle's: none lent"
        );
        drop(renderer);
    }
}
