//! The real binary as a child process: started on a free port, signalled, awaited.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Host {
    child: Child,
    pub base: String,
}

impl Host {
    pub fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bilingue"))
            .args(["--port", "0", "--render-threads", "1"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .trim()
            .strip_prefix("bilingue listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_string();
        Self { child, base }
    }

    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits for the exit (at most `limit`); returns how long it took and the logs.
    pub fn wait_exit(mut self, limit: Duration) -> (Duration, String) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut logs = String::new();
                self.child
                    .stderr
                    .take()
                    .unwrap()
                    .read_to_string(&mut logs)
                    .unwrap();
                assert!(status.success(), "exit status {status}; logs:\n{logs}");
                return (started.elapsed(), logs);
            }
            if started.elapsed() > limit {
                let _ = self.child.kill();
                panic!("still running {limit:?} after SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn address(&self) -> String {
        self.base.trim_start_matches("http://").to_string()
    }
}
