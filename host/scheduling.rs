//! The CPU scheduling policy the whole process runs under (`--batch-scheduling`).
//!
//! A page crosses threads: a tokio worker reads the request, a render thread renders it,
//! a worker compresses and writes it. Under Linux's default policy each of those wake-ups
//! may preempt whatever runs on the woken thread's core, most often a render thread in
//! the middle of a page, and a core switches threads several times a page. Under
//! `SCHED_BATCH` a woken thread does not preempt: it runs when a core is idle, or when the
//! running thread blocks or ends its slice. The host's threads hand work to one another,
//! so each one mostly runs until it has none.
//!
//! Measured on the heavy page (`--prerender off`, 2 cores, 64 connections, three rounds each
//! in turns): context switches 5.1-5.7 → 0.8-0.9 a page, the tokio workers' CPU 122-133 →
//! 88-107 µs a page, 2,959-3,012 → 3,160-3,328 requests/s. `docs/performance.md` has the rest.
//!
//! A thread takes the policy of the thread that starts it, so it is set first thing, on
//! the main thread, before V8's or tokio's threads exist.

/// What [`apply`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Applied {
    /// The threads run under `SCHED_BATCH`.
    Batch,
    /// The process keeps the policy it was started with: `--batch-scheduling off`, or an
    /// operator's choice other than the default (`chrt`, systemd's `CPUSchedulingPolicy`).
    Kept,
}

/// Puts the calling thread, and so every thread it starts from now on, under
/// `SCHED_BATCH` when `batch` and it runs under the default policy.
#[cfg(target_os = "linux")]
pub fn apply(batch: bool) -> std::io::Result<Applied> {
    if !batch {
        return Ok(Applied::Kept);
    }
    // SAFETY: pid 0 is the calling thread.
    match unsafe { libc::sched_getscheduler(0) } {
        libc::SCHED_OTHER => {}
        -1 => return Err(std::io::Error::last_os_error()),
        _ => return Ok(Applied::Kept),
    }
    // The policy takes priority 0: the nice value still orders this process among others.
    let parameters = libc::sched_param { sched_priority: 0 };
    // SAFETY: `parameters` is a valid `sched_param` for the duration of the call, and pid 0
    // is the calling thread.
    let result = unsafe { libc::sched_setscheduler(0, libc::SCHED_BATCH, &raw const parameters) };
    if result == 0 {
        Ok(Applied::Batch)
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Elsewhere, the system's own scheduling.
#[cfg(not(target_os = "linux"))]
pub fn apply(_batch: bool) -> std::io::Result<Applied> {
    Ok(Applied::Kept)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::Applied;

    /// On a thread of its own, under `policy` first: what `apply(batch)` says, and the
    /// policy of a thread started after it, as the kernel reports it.
    fn after_apply(policy: libc::c_int, batch: bool) -> (Applied, libc::c_int) {
        std::thread::spawn(move || {
            let parameters = libc::sched_param { sched_priority: 0 };
            // SAFETY: as in `apply`; any process may take the default, batch or idle policy.
            let set = unsafe { libc::sched_setscheduler(0, policy, &raw const parameters) };
            assert_eq!(set, 0, "{}", std::io::Error::last_os_error());
            let applied = super::apply(batch).unwrap();
            // SAFETY: pid 0 is the calling thread.
            let started = std::thread::spawn(|| unsafe { libc::sched_getscheduler(0) });
            (applied, started.join().unwrap())
        })
        .join()
        .unwrap()
    }

    #[test]
    fn the_default_policy_becomes_batch_for_every_thread_started_after() {
        assert_eq!(
            after_apply(libc::SCHED_OTHER, true),
            (Applied::Batch, libc::SCHED_BATCH)
        );
    }

    #[test]
    fn off_or_an_operators_own_policy_is_kept() {
        assert_eq!(
            after_apply(libc::SCHED_OTHER, false),
            (Applied::Kept, libc::SCHED_OTHER)
        );
        assert_eq!(
            after_apply(libc::SCHED_IDLE, true),
            (Applied::Kept, libc::SCHED_IDLE)
        );
    }
}
