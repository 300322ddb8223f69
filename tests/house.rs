//! The host's house rules, read from its source: its top-level modules form no import
//! cycle, no source file is over 400 lines outside its tests, and no two of its types
//! share a name. Test code (a `#[cfg(test)]` module, inline or in its own file) is left
//! out of all three.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LINES_AT_MOST: usize = 400;

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

/// The top-level module a file under host/ belongs to (`pages` for pages/cache/mod.rs);
/// `None` for the crate's root files.
fn top_module(path: &Path) -> Option<String> {
    let first = path.components().next()?.as_os_str().to_string_lossy();
    match first.strip_suffix(".rs") {
        Some("lib" | "main") => None,
        Some(module) => Some(module.to_string()),
        None => Some(first.into_owned()),
    }
}

/// Which top-level modules each one names (`crate::x`), itself aside.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in source_files() {
        let Some(module) = top_module(&path) else {
            continue;
        };
        let named = graph.entry(module.clone()).or_default();
        for (at, _) in text.match_indices("crate::") {
            let rest = &text[at + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if !rest[..end].is_empty() && rest[..end] != module {
                named.insert(rest[..end].to_string());
            }
        }
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for named in graph.values_mut() {
        named.retain(|name| modules.contains(name));
    }
    graph
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
fn the_hosts_top_level_modules_form_no_import_cycle() {
    let graph = module_graph();
    assert!(graph.len() > 15, "{graph:?}");
    assert!(
        graph["pages"].contains("render") && graph["render"].contains("lang"),
        "the references are read: {graph:?}"
    );
    if let Some(cycle) = cycle(&graph) {
        panic!("an import cycle: {}", cycle.join(" → "));
    }
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

#[test]
fn no_host_source_file_is_over_400_lines_outside_its_tests() {
    let files = source_files();
    assert!(files.contains_key(Path::new("render/thread/mod.rs")));
    assert!(
        !files.contains_key(Path::new("pages/tests.rs")),
        "test modules are left out"
    );
    let long: Vec<String> = files
        .iter()
        .map(|(path, text)| (path, text.lines().count()))
        .filter(|(_, lines)| *lines > LINES_AT_MOST)
        .map(|(path, lines)| format!("host/{} has {lines} lines", path.display()))
        .collect();
    assert!(long.is_empty(), "at most {LINES_AT_MOST}: {long:#?}");
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
