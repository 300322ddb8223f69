#![allow(dead_code)] // each test binary uses its own share of these helpers
//! One real server per test binary: the router of `bilingue::app` on 127.0.0.1:0, with
//! its render threads, spoken to over HTTP.

pub mod binary;

use std::sync::OnceLock;

use bilingue::config::Config;
use std::time::Duration;

use bilingue::server::{self, DrainOptions};
use bilingue::{AppState, app, render};
use clap::Parser;

pub fn base_url() -> &'static str {
    static BASE_URL: OnceLock<String> = OnceLock::new();
    BASE_URL.get_or_init(|| start(&["--render-threads", "2"]))
}

pub fn init_v8_once() {
    static V8: OnceLock<()> = OnceLock::new();
    V8.get_or_init(render::init_v8);
}

pub fn start(args: &[&str]) -> String {
    init_v8_once();
    let config = Config::parse_from(std::iter::once("bilingue").chain(args.iter().copied()));
    let state = AppState::start(&config).expect("render threads start");
    let (address_tx, address_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            address_tx.send(listener.local_addr().unwrap()).unwrap();
            let lifecycle = state.lifecycle.clone();
            let drain = DrainOptions {
                delay: Duration::ZERO,
                deadline: Duration::ZERO,
            };
            server::serve(
                listener,
                app(state),
                lifecycle,
                std::future::pending(),
                drain,
            )
            .await;
        });
    });
    format!("http://{}", address_rx.recv().unwrap())
}

pub fn client() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

pub fn get(path: &str) -> reqwest::blocking::Response {
    client()
        .get(format!("{}{path}", base_url()))
        .send()
        .unwrap()
}

/// A GET of `path` on the shared server with one request header.
pub fn get_with(path: &str, name: &str, value: &str) -> reqwest::blocking::Response {
    client()
        .get(format!("{}{path}", base_url()))
        .header(name, value)
        .send()
        .unwrap()
}

pub fn header(response: &reqwest::blocking::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

/// The first `href` of a `<link rel="{rel}"…>` or `src` of `<script … src>` in a document.
pub fn attribute_after<'a>(html: &'a str, marker: &str, attribute: &str) -> Option<&'a str> {
    let start = html.find(marker)?;
    let rest = &html[start..];
    let value = &rest[rest.find(&format!("{attribute}=\""))? + attribute.len() + 2..];
    Some(&value[..value.find('"')?])
}
