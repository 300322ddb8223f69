//! Development mode can never reach production by accident: without `--dev`, a binary
//! run beside a development build serves only what it embeds, has no reload endpoint, and
//! keeps its caching; and no environment variable turns development mode on.

use std::time::Duration;

use crate::support::binary::Host;
use crate::support::{client, header};

#[test]
fn the_binary_without_dev_ignores_a_development_build_beside_it() {
    let dir = std::env::temp_dir().join(format!("bilingue-beside-{}", std::process::id()));
    for folder in ["dev-app/assets", "target/dev-app/assets", "assets"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    for folder in ["dev-app", "target/dev-app", "."] {
        std::fs::write(
            dir.join(folder).join("assets/client-DEVDEVDE.js"),
            "alert('dev')",
        )
        .unwrap();
        std::fs::write(
            dir.join(folder).join("server.js"),
            "throw new Error('dev bundle')",
        )
        .unwrap();
        std::fs::write(
            dir.join(folder).join("build.json"),
            r#"{"id":9,"outcome":"built","kind":"reload","ms":1}"#,
        )
        .unwrap();
    }
    let host = Host::start_in(&dir, &[], &[]);
    host.wait_ready(Duration::from_secs(10));
    // No event stream: the path is a page like any other (the French page not found).
    let events = reqwest::blocking::get(host.url("/_bilingue/events")).unwrap();
    assert_eq!(events.status(), 404);
    assert_eq!(header(&events, "content-type"), "text/html; charset=utf-8");
    assert_eq!(
        client()
            .get(host.url("/assets/client-DEVDEVDE.js"))
            .send()
            .unwrap()
            .status(),
        404
    );
    let page = client().get(host.url("/fr/")).send().unwrap();
    assert!(header(&page, "cache-control").starts_with("public, "));
    let html = page.text().unwrap();
    assert!(
        html.contains("<h1>Bienvenue sur Bilingue</h1>"),
        "the embedded app"
    );
    assert!(!html.contains("bilingue-dev"), "no development script");
    assert!(!host.logs().contains("DEVELOPMENT MODE"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_environment_variable_can_turn_development_mode_on() {
    use clap::CommandFactory as _;
    let command = bilingue::config::Config::command();
    let dev = command
        .get_arguments()
        .find(|argument| argument.get_id() == "dev")
        .expect("the --dev option");
    assert_eq!(dev.get_env(), None, "--dev has no environment variable");
    // Every other option has one, named after it.
    for argument in command.get_arguments() {
        let name = argument.get_id().as_str();
        if ["dev", "help", "version"].contains(&name) {
            continue;
        }
        let expected = format!("BILINGUE_{}", name.to_uppercase());
        assert_eq!(
            argument.get_env().and_then(|env| env.to_str()),
            Some(expected.as_str()),
            "--{name}"
        );
    }
}
