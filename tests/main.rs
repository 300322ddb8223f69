//! The integration tests, in one binary so V8 is linked once. Each module is one area:
//!
//! - `http`: pages over real HTTP against the real router (languages, signals, assets).
//! - `accept_language`: `/` in the visitor's language (Accept-Language, saved choice, crawlers).
//! - `cdn`: the binary behind Varnish (its built-in VCL): hits, Age, 304, no leak, deploys.
//! - `shipped_vcl`: behind Varnish with `deploy/varnish.vcl`: stale-if-error, earlier builds' assets.
//! - `caching`: what browsers and shared caches may keep, validators, 304, HEAD.
//! - `encoding`: what pages are sent in, asked as browsers ask and as other clients do.
//! - `loaders`: screens whose data is in the first paint, from the built-in API or an upstream.
//! - `loading_budget`: one client's share of the loading budget; pages that wait for nothing.
//! - `api`: the built-in /api; `proxy`: --api-upstream against a real upstream.
//! - `screens`: the languages screen, its data from the built-in API, as pages and caches see it.
//! - `crawlers`: canonical, alternates, Open Graph, sitemap, robots.txt, --no-index.
//! - `faults`: a misbehaving server bundle (loops, throws, eats the heap, fills the queue).
//! - `hostile_data`: data built to break rendering (deep nesting, lone surrogates, wrong shapes).
//! - `odd_paths`: every shape of path against every route: a page or the not-found page, never a failed render.
//! - `wire`: what a client may send and how long it may hold a connection, HTTP/1 and HTTP/2.
//! - `streaming`: pages sent as they are rendered, HTTP/1.1 and HTTP/2, time-outs, leaving.
//! - `tracing`: trace context to the API, spans to an OTLP collector, `Server-Timing`.
//! - `startup`, `shutdown`, `logs`: the real binary as a child process (warm-up, signals, logs).
//! - `panics`: a panic in a handler or a body: a 500, logged, counted, and a drain unharmed.
//! - `deploy`: the Dockerfile and the Kubernetes manifests.
//! - `deploy_skew`: a rolling deploy of two builds behind HAProxy and Varnish, under load.
//! - `translations`: the catalogue's PO files as gettext's and translate-toolkit's tools read and edit them.
//! - `development`: development mode never switches itself on (the loop itself: `e2e/dev.test.mjs`).
//! - `tools`: what `cargo test` installs of the machine (support/machine), and what it
//!   says when it cannot.
//! - `house`: the host's own rules (no import cycle, no file of 400 lines or more, one type a name).
//! - `site`: a small real-size site generated from CLDR (`bench/site/`), served with
//!   `--app-build`: every route in every language, its sitemap an index of parts.
//! - `app_checks`: the app's own checks (type check, unit tests, the browser tests in
//!   Chromium, Firefox and WebKit, the real-size site's benchmark on a small site).
//! - `under_load`: the binary under load: the benchmark's smoke beside the other heavy
//!   checks; each alone, the soak's smoke and a start-up on a small share of a busy core.
//!
//! The browser tests that time what a person waits for are a binary of their own
//! (tests/timed.rs), which `cargo test` runs after this one, on a machine left to them.
//!
//! `support` holds what they share: starting a host in-process or as a child process, and
//! `support::upstream`, the one way to stand in for a server the host calls (an API
//! upstream, an OTLP collector).

mod accept_language;
mod api;
mod app_checks;
mod caching;
mod cdn;
mod crawlers;
mod deploy;
mod deploy_skew;
mod development;
mod encoding;
mod faults;
mod hostile_data;
mod house;
mod http;
mod language_origin;
mod loaders;
mod loading_budget;
mod logs;
mod neighbours;
mod odd_paths;
mod panics;
mod prerender;
mod proxy;
mod screens;
mod shipped_vcl;
mod shutdown;
mod site;
mod startup;
mod streaming;
mod support;
mod tools;
mod tracing;
mod translations;
mod under_load;
mod wire;
