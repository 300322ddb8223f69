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
            r#"{"id":9,"ok":true,"kind":"reload"}"#,
        )
        .unwrap();
    }
    let host = Host::start_in(
        &dir,
        &[],
        &[
            ("BILINGUE_DEV", dir.join("dev-app").to_str().unwrap()),
            ("BILINGUE_DEV_DIR", dir.join("dev-app").to_str().unwrap()),
        ],
    );
    host.wait_ready(Duration::from_secs(10));
    assert_eq!(
        client()
            .get(host.url("/_bilingue/events"))
            .send()
            .unwrap()
            .status(),
        404
    );
    assert_eq!(
        client()
            .get(host.url("/assets/client-DEVDEVDE.js"))
            .send()
            .unwrap()
            .status(),
        404
    );
    let page = client().get(host.url("/fr/")).send().unwrap();
    assert_eq!(header(&page, "cache-control"), "private, max-age=60");
    let html = page.text().unwrap();
    assert!(
        html.contains("<h1>Bienvenue sur Bilingue</h1>"),
        "the embedded app"
    );
    assert!(!html.contains("bilingue-dev"), "no development script");
    assert!(!host.logs().contains("DEVELOPMENT MODE"));
    let _ = std::fs::remove_dir_all(&dir);
}
