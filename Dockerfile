# syntax=docker/dockerfile:1
# Bilingue in a container: built in one stage with Rust and Node, run from a distroless
# image holding only glibc and the one binary (the app, its assets and the V8 snapshot are
# inside it).
#
#   docker build -t bilingue .
#   docker run -p 3000:3000 bilingue
#
# With no access to GitHub, the v8 crate cannot download librusty_v8: put the archive in
# the build context and name it, e.g.
#   docker build --build-arg RUSTY_V8_ARCHIVE=v8/librusty_v8_simdutf_release_x86_64-unknown-linux-gnu.a.gz -t bilingue .

FROM node:20-bookworm-slim AS node

FROM rust:1.95-bookworm AS build
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s /usr/local/lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm
WORKDIR /src
COPY . .
ARG RUSTY_V8_ARCHIVE=
RUN if [ -n "$RUSTY_V8_ARCHIVE" ]; then RUSTY_V8_ARCHIVE="$(realpath "$RUSTY_V8_ARCHIVE")"; export RUSTY_V8_ARCHIVE; fi \
 && npm ci --no-audit --no-fund \
 && cargo build --release --locked \
 && cp target/release/bilingue /bilingue

FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /bilingue /bilingue
ENV BILINGUE_BIND=0.0.0.0 \
    BILINGUE_PORT=3000 \
    BILINGUE_LOG_FORMAT=json
EXPOSE 3000
# distroless's "nonroot" user, by number so Kubernetes can check runAsNonRoot.
USER 65532:65532
ENTRYPOINT ["/bilingue"]
