//! The host's side of its contract with the app's bundles: every JSON value that crosses
//! between them, the names of the server bundle's entry points and the ids of the
//! document's elements the client finds, in one room. The app's side, `app/contract.ts`,
//! is generated from these (ts-rs, in the tests) and checked by a test: a field renamed or
//! retyped on either side fails it, or fails the type check. The host reads what the
//! bundle writes strictly: no defaults where the bundle always writes a field, no field it
//! does not know.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::lang::Language;
pub use crate::page_identity::PageIdentity;

/// The functions the server bundle puts on `globalThis` (`app/server.tsx`) and the host
/// calls (`runtime.rs`): a page to render, answers to its API calls, a streamed page whose
/// client went away, and the end of the shells being prerendered (what they still wait for
/// is their holes). Each returns nothing: what the call produced, its microtasks
/// included, the bundle hands over through the host's ops ([`HOST_OPS`]).
#[derive(Debug, Serialize)]
pub struct EntryPoints {
    pub render: &'static str,
    pub deliver: &'static str,
    pub cancel: &'static str,
    pub halt: &'static str,
}

pub const ENTRY_POINTS: EntryPoints = EntryPoints {
    render: "bilingueRender",
    deliver: "bilingueDeliver",
    cancel: "bilingueCancel",
    halt: "bilingueHalt",
};

/// Each entry point's parameters, as TypeScript writes them, and what it is for: the
/// contract's `EntryPointFunctions`, against which `app/server.tsx`'s functions are type
/// checked; `runtime.rs` passes these arguments, in this order. By [`EntryPoints`] field.
pub const ENTRY_POINT_PARAMETERS: [(&str, &str, &str); 4] = [
    (
        "render",
        "request: string, job: number",
        "A page to render (`RenderRequest`, JSON) as page `job`, streamed if it may and the request gives a nonce.",
    ),
    (
        "deliver",
        "answers: string",
        "Answers to the API calls asked for (`ApiAnswer[]`, JSON).",
    ),
    (
        "cancel",
        "job: number",
        "The streamed page `job` lost its client: its render stops.",
    ),
    (
        "halt",
        "",
        "The shells being prerendered are done but for their data: they end there.",
    ),
];

/// How many parameters the entry point `role` (an [`EntryPoints`] field) takes: what
/// `runtime.rs` checks each call's arguments against.
pub fn parameter_count(role: &str) -> usize {
    let (_, parameters, _) = ENTRY_POINT_PARAMETERS
        .iter()
        .find(|(named, ..)| *named == role)
        .expect("an entry point of ENTRY_POINTS");
    match parameters.is_empty() {
        true => 0,
        false => parameters.split(',').count(),
    }
}

/// What the host asks of the bundle's render entry point ([`EntryPoints::render`]) for a
/// page: its first argument, as JSON (its job is the second, as every call and op names
/// its page by it). Made off the render thread, where the boot state alone was made into
/// JSON before, and read by the one `JSON.parse` that read the boot state.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RenderRequest<'a> {
    pub boot: &'a BootState,
    /// With it, the bundle may stream the page, its inline scripts carrying this nonce.
    pub stream_nonce: Option<&'a str>,
    pub shell: &'a ShellAsk,
}

/// What a streamed page's render does with its static shell.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ShellAsk {
    /// No shell: the page is rendered (or streamed) whole, as React renders it.
    None,
    /// Prerender the shell and hand it over (`op_bilingue_shell`), then fill its holes.
    Make,
    /// The host keeps this page's shell, and holds it a moment for the page's data: once
    /// the data is there, ask whether it has gone (`op_bilingue_shell_sent`), and fill its
    /// holes from the postponed state that gives, or render the page whole.
    Hold,
}

/// The ops through which the bundle hands the host what it produced (`outbox_ops.rs`), as
/// the bundle calls them (`Deno.core.ops`): name, arguments and result in TypeScript, what
/// it hands over (or, for the one op that answers, what it asks). A JSON argument is the named type of this contract, as `JSON.stringify` writes it;
/// markup is never in JSON. Read by the tests, which write it into `app/contract.ts`.
#[cfg(test)]
pub const HOST_OPS: [(&str, &str, &str, &str); 9] = [
    (
        "op_bilingue_rendered",
        "job: number, html: string, result: string",
        "void",
        "A page rendered whole: its markup, and the rest of its result (`RenderResult`, JSON).",
    ),
    (
        "op_bilingue_failed",
        "job: number, why: string",
        "void",
        "A page that failed (its error's stack).",
    ),
    (
        "op_bilingue_head",
        "job: number, head: string",
        "void",
        "A streamed page's head (`StreamHead`, JSON): its stream starts.",
    ),
    (
        "op_bilingue_shell",
        "job: number, prelude: string, postponed: string | null",
        "void",
        "Its static shell, prerendered, and what React resumes it from (its postponed state, JSON; `null` when nothing waits).",
    ),
    (
        "op_bilingue_part",
        "job: number, html: string",
        "void",
        "More of a streamed page's markup.",
    ),
    (
        "op_bilingue_end",
        "job: number, end: string",
        "void",
        "A streamed page's end (`StreamEnd`, JSON).",
    ),
    (
        "op_bilingue_fetch",
        "call: string",
        "void",
        "An API call to make for a page (`Fetch`, JSON).",
    ),
    (
        "op_bilingue_log",
        "level: LogLevel, message: string",
        "void",
        "A line of the bundle's console, for the host's log.",
    ),
    (
        "op_bilingue_shell_sent",
        "job: number",
        "string | null",
        "Held page `job` has its data: its shell's postponed state if the shell has gone (resume from it), `null` if not (render it whole; its shell will not go).",
    ),
];

/// The element the app renders into and hydrates (`host/templates/page.html`).
pub const ROOT_ID: &str = "app";
/// The element that carries the boot state, as JSON, for the client to hydrate with.
pub const BOOT_STATE_ID: &str = "bilingue-boot";
/// Development: the element that carries a server render's failure, for the overlay.
pub const DEV_PROBLEM_ID: &str = "bilingue-dev-error";

/// The state a page boots with, written by the host once: the bundle renders from it and
/// the client hydrates with it, as the same JSON.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct BootState {
    #[cfg_attr(test, ts(type = "Language"))]
    pub language: Language,
    /// The path without its language prefix, canonical.
    pub path: String,
    /// The page the host's route table found at `path` (its route and parameters): the one
    /// the app renders, on the server and in the browser. Absent when the table does not
    /// know the bundle's routes (`--server-bundle`): the app matches `path` itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub page: Option<Arc<PageIdentity>>,
    /// The URL of the module of the page's own messages in its language, when the build
    /// gives each route's messages a module: the browser imports it as it starts (the host
    /// preloads it), with no need of the index of every route's.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(type = "string", optional))]
    pub messages: Option<Arc<str>>,
    /// The IANA time zone dates are shown in, on the server and in the browser alike.
    #[cfg_attr(test, ts(type = "string"))]
    pub time_zone: Arc<str>,
    /// What the screen's loader gave, when it has one (the bundle says; the host writes).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(type = "LoadOutcome<unknown>", optional))]
    pub data: Option<Box<RawValue>>,
    /// Where the site's languages sit, when some has an origin of its own; without it,
    /// every language sits under its prefix on the page's origin.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(type = "Placement", optional))]
    pub placement: Option<Arc<crate::placement::AppPlacement>>,
}

/// What the server bundle answers for a page.
#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "RenderResult"))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Rendered {
    pub status: u16,
    pub title: String,
    /// The page's description, for search engines and link previews.
    pub description: String,
    /// The markup: handed over apart, as the string it is (`op_bilingue_rendered`), never
    /// in the JSON.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub html: String,
    /// Who may keep the page: its route's declaration, unless its data failed to load.
    pub sharing: PageSharing,
    /// The loader's outcome, for the boot state (absent for a screen without a loader).
    #[cfg_attr(test, ts(type = "LoadOutcome<unknown>", optional))]
    pub data: Option<Box<RawValue>>,
}

/// Who may keep a page, as its route declares it (`sharing` in `app/routes.ts`): one
/// decision, which `pages::sharing` turns into the answer's `Cache-Control` (a visitor's
/// own data in the page overrides it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "camelCase", deny_unknown_fields)]
pub enum PageSharing {
    /// The same for everyone: any cache may keep it, for at most `maxSeconds` when given
    /// (a route with a loader must give it: its data changes).
    Public {
        #[serde(rename = "maxSeconds")]
        #[cfg_attr(test, ts(optional))]
        max_seconds: Option<u64>,
    },
    /// Fresh at each request: its visitor keeps it, revalidated each time.
    Private,
}

/// What a streamed page's document says before its data comes.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct StreamHead {
    pub status: u16,
    pub title: String,
    pub description: String,
}

/// How a streamed page ended.
#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct StreamEnd {
    /// The loader's outcome, for the boot state.
    #[cfg_attr(test, ts(type = "LoadOutcome<unknown>", optional))]
    pub data: Option<Box<RawValue>>,
    /// What failed inside a boundary (the browser renders that part itself).
    pub errors: Vec<String>,
}

/// An API call a page's loader asks the host to make.
#[derive(Debug, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Fetch"))]
#[serde(deny_unknown_fields)]
pub struct ApiCall {
    pub id: u64,
    /// The page it is for.
    pub job: u64,
    pub method: String,
    /// As the shared client built it: it must name a path under /api on this host.
    pub url: String,
    #[cfg_attr(test, ts(type = "Record<string, string>"))]
    pub headers: BTreeMap<String, String>,
    pub body: Option<String>,
}

/// Its answer: a response, or why there is none (time-out, refused, unreachable).
#[derive(Debug, Clone, Serialize, Default)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Answer"))]
#[serde(rename_all = "camelCase")]
pub struct ApiAnswer {
    pub id: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub status: Option<u16>,
    pub headers: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub body: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub error: Option<String>,
    pub timed_out: bool,
}

impl ApiAnswer {
    /// No answer, and why.
    pub fn failed(id: u64, why: impl Into<String>) -> Self {
        Self {
            id,
            error: Some(why.into()),
            ..Self::default()
        }
    }
}

/// How much a line of the bundle's console matters (`op_bilingue_log`).
#[derive(Debug, Clone, Copy, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    Error,
    Warn,
    Info,
}

/// This host's contract, as a stamp: the first 16 hex digits of the SHA-256 of
/// `app/contract.ts` (which the tests hold to these types). The build writes the stamp of
/// the contract it was made with into its manifest (`app/bundle.mjs`); a build folder made
/// for another contract is refused at start-up, by name, rather than rendering nothing.
pub fn contract_stamp() -> &'static str {
    static STAMP: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(include_str!("../../app/contract.ts").as_bytes());
        digest[..8]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    });
    &STAMP
}

#[cfg(test)]
mod tests {
    use ts_rs::{Config, TS};

    use super::*;

    const CONTRACT: &str = "app/contract.ts";

    /// The TypeScript side, as these types make it.
    fn typescript() -> String {
        let config = Config::new().with_large_int("number");
        let declarations = [
            BootState::decl(&config),
            RenderRequest::decl(&config),
            ShellAsk::decl(&config),
            crate::placement::AppPlacement::decl(&config),
            Rendered::decl(&config),
            PageSharing::decl(&config),
            PageIdentity::decl(&config),
            StreamHead::decl(&config),
            StreamEnd::decl(&config),
            ApiCall::decl(&config),
            ApiAnswer::decl(&config),
            LogLevel::decl(&config),
            crate::dev::Problem::decl(&config),
            crate::dev::Problems::decl(&config),
        ];
        let constants = [
            (
                "ENTRY_POINTS",
                serde_json::to_string(&ENTRY_POINTS).unwrap() + " as const",
            ),
            ("ROOT_ID", serde_json::to_string(ROOT_ID).unwrap()),
            (
                "BOOT_STATE_ID",
                serde_json::to_string(BOOT_STATE_ID).unwrap(),
            ),
            (
                "DEV_PROBLEM_ID",
                serde_json::to_string(DEV_PROBLEM_ID).unwrap(),
            ),
            (
                "PAGE_PATH_AT_MOST",
                crate::url_path::PAGE_PATH_AT_MOST.to_string(),
            ),
        ];
        let mut text = String::from(
            "// The contract between the host and the app's bundles: every JSON value that \
             crosses\n// between them, the server bundle's entry points and the document's \
             ids. GENERATED from\n// host/render/contract.rs and host/dev/mod.rs: do not \
             edit; after a change there, run\n// `BILINGUE_WRITE_CONTRACT=1 cargo test --lib \
             contract`.\n\
             import type { LoadOutcome } from \"./data/outcome\";\n\
             import type { Language } from \"./i18n/languages\";\n",
        );
        for (name, value) in constants {
            text.push_str(&format!("\nexport const {name} = {value};\n"));
        }
        for declaration in declarations {
            text.push_str("\nexport ");
            text.push_str(&declaration);
            text.push('\n');
        }
        text.push_str("\n/** The host's ops, as the server bundle calls them (`Deno.core.ops`). */\nexport type HostOps = {\n");
        for (name, arguments, result, doc) in HOST_OPS {
            text.push_str(&format!(
                "  /** {doc} */\n  {name}({arguments}): {result};\n"
            ));
        }
        text.push_str("};\n");
        text.push_str("\n/** The server bundle's entry points, as the host calls them (`globalThis[ENTRY_POINTS.…]`). */\nexport type EntryPointFunctions = {\n");
        let names = serde_json::to_value(&ENTRY_POINTS).unwrap();
        for (role, parameters, doc) in ENTRY_POINT_PARAMETERS {
            let name = names[role]
                .as_str()
                .expect("an entry point of ENTRY_POINTS");
            text.push_str(&format!("  /** {doc} */\n  {name}({parameters}): void;\n"));
        }
        text.push_str("};\n");
        text
    }

    #[test]
    fn every_entry_point_has_its_parameters_once() {
        let names = serde_json::to_value(&ENTRY_POINTS).unwrap();
        let roles: Vec<&String> = names.as_object().unwrap().keys().collect();
        let mut with_parameters: Vec<&str> = ENTRY_POINT_PARAMETERS
            .iter()
            .map(|(role, ..)| *role)
            .collect();
        with_parameters.sort_unstable();
        let mut roles: Vec<&str> = roles.into_iter().map(String::as_str).collect();
        roles.sort_unstable();
        assert_eq!(roles, with_parameters);
    }

    #[test]
    fn the_ops_the_contract_names_are_the_ones_the_runtime_registers() {
        let registered = super::super::outbox_ops::bilingue_outbox::init();
        let registered: Vec<&str> = registered.ops.iter().map(|op| op.name).collect();
        let named: Vec<&str> = HOST_OPS.iter().map(|(name, ..)| *name).collect();
        assert_eq!(named, registered);
    }

    #[test]
    fn the_typescript_contract_is_the_one_these_types_make() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CONTRACT);
        let generated = typescript();
        if std::env::var_os("BILINGUE_WRITE_CONTRACT").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{CONTRACT} differs from the Rust types: run `BILINGUE_WRITE_CONTRACT=1 cargo \
             test --lib contract` and commit it, after checking the app still type-checks"
        );
    }
}
