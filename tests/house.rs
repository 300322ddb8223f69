//! The host's house rules, read from its source: no import cycle among its modules at any
//! depth (the top-level modules, and the files and folders of each folder), no source file
//! of 400 lines or more outside its tests, and no two of its types of one name. Test code (a `#[cfg(test)]` module, inline or in its own file) is left
//! out of all three.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LINE_BOUND: usize = 400;

fn host() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("host")
}

/// A source file's text up to its inline test module (`#[cfg(test)]` then `mod … {`).
fn without_tests(text: &str) -> &str {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim() == "#[cfg(test)]" {
            let next = text[at + line.len()..].lines().next().unwrap_or("").trim();
            if item_of(next).starts_with("mod ") && next.ends_with('{') {
                return &text[..at];
            }
        }
        at += line.len();
    }
    text
}

/// Every host source file but test code, by its path under host/, with its text without
/// its tests. A module declared `#[cfg(test)] mod name;` is test code, with all under it.
fn source_files() -> BTreeMap<PathBuf, String> {
    let mut files = BTreeMap::new();
    let mut folders = vec![host()];
    while let Some(folder) = folders.pop() {
        let mut test_modules = BTreeSet::new();
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        entries.sort();
        // A folder's own modules are declared in its mod.rs (lib.rs at the top); a file
        // `x.rs` declares those of folder `x/`.
        for declaring in ["mod.rs", "lib.rs"] {
            if let Ok(text) = std::fs::read_to_string(folder.join(declaring)) {
                test_modules.extend(test_only_modules(&text));
            }
        }
        if let Some(name) = folder.file_name().and_then(|n| n.to_str())
            && let Ok(text) = std::fs::read_to_string(folder.with_file_name(format!("{name}.rs")))
        {
            test_modules.extend(test_only_modules(&text));
        }
        for path in entries {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            if test_modules.contains(&stem) {
                continue;
            }
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let relative = path.strip_prefix(host()).unwrap().to_path_buf();
                files.insert(relative, without_tests(&text).to_string());
            }
        }
    }
    files
}

/// A declaration without its visibility (`pub`, `pub(crate)`, …).
fn item_of(line: &str) -> &str {
    match line.strip_prefix("pub") {
        Some(rest) if rest.starts_with('(') => rest.split_once(") ").map_or(rest, |(_, item)| item),
        Some(rest) => rest.trim_start(),
        None => line,
    }
}

/// The modules `text` declares under `#[cfg(test)]` (`mod name;`).
fn test_only_modules(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|pair| pair[0] == "#[cfg(test)]")
        .filter_map(|pair| {
            let declared = item_of(pair[1]).strip_prefix("mod ")?.strip_suffix(';')?;
            Some(declared.to_string())
        })
        .collect()
}

/// A module's path from the crate's root: `["pages", "cache"]` for pages/cache/mod.rs (or
/// a pages/cache.rs); `[]` for lib.rs.
fn module_of(file: &Path) -> Vec<String> {
    let mut path: Vec<String> = file
        .with_extension("")
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
        path.pop();
    }
    path
}

/// A file's code without its comment lines: prose may name modules it does not use.
fn code_of(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Identifiers and `::` each as a token, and any other character as one.
fn tokens(code: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut rest = code;
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        rest = &rest[start..];
        let length = if rest.starts_with("::") {
            2
        } else if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
        } else {
            rest.chars().next().map_or(1, char::len_utf8)
        };
        tokens.push(&rest[..length]);
        rest = &rest[length..];
    }
    tokens
}

fn is_identifier(token: &str) -> bool {
    token.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// A path a file names, from the crate's root; `name`: what a `use` of it brings in (its
/// last segment, or what follows `as`).
struct Named {
    path: Vec<String>,
    name: Option<String>,
}

/// The paths of the tree at `tokens[at]` (`a::{b, c::d as e, self}`) under `prefix`, into
/// `out`; where the tree ends.
fn path_tree(tokens: &[&str], mut at: usize, prefix: Vec<String>, out: &mut Vec<Named>) -> usize {
    match tokens.get(at).copied() {
        Some("{") => {
            at += 1;
            while tokens.get(at).is_some_and(|token| *token != "}") {
                at = path_tree(tokens, at, prefix.clone(), out);
                if tokens.get(at) == Some(&",") {
                    at += 1;
                }
            }
            at + 1
        }
        Some(token) if is_identifier(token) => {
            let mut path = prefix;
            if token != "self" {
                path.push(token.to_string());
            }
            at += 1;
            if tokens.get(at) == Some(&"::") {
                return path_tree(tokens, at + 1, path, out);
            }
            let mut name = path.last().cloned();
            if tokens.get(at) == Some(&"as") {
                name = tokens.get(at + 1).map(|alias| alias.to_string());
                at += 2;
            }
            out.push(Named { path, name });
            at
        }
        // A glob, or where a path in an expression ends (`::<`).
        _ => {
            out.push(Named {
                path: prefix,
                name: None,
            });
            at
        }
    }
}

/// What the code of `module` names: each path written from `crate::`, `super::` or
/// `self::`, with (second) those its `pub use` items bring in, from there or from its own
/// modules (`children`).
fn names_in(
    code: &str,
    module: &[String],
    children: &BTreeSet<String>,
) -> (Vec<Named>, Vec<Named>) {
    let tokens = tokens(code);
    let (mut named, mut reexported) = (Vec::new(), Vec::new());
    let mut at = 0;
    while at < tokens.len() {
        let after = tokens.get(at + 1) == Some(&"::");
        let public_use = at >= 2
            && tokens[at - 1] == "use"
            && (tokens[at - 2] == "pub" || tokens[at - 2] == ")");
        let (start, base) = match tokens[at] {
            "crate" if after => (at + 2, Vec::new()),
            "self" if after => (at + 2, module.to_vec()),
            "super" if after => {
                let mut base = module.to_vec();
                base.pop();
                let mut start = at + 2;
                while tokens.get(start) == Some(&"super") && tokens.get(start + 1) == Some(&"::") {
                    base.pop();
                    start += 2;
                }
                (start, base)
            }
            child if public_use && children.contains(child) => (at, module.to_vec()),
            _ => {
                at += 1;
                continue;
            }
        };
        let mut found = Vec::new();
        at = path_tree(&tokens, start, base, &mut found);
        if public_use {
            reexported.extend(found.iter().map(|n| Named {
                path: n.path.clone(),
                name: n.name.clone(),
            }));
        }
        named.extend(found);
    }
    (named, reexported)
}

/// A path some code names: the module whose code names it, the path as written (from the
/// crate's root) and where it comes from (through `pub use`).
struct NamedPath {
    from: Vec<String>,
    written: Vec<String>,
    resolved: Vec<String>,
}

/// Every path the host's code names; and each module's own modules (by module).
fn named_paths() -> (Vec<NamedPath>, BTreeMap<Vec<String>, BTreeSet<String>>) {
    let files: Vec<(Vec<String>, String)> = source_files()
        .into_iter()
        .filter(|(path, _)| path != Path::new("main.rs"))
        .map(|(path, text)| (module_of(&path), code_of(&text)))
        .collect();
    let mut modules: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for (module, _) in &files {
        for depth in 0..module.len() {
            modules
                .entry(module[..depth].to_vec())
                .or_default()
                .insert(module[depth].clone());
        }
    }
    let mut aliases: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    let mut named: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for (module, code) in &files {
        let children = modules.get(module).cloned().unwrap_or_default();
        let (paths, reexported) = names_in(code, module, &children);
        for Named { path, name } in reexported {
            if let Some(name) = name {
                aliases.insert([module.clone(), vec![name]].concat(), path);
            }
        }
        named.extend(paths.into_iter().map(|n| (module.clone(), n.path)));
    }
    let resolve = |mut path: Vec<String>| {
        // A bound: `pub use` chains are short, and a loop of them is no compiler's.
        for _ in 0..16 {
            let Some(at) = (1..=path.len())
                .rev()
                .find(|at| aliases.contains_key(&path[..*at]))
            else {
                break;
            };
            path = [aliases[&path[..at]].clone(), path[at..].to_vec()].concat();
        }
        path
    };
    let named = named
        .into_iter()
        .map(|(from, written)| NamedPath {
            from,
            resolved: resolve(written.clone()),
            written,
        })
        .collect();
    (named, modules)
}

/// The graph of each module of the host that has modules of its own: in the graph of `m`,
/// `a → b` says that code in `m::a` (in any file under it) names something of `m::b`. A
/// module's own file (lib.rs, mod.rs) is its face: its modules may use what it holds, and
/// it is no node of its graph. A name brought in by a `pub use` counts as where it comes
/// from. main.rs is a crate of its own.
fn module_graphs() -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let (named, modules) = named_paths();
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = modules
        .iter()
        .map(|(module, children)| {
            let graph = children
                .iter()
                .map(|c| (c.clone(), BTreeSet::new()))
                .collect();
            (module.clone(), graph)
        })
        .collect();
    for NamedPath {
        from,
        resolved: path,
        ..
    } in named
    {
        for depth in 0..from.len() {
            let graph = graphs
                .get_mut(&from[..depth])
                .expect("each parent has its graph");
            let reaches = path.len() > depth
                && path[..depth] == from[..depth]
                && path[depth] != from[depth]
                && graph.contains_key(&path[depth]);
            if reaches {
                let node = graph.get_mut(&from[depth]).expect("a module of its parent");
                node.insert(path[depth].clone());
            }
        }
    }
    graphs
}

/// What code under `hub` (a folder) names through the hub's own file (its mod.rs): an item
/// the hub holds or brings in with `pub use`, rather than the module that holds it, as
/// `module → hub::item`.
fn arrows_back_to(hub: &[&str]) -> BTreeSet<String> {
    let hub: Vec<String> = hub.iter().map(|m| m.to_string()).collect();
    let (named, modules) = named_paths();
    let own = &modules[&hub];
    let names_the_hub = |path: &[String]| {
        path.len() > hub.len() && path.starts_with(&hub) && !own.contains(&path[hub.len()])
    };
    named
        .into_iter()
        .filter(|named| named.from.len() > hub.len() && named.from.starts_with(&hub))
        .filter_map(
            |NamedPath {
                 from,
                 written,
                 resolved,
             }| {
                let to = [written, resolved]
                    .into_iter()
                    .find(|path| names_the_hub(path))?;
                Some(format!("{} → {}", from.join("::"), to.join("::")))
            },
        )
        .collect()
}

/// A cycle in `graph`, as the modules along it (the first again at the end), if any.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            let mut found = path[start..].to_vec();
            found.push(module.to_string());
            return Some(found);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_string());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|module| visit(module, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_host_module_at_any_depth_is_in_an_import_cycle() {
    let graphs = module_graphs();
    let graph = |module: &[&str]| {
        let module: Vec<String> = module.iter().map(|m| m.to_string()).collect();
        graphs
            .get(&module)
            .unwrap_or_else(|| panic!("{module:?}: {graphs:#?}"))
    };
    let top = graph(&[]);
    assert!(top.len() > 15, "{top:?}");
    assert!(
        top["pages"].contains("render") && top["render"].contains("lang"),
        "the references are read: {top:?}"
    );
    assert!(
        graph(&["pages"])["encoding"].contains("cache")
            && graph(&["trace"])["middleware"].contains("export")
            && graph(&["render", "thread"]).contains_key("loading"),
        "every folder's files are read: {graphs:#?}"
    );
    let cycles: Vec<String> = graphs
        .iter()
        .filter_map(|(module, graph)| {
            let cycle = cycle(graph)?;
            let folder: String = module.iter().map(|m| format!("{m}/")).collect();
            Some(format!("in host/{folder}: {}", cycle.join(" → ")))
        })
        .collect();
    assert!(cycles.is_empty(), "import cycles: {cycles:#?}");
}

/// N27: the files of pages/, render/ and render/thread/ share their types through a module
/// of their own (pages/site.rs, render/page.rs, render/thread/job.rs), never through the
/// folder's hub, which only composes.
#[test]
fn no_file_of_pages_or_render_names_what_its_hub_holds() {
    let hubs: [&[&str]; 3] = [&["pages"], &["render"], &["render", "thread"]];
    for hub in hubs {
        let arrows = arrows_back_to(hub);
        assert!(arrows.is_empty(), "arrows back up to {hub:?}: {arrows:#?}");
    }
    // The rule sees such arrows where they are: api/, which it does not hold, shares its
    // errors' JSON through its mod.rs.
    let api = arrows_back_to(&["api"]);
    assert!(api.contains("api::proxy → api::json_error"), "{api:#?}");
}

#[test]
fn a_cycle_is_found_where_there_is_one() {
    let graph = |edges: &[(&str, &str)]| {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, to) in edges {
            graph
                .entry(from.to_string())
                .or_default()
                .insert(to.to_string());
            graph.entry(to.to_string()).or_default();
        }
        graph
    };
    assert_eq!(cycle(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
    assert_eq!(
        cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "b")])),
        Some(vec!["b".to_string(), "c".to_string(), "b".to_string()])
    );
}

/// N33: a file at its bound has no room for the next change without a move; under it, it has.
#[test]
fn no_host_source_file_reaches_400_lines_outside_its_tests() {
    let files = source_files();
    assert!(files.contains_key(Path::new("render/thread/mod.rs")));
    assert!(
        !files.contains_key(Path::new("pages/tests.rs")),
        "test modules are left out"
    );
    let long: Vec<String> = files
        .iter()
        .map(|(path, text)| (path, text.lines().count()))
        .filter(|(_, lines)| *lines >= LINE_BOUND)
        .map(|(path, lines)| format!("host/{} has {lines} lines", path.display()))
        .collect();
    assert!(long.is_empty(), "under {LINE_BOUND}: {long:#?}");
}

#[test]
fn no_two_host_types_share_a_name() {
    let mut declared: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (path, text) in source_files() {
        for line in text.lines() {
            // Items at the top of a file; not a function's own helpers.
            let mut words = line.split_whitespace();
            let mut word = words.next().unwrap_or("");
            if word.starts_with("pub") {
                // `pub(in crate::render)` spans two words.
                while word.starts_with("pub(") && !word.ends_with(')') {
                    word = words.next().unwrap_or(")");
                }
                word = words.next().unwrap_or("");
            }
            if !line.starts_with(|c: char| c.is_alphabetic())
                || !["struct", "enum", "type", "trait"].contains(&word)
            {
                continue;
            }
            let name: String = words
                .next()
                .unwrap_or("")
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            declared
                .entry(name)
                .or_default()
                .push(format!("host/{}", path.display()));
        }
    }
    assert!(declared.contains_key("RenderPool") && declared.contains_key("Job"));
    let shared: BTreeMap<&String, &Vec<String>> = declared
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .collect();
    assert!(shared.is_empty(), "one name, two types: {shared:#?}");
}
