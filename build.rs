//! Bridges the two halves of the product: installs the JavaScript dependencies when they
//! are missing (`npm ci`, from the committed lock file), bundles `app/` with esbuild
//! (`app/build.mjs`), precompresses the client assets, and writes `assets.rs` into
//! `OUT_DIR` so the host embeds everything and the release binary is the whole product.
//! It also makes a V8 startup snapshot with the server bundle already evaluated, so a
//! render thread starts (and restarts) without parsing and running the bundle again.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

fn main() {
    let root = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env("OUT_DIR"));
    for input in [
        "app",
        "package.json",
        "package-lock.json",
        "tsconfig.json",
        "host/content_type.rs",
        "host/render/outbox_ops.rs",
        "host/render/shell_hold.rs",
    ] {
        println!("cargo:rerun-if-changed={input}");
    }
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");

    install_node_modules(&root);
    let app_out = out.join("app");
    bundle_app(&root, &app_out);
    write_snapshot(&app_out.join("server.js"), &out.join("server.snap"));
    write_assets_module(&app_out, &out.join("assets.rs"));
}

/// The ops the bundle hands the host its pages through: the snapshot knows them, as every
/// runtime does (the host reads what they keep; the build only registers them).
#[path = "host/render/outbox_ops.rs"]
#[allow(dead_code)]
mod outbox_ops;
#[path = "host/render/shell_hold.rs"]
#[allow(dead_code)]
mod shell_hold;

fn write_snapshot(bundle: &Path, snapshot: &Path) {
    let source = std::fs::read_to_string(bundle).expect("esbuild wrote the server bundle");
    // V8 schedules delayed tasks on the tokio runtime of the thread that creates it.
    let tokio = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a tokio runtime");
    let _entered = tokio.enter();
    let mut runtime = deno_core::JsRuntimeForSnapshot::new(deno_core::RuntimeOptions {
        extensions: vec![outbox_ops::bilingue_outbox::init()],
        ..Default::default()
    });
    // No WebAssembly for the bundle: its memory would live outside every limit (the host
    // does the same before a --server-bundle, host/render/runtime.rs).
    runtime
        .execute_script("bilingue:setup.js", "delete globalThis.WebAssembly;")
        .expect("a plain script runs");
    if let Err(e) = runtime.execute_script("bilingue:server.js", source) {
        panic!("the server bundle fails in V8 while making the snapshot: {e}");
    }
    std::fs::write(snapshot, runtime.snapshot()).expect("writable OUT_DIR");
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("cargo did not set {name}"))
}

fn install_node_modules(root: &Path) {
    // npm writes this file last: its presence and age say whether `node_modules` is complete
    // and current with the lock file.
    let marker = root.join("node_modules/.package-lock.json");
    let lock = root.join("package-lock.json");
    let current = match (modified(&marker), modified(&lock)) {
        (Some(installed), Some(locked)) => installed >= locked,
        _ => false,
    };
    if current {
        return;
    }
    run(
        Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(root),
        "install the JavaScript dependencies (`npm ci`); Node.js 20+ and npm must be on PATH",
    );
}

fn bundle_app(root: &Path, app_out: &Path) {
    let build_time_ms = match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(secs) => {
            secs.trim()
                .parse::<u64>()
                .expect("SOURCE_DATE_EPOCH must be whole seconds")
                * 1000
        }
        Err(_) => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock after 1970")
            .as_millis() as u64,
    };
    run(
        Command::new("node")
            .arg("app/build.mjs")
            .arg(app_out)
            .env("BILINGUE_BUILD_TIME", build_time_ms.to_string())
            .current_dir(root),
        "bundle app/ with esbuild (`node app/build.mjs`); run `npm ci` if node_modules is damaged",
    );
}

fn run(command: &mut Command, what: &str) {
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("could not {what}: {e}"));
    assert!(
        status.success(),
        "could not {what}: it exited with {status}"
    );
}

fn modified(path: &Path) -> Option<SystemTime> {
    path.metadata().and_then(|m| m.modified()).ok()
}

/// Each client asset as raw, gzip and brotli bytes, with its content type, and the V8
/// snapshot of the server bundle, `include_bytes!`d by `host/assets.rs`; the manifest,
/// `include_str!`d by `host/manifest.rs`.
fn write_assets_module(app_out: &Path, module: &Path) {
    let assets_dir = app_out.join("assets");
    let mut names: Vec<String> = std::fs::read_dir(&assets_dir)
        .expect("esbuild wrote no assets directory")
        .map(|e| {
            e.expect("readable assets directory")
                .file_name()
                .into_string()
                .expect("UTF-8 asset name")
        })
        .filter(|n| !n.ends_with(".gz") && !n.ends_with(".br"))
        .collect();
    names.sort();

    let mut code = String::from("// Generated by build.rs: the bundled app.\n");
    writeln!(
        code,
        "pub static SERVER_SNAPSHOT: &[u8] = include_bytes!({:?});",
        app_out.parent().expect("OUT_DIR").join("server.snap")
    )
    .unwrap();
    code.push_str("pub static ASSETS: &[Asset] = &[\n");
    for name in &names {
        let raw_path = assets_dir.join(name);
        let raw = std::fs::read(&raw_path).expect("readable asset");
        let gzip_path = assets_dir.join(format!("{name}.gz"));
        let brotli_path = assets_dir.join(format!("{name}.br"));
        std::fs::write(&gzip_path, gzip(&raw)).expect("writable OUT_DIR");
        std::fs::write(&brotli_path, brotli(&raw)).expect("writable OUT_DIR");
        writeln!(
            code,
            "    Asset {{ name: {name:?}, content_type: {:?}, raw: include_bytes!({raw_path:?}), gzip: include_bytes!({gzip_path:?}), brotli: include_bytes!({brotli_path:?}) }},",
            content_type(name)
        )
        .unwrap();
    }
    code.push_str("];\n");
    std::fs::write(module, code).expect("writable OUT_DIR");
    let manifest = format!(
        "// Generated by build.rs: the build's manifest (host/manifest.rs reads it).\npub static MANIFEST: &str = include_str!({:?});\n",
        app_out.join("manifest.json")
    );
    std::fs::write(module.with_file_name("manifest.rs"), manifest).expect("writable OUT_DIR");
}

include!("host/content_type.rs");

fn gzip(raw: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(raw).expect("in-memory gzip");
    encoder.finish().expect("in-memory gzip")
}

fn brotli(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &raw[..], &mut out, &params).expect("in-memory brotli");
    out
}
