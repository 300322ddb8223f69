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

/// Puts the calling thread, and so every thread it starts from now on, under
/// `SCHED_BATCH` (with `batch`) or the default policy.
#[cfg(target_os = "linux")]
pub fn apply(batch: bool) -> std::io::Result<()> {
    let policy = if batch {
        libc::SCHED_BATCH
    } else {
        libc::SCHED_OTHER
    };
    // Both policies take priority 0: the nice value still orders this process among others.
    let parameters = libc::sched_param { sched_priority: 0 };
    // SAFETY: `parameters` is a valid `sched_param` for the duration of the call, and pid 0
    // is the calling thread.
    let result = unsafe { libc::sched_setscheduler(0, policy, &raw const parameters) };
    if result == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Elsewhere, the system's own scheduling.
#[cfg(not(target_os = "linux"))]
pub fn apply(_batch: bool) -> std::io::Result<()> {
    Ok(())
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// The policy of a thread started after `apply`, as the kernel reports it.
    fn policy_of_a_thread_started_after(batch: bool) -> libc::c_int {
        std::thread::spawn(move || {
            super::apply(batch).unwrap();
            std::thread::spawn(|| {
                // SAFETY: pid 0 is the calling thread.
                unsafe { libc::sched_getscheduler(0) }
            })
            .join()
            .unwrap()
        })
        .join()
        .unwrap()
    }

    #[test]
    fn a_thread_started_after_it_inherits_the_policy() {
        assert_eq!(policy_of_a_thread_started_after(true), libc::SCHED_BATCH);
        assert_eq!(policy_of_a_thread_started_after(false), libc::SCHED_OTHER);
    }
}
