//! The real binary as a child process: started on a free port, signalled, awaited.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct Host {
    child: Child,
    pub base: String,
    logs: StderrLog,
    /// One keep-alive client: asking for the metrics opens one connection, not one a time.
    client: reqwest::blocking::Client,
}

/// How a child ended: its status and everything it wrote on stderr.
pub struct Exit {
    pub status: ExitStatus,
    pub took: Duration,
    pub logs: String,
}

impl Host {
    /// Starts `bilingue --port 0 --render-threads 1 ARGS` and waits for its address.
    pub fn start(args: &[&str]) -> Self {
        Self::start_with(args, &[])
    }

    /// Starts it as `start` does, then waits until its render threads are warm (`/readyz`).
    pub fn started(args: &[&str]) -> Self {
        let host = Self::start(args);
        host.wait_ready(Duration::from_secs(60));
        host
    }

    /// The same, with environment variables set for the child only.
    pub fn start_with(args: &[&str], env: &[(&str, &str)]) -> Self {
        Self::spawn(Command::new(env!("CARGO_BIN_EXE_bilingue")), args, env)
    }

    /// The same, run from `dir` (with what lies there), with environment variables.
    pub fn start_in(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_bilingue"));
        command.current_dir(dir);
        Self::spawn(command, args, env)
    }

    /// Starts the binary through another program (`taskset`, say): `wrapper… bilingue ARGS`.
    pub fn start_wrapped(wrapper: &[&str], args: &[&str]) -> Self {
        let mut command = Command::new(wrapper[0]);
        command
            .args(&wrapper[1..])
            .arg(env!("CARGO_BIN_EXE_bilingue"));
        Self::spawn(command, args, &[])
    }

    /// Runs the binary with these options until it exits by itself (at most `limit`).
    pub fn run(args: &[&str], limit: Duration) -> Exit {
        Self::run_with(args, &[], limit)
    }

    /// The same, with environment variables set for the child only.
    pub fn run_with(args: &[&str], env: &[(&str, &str)], limit: Duration) -> Exit {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bilingue"))
            .args(defaults(args))
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let logs = drain_stderr(&mut child);
        let started = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                let took = started.elapsed();
                return Exit {
                    status,
                    took,
                    logs: logs.to_the_end(),
                };
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                panic!("still running after {limit:?}; logs:\n{}", logs.now());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn spawn(mut command: Command, args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut child = command
            .args(defaults(args))
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let logs = drain_stderr(&mut child);
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        let mut announced = |prefix: &str| {
            line.clear();
            stdout.read_line(&mut line).unwrap();
            match line.trim().strip_prefix(prefix) {
                Some(url) => url.to_string(),
                None => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!(
                        "expected {prefix:?}, read {line:?}; stderr:\n{}",
                        logs.to_the_end()
                    );
                }
            }
        };
        let base = announced("bilingue listening on ");
        let metrics = announced("bilingue metrics on ");
        super::register_metrics_url(&base, &metrics);
        Self {
            base,
            child,
            logs,
            client: super::client(),
        }
    }

    pub fn address(&self) -> String {
        self.base.trim_start_matches("http://").to_string()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn logs(&self) -> String {
        self.logs.now()
    }

    /// The logs once every one of `wanted` is in them, or after 5 s: what the host wrote
    /// reaches this process through a pipe and a reader thread, later on a busy machine.
    pub fn logs_holding(&self, wanted: &[&str]) -> String {
        let started = Instant::now();
        loop {
            let logs = self.logs();
            if wanted.iter().all(|line| logs.contains(line))
                || started.elapsed() > Duration::from_secs(5)
            {
                return logs;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    pub fn terminate(&self) {
        self.signal("TERM");
    }

    /// Polls `/readyz` until it answers 200; panics after `limit`.
    pub fn wait_ready(&self, limit: Duration) -> Duration {
        let started = Instant::now();
        let client = super::client();
        loop {
            let ready = client
                .get(self.url("/readyz"))
                .send()
                .is_ok_and(|r| r.status() == 200);
            if ready {
                return started.elapsed();
            }
            assert!(
                started.elapsed() < limit,
                "not ready after {limit:?}; logs:\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The largest resident set the process has had, in MiB (`VmHWM`).
    pub fn peak_rss_mib(&self) -> f64 {
        proc_status_kib(self.child.id(), "VmHWM") / 1024.0
    }

    /// Each of the child's threads: its name and its scheduling policy (`SCHED_BATCH` is 3),
    /// from `/proc/PID/task/*/stat`.
    pub fn thread_policies(&self) -> Vec<(String, u32)> {
        let tasks = format!("/proc/{}/task", self.child.id());
        std::fs::read_dir(tasks)
            .unwrap()
            .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("stat")).ok())
            .map(|stat| {
                let (name, fields) = stat.rsplit_once(')').unwrap();
                let name = name.split_once('(').unwrap().1.to_string();
                // The fields after the name start at the third, the state; policy is the 41st.
                let policy = fields
                    .split_whitespace()
                    .nth(41 - 3)
                    .unwrap()
                    .parse()
                    .unwrap();
                (name, policy)
            })
            .collect()
    }

    /// The value of one line of `/metrics`, such as `bilingue_open_connections`.
    pub fn metric(&self, name: &str) -> f64 {
        super::metric_with(&self.client, &self.base, name)
    }

    /// Waits for the exit, at most `limit`; the child is killed past it.
    pub fn wait_exit_status(mut self, limit: Duration) -> Exit {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let took = started.elapsed();
                return Exit {
                    status,
                    took,
                    logs: self.logs.to_the_end(),
                };
            }
            if started.elapsed() > limit {
                let _ = self.child.kill();
                panic!("still running after {limit:?}; logs:\n{}", self.logs());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits for an exit with status 0 (at most `limit`); returns how long it took and the logs.
    pub fn wait_exit(self, limit: Duration) -> (Duration, String) {
        let exit = self.wait_exit_status(limit);
        assert!(
            exit.status.success(),
            "exit status {}; logs:\n{}",
            exit.status,
            exit.logs
        );
        (exit.took, exit.logs)
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free port, metrics on a free port of their own, and one render thread, unless `args`
/// say otherwise.
fn defaults(args: &[&str]) -> Vec<&'static str> {
    let mut defaults = vec![];
    if !args.contains(&"--port") {
        defaults.extend(["--port", "0"]);
    }
    if !args.contains(&"--metrics-bind") {
        defaults.extend(["--metrics-bind", "127.0.0.1:0"]);
    }
    if !args.contains(&"--render-threads") {
        defaults.extend(["--render-threads", "1"]);
    }
    defaults
}

/// What a child wrote on stderr, read as it comes by a thread of its own.
#[derive(Clone)]
struct StderrLog {
    text: Arc<Mutex<String>>,
    /// The pipe has ended: the child, and all it wrote, are gone.
    ended: Arc<AtomicBool>,
}

impl StderrLog {
    fn now(&self) -> String {
        self.text.lock().unwrap().clone()
    }

    /// Everything, once the pipe has ended (the child has exited): on a busy machine the
    /// reader thread takes its last lines well after the exit (at most 5 s waited).
    fn to_the_end(&self) -> String {
        let started = Instant::now();
        while !self.ended.load(Ordering::Acquire) && started.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.now()
    }
}

/// Reads the child's stderr as it comes, so a chatty child never blocks on a full pipe.
fn drain_stderr(child: &mut Child) -> StderrLog {
    let logs = StderrLog {
        text: Arc::new(Mutex::new(String::new())),
        ended: Arc::new(AtomicBool::new(false)),
    };
    let mut stderr = child.stderr.take().unwrap();
    let sink = logs.clone();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n @ 1..) = stderr.read(&mut buffer) {
            sink.text
                .lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
        sink.ended.store(true, Ordering::Release);
    });
    logs
}

/// A `kB` line of `/proc/PID/status`, such as `VmRSS` or `VmHWM`, in KiB.
pub fn proc_status_kib(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0.0)
}
