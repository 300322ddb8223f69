//! The host's logs, on stderr: text for people, JSON for machines, and in both one record
//! per line. A record's text can hold line breaks (a JavaScript stack trace, an API call's
//! configuration, a path a client chose): in text logs they are written `\n`, so that no
//! line of the log is anything but the start of a record, and no visitor can forge one.

use std::io::{self, IsTerminal as _, Write};

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Installs the logger; `BILINGUE_LOG` filters (`info` by default).
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_env("BILINGUE_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(io::stderr().is_terminal());
    match format {
        LogFormat::Text => builder
            .with_writer(|| OneLinePerRecord(io::stderr()))
            .init(),
        // JSON escapes line breaks in its strings already.
        LogFormat::Json => builder.json().with_writer(io::stderr).init(),
    }
    // A panic is a record like any other (one line, JSON in JSON logs), with where it was;
    // one that is caught is logged by its catcher, with what became of it.
    std::panic::set_hook(Box::new(|info| {
        if crate::server::panics::left_to_a_catcher(info) {
            return;
        }
        let panicked = crate::server::panics::Panicked::from_hook(info);
        tracing::error!(
            target: "bilingue::panic",
            panic = panicked.message,
            at = panicked.at,
            thread = panicked.thread,
            "panicked"
        );
    }));
}

/// Writes each record (one `write` call per record, as the formatter makes them) with its
/// inner line breaks escaped.
struct OneLinePerRecord<W>(W);

impl<W: Write> Write for OneLinePerRecord<W> {
    fn write(&mut self, record: &[u8]) -> io::Result<usize> {
        self.0.write_all(&one_line(record))?;
        Ok(record.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// `record` with every line break but a final one written `\n` (`\r` as `\r`).
fn one_line(record: &[u8]) -> Vec<u8> {
    let (body, end): (&[u8], &[u8]) = match record.strip_suffix(b"\n") {
        Some(body) => (body, b"\n"),
        None => (record, b""),
    };
    let mut out = Vec::with_capacity(record.len() + 16);
    for &byte in body {
        match byte {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            byte => out.push(byte),
        }
    }
    out.extend_from_slice(end);
    out
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn a_record_keeps_its_final_line_end_and_loses_the_others() {
        assert_eq!(
            one_line(b"ERROR boom\n    at f (x.js:1:2)\r\n    at g\n"),
            b"ERROR boom\\n    at f (x.js:1:2)\\r\\n    at g\n"
        );
        assert_eq!(one_line(b"plain\n"), b"plain\n");
        assert_eq!(one_line(b"no end"), b"no end");
    }
}
