//! V8's flags, the same for every runtime: set once, before V8's platform starts (`init_v8`
//! and each runtime's start call it first); V8 freezes its flags then, and aborts the
//! process on a later change.
//!
//! `--no-concurrent-recompilation`: a function V8 optimises is compiled on the render
//! thread that made it hot, not on V8's worker threads. The render threads are as many as
//! the cores and busy under load, so background compiles only took CPU from the other
//! render thread, while each worker's compile zones kept glibc arenas of their own: peak
//! RSS with 64 streamed pages in flight went from 126-130 MB to 113-114 MB, the heavy
//! page's from 94-103 to 85-87 MB, at the same throughput (three rounds each, in turns).
//!
//! `--no-maglev-inlining`: V8's mid tier (Maglev) compiles a function without inlining
//! what it calls; TurboFan, the top tier, still does. A screen the real-size site's
//! generator writes is one function of ~90 list items, each a translation and an element:
//! Maglev inlined both at every call, and its zone for that one function grew to 20 MB for
//! 50-150 ms, on both render threads at about the same time, the crawl's peak RSS 40 MB
//! over its level. Without: a 1 MB zone, the uncached world page's CPU per page the same
//! within the machine's noise.

use std::sync::OnceLock;

use deno_core::v8_set_flags;

const FLAGS: &[&str] = &["--no-concurrent-recompilation", "--no-maglev-inlining"];

/// Sets V8's flags, the first time only; the flags this V8 did not know, which it ignored.
pub fn set_once() -> &'static [String] {
    static UNKNOWN: OnceLock<Vec<String>> = OnceLock::new();
    UNKNOWN.get_or_init(|| {
        // V8 reads a command line: it skips the first argument, the program's name, and
        // gives it back with the flags it did not know.
        let arguments = std::iter::once("bilingue").chain(FLAGS.iter().copied());
        let unknown: Vec<String> = v8_set_flags(arguments.map(String::from).collect())
            .into_iter()
            .skip(1)
            .collect();
        if !unknown.is_empty() {
            tracing::warn!(flags = ?unknown, "V8 does not know these flags; it runs without them");
        }
        unknown
    })
}

#[cfg(test)]
mod tests {
    use deno_core::{JsRuntime, RuntimeOptions};

    #[test]
    fn this_v8_knows_every_flag() {
        assert_eq!(super::set_once(), &[] as &[String]);
    }

    /// A screen as the site generator writes them: one function, a list of a hundred
    /// items, each a translation and an element; made hot, as a crawl makes it.
    #[test]
    fn a_hot_screen_full_of_calls_compiles_in_a_small_zone() {
        static V8: std::sync::Once = std::sync::Once::new();
        V8.call_once(crate::render::init_v8);
        let items: Vec<String> = (0..100)
            .map(|i| format!(r#"el("li", {{ children: t("item.{i}", {{ count: {i} }}) }})"#))
            .collect();
        let source = format!(
            r#"
            const table = new Map(Array.from({{ length: 100 }}, (_, i) => [`item.${{i}}`, `{{count}} item ${{i}}`]));
            function t(key, values) {{
              let text = table.get(key) ?? key;
              if (values) for (const name in values) text = text.replace(`{{${{name}}}}`, String(values[name]));
              return text;
            }}
            function el(type, props) {{ return {{ type, props, key: null }}; }}
            function screen(n) {{ return el("ul", {{ id: n, children: [{}] }}); }}
            let made = 0;
            for (let i = 0; i < 3000; i++) made += screen(i).props.children.length;
            made;
            "#,
            items.join(",")
        );
        let mut runtime = JsRuntime::new(RuntimeOptions::default());
        runtime.execute_script("screen.js", source).unwrap();
        let peak = runtime
            .v8_isolate()
            .get_heap_statistics()
            .peak_malloced_memory();
        assert!(peak < 4 << 20, "V8's zones took {} MiB at most", peak >> 20);
    }
}
