//! How a page's markup leaves V8: as a string handed to this op, which the host takes as
//! it is (one copy, V8's text to UTF-8), not escaped into the outbox's JSON and unescaped
//! again. The outbox then names the markup by its index among what the call handed over.
//! And how the strings React streams become bytes on their way (`op_bilingue_encode_into`).
//! Shared with `build.rs`: the snapshot and every runtime made from it know the same ops.

use deno_core::{OpState, op2};

/// The markup handed over since the host last took it, in order.
#[derive(Debug, Default)]
pub struct Handed(pub Vec<String>);

/// Keeps `html`; its index, which the outbox names it by.
#[op2(fast)]
#[smi]
pub fn op_bilingue_markup(state: &mut OpState, #[string] html: &str) -> u32 {
    let handed = state.borrow_mut::<Handed>();
    handed.0.push(html.to_owned());
    u32::try_from(handed.0.len() - 1).unwrap_or(u32::MAX)
}

/// What [`op_bilingue_encode_into`] answers when `text` does not fit `out`.
pub const NOT_WRITTEN: u32 = u32::MAX;

/// Writes `text` as UTF-8 at the start of `out` (a lone surrogate as U+FFFD, as
/// `TextEncoder` writes it); the bytes written, or [`NOT_WRITTEN`] (and nothing) when they
/// do not fit. A fast call: React's streaming renderer asks for every string it writes as
/// bytes, and deno_core's `encode` made each a buffer of its own outside V8's heap
/// (`app/server/utf8-slab.ts` writes them side by side in one).
#[op2(fast)]
pub fn op_bilingue_encode_into(#[string] text: &str, #[buffer] out: &mut [u8]) -> u32 {
    let bytes = text.as_bytes();
    match (out.get_mut(..bytes.len()), u32::try_from(bytes.len())) {
        (Some(room), Ok(written)) if written != NOT_WRITTEN => {
            room.copy_from_slice(bytes);
            written
        }
        _ => NOT_WRITTEN,
    }
}

deno_core::extension!(
    bilingue_markup,
    ops = [op_bilingue_markup, op_bilingue_encode_into],
    state = |state| {
        state.put(Handed::default());
    }
);

#[cfg(test)]
mod tests {
    use deno_core::{JsRuntime, RuntimeOptions, v8};

    /// What the op answers for the JS string `text` written into bytes 1 to 7 of an array
    /// of 8, and the array after it: `"6:0,97,…"`.
    fn encoded(text: &str) -> String {
        static V8: std::sync::Once = std::sync::Once::new();
        V8.call_once(crate::render::init_v8);
        let tokio = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let _entered = tokio.enter();
        // From the build's snapshot, as every runtime of a test process: isolates made
        // without it cannot live beside those made from it (see `Bundle`).
        let mut runtime = JsRuntime::new(RuntimeOptions {
            startup_snapshot: Some(crate::assets::SERVER_SNAPSHOT),
            extensions: vec![super::bilingue_markup::init()],
            ..Default::default()
        });
        let script = format!(
            "const out = new Uint8Array(8); \
             const n = Deno.core.ops.op_bilingue_encode_into({text}, out.subarray(1, 8)); \
             n + ':' + out.join(',')"
        );
        let value = runtime.execute_script("encode_into", script).unwrap();
        deno_core::scope!(scope, runtime);
        let value = v8::Local::new(scope, value);
        value.to_rust_string_lossy(scope)
    }

    #[test]
    fn a_string_is_written_as_utf8_where_it_is_asked() {
        assert_eq!(encoded("'ab'"), "2:0,97,98,0,0,0,0,0");
        assert_eq!(encoded("'\\u00e9t\\u00e9'"), "5:0,195,169,116,195,169,0,0");
        assert_eq!(encoded("''"), "0:0,0,0,0,0,0,0,0");
    }

    #[test]
    fn a_lone_surrogate_is_written_as_the_replacement_character() {
        assert_eq!(encoded("'a\\ud800b'"), "5:0,97,239,191,189,98,0,0");
    }

    #[test]
    fn a_string_that_does_not_fit_writes_nothing() {
        assert_eq!(encoded("'abcdefgh'"), "4294967295:0,0,0,0,0,0,0,0");
        assert_eq!(
            encoded("'abcd\\u00e9\\u00e9'"),
            "4294967295:0,0,0,0,0,0,0,0"
        );
    }
}
