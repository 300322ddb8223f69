//! What the development overlay shows: problems, a build's as esbuild reported them or a
//! server-render failure's, its bundle positions mapped through the bundle's source map
//! to the app's files.

use std::path::Path;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::render::RenderError;

/// One problem, as the overlay (`app/dev/client.ts`) shows it: part of the contract with
/// the app (`app/contract.ts` is generated from it).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Problem {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub column: Option<u32>,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Problems {
    pub title: &'static str,
    pub problems: Vec<Problem>,
}

/// The server bundle's source map as read, parsed the first time a failure is shown: a
/// save that renders never parses its 2 MB of JSON, which competed with the new runtime's
/// start for the CPU before the tabs could reload. Parsing waits on nothing but the CPU.
#[derive(Default)]
pub(super) struct SourceMapFile {
    bytes: Option<Vec<u8>>,
    parsed: OnceLock<Option<sourcemap::SourceMap>>,
}

impl SourceMapFile {
    pub(super) fn read(dir: &Path) -> Self {
        Self {
            bytes: std::fs::read(dir.join("server.js.map")).ok(),
            parsed: OnceLock::new(),
        }
    }

    fn map(&self) -> Option<&sourcemap::SourceMap> {
        self.parsed
            .get_or_init(|| {
                let bytes = self.bytes.as_deref()?;
                sourcemap::SourceMap::from_slice(bytes).ok()
            })
            .as_ref()
    }
}

/// A render failure as the overlay shows it, its bundle positions mapped through `map`.
pub(super) fn render_problem(error: &RenderError, map: &SourceMapFile) -> Problems {
    let message = map_positions(&error.to_string(), map.map());
    let (file, line, column) = first_app_position(&message);
    Problems {
        title: "The server render failed",
        problems: vec![Problem {
            file,
            line,
            column,
            message,
        }],
    }
}

/// Every `bilingue:server.js:LINE:COLUMN` in `text`, as `app/…:LINE:COLUMN`.
fn map_positions(text: &str, map: Option<&sourcemap::SourceMap>) -> String {
    const MARK: &str = "bilingue:server.js:";
    let Some(map) = map else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let after = &rest[at + MARK.len()..];
        let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let line_end = digits(after);
        let column_part = after[line_end..].strip_prefix(':').unwrap_or("");
        let column_end = digits(column_part);
        let position = after[..line_end]
            .parse::<u32>()
            .ok()
            .zip(column_part[..column_end].parse::<u32>().ok());
        match position.and_then(|(line, column)| map.lookup_token(line - 1, column - 1)) {
            Some(token) if token.get_source().is_some() => {
                let source = token.get_source().unwrap_or_default();
                let source = source.trim_start_matches("../").trim_start_matches("./");
                out.push_str(&format!(
                    "{source}:{}:{}",
                    token.get_src_line() + 1,
                    token.get_src_col() + 1
                ));
                rest = &column_part[column_end..];
            }
            _ => {
                out.push_str(MARK);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The first position in the app's own files (`app/…:LINE:COLUMN`) a message names.
fn first_app_position(message: &str) -> (Option<String>, Option<u32>, Option<u32>) {
    for word in message.split(|c: char| c.is_whitespace() || c == '(' || c == ')') {
        let mut parts = word.rsplitn(3, ':');
        let (Some(column), Some(line), Some(file)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if file.starts_with("app/")
            && let (Ok(line), Ok(column)) = (line.parse(), column.parse())
        {
            return (Some(file.to_string()), Some(line), Some(column));
        }
    }
    (None, None, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_in_the_app_are_found_in_a_message() {
        let message = "ReferenceError: x is not defined\n    at Home (app/ui/Home.tsx:12:7)\n    at render (app/server.tsx:40:3)";
        assert_eq!(
            first_app_position(message),
            (Some("app/ui/Home.tsx".into()), Some(12), Some(7))
        );
        assert_eq!(first_app_position("no position"), (None, None, None));
    }

    #[test]
    fn without_a_source_map_positions_are_left_as_they_are() {
        let text = "at f (bilingue:server.js:3:14)";
        assert_eq!(map_positions(text, None), text);
    }
}
