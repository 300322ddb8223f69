//! One V8 runtime with the server bundle loaded: the only place that speaks to V8.

use std::ffi::c_void;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use deno_core::{JsRuntime, RuntimeOptions, v8};

use super::bundle::{Bundle, KindClaim};
use super::contract::{ENTRY_POINTS, parameter_count};
use super::error::RenderError;
use super::outbox_ops::Outbox;
use super::shell_hold::{Holds, ShellHold};
use super::watchdog::Watchdog;

/// Limits a runtime lives under.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// A call into the bundle running longer is terminated inside V8.
    pub timeout: Duration,
    /// The V8 heap a runtime may use: a render that reaches it is stopped, and the runtime
    /// replaced. ArrayBuffer memory, which lives outside the heap, has a budget of the
    /// same size: an allocation past it fails in the script.
    pub heap_bytes: usize,
}

/// ArrayBuffer and typed-array memory, counted: V8 asks the embedder for it, outside its
/// heap and so outside the heap limit.
struct ArrayBufferBudget {
    used: AtomicUsize,
    limit: usize,
}

impl ArrayBufferBudget {
    fn reserve(&self, len: usize) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(len).filter(|total| *total <= self.limit)
            })
            .is_ok()
    }

    fn release(&self, len: usize) {
        self.used.fetch_sub(len, Ordering::AcqRel);
    }
}

// V8 calls these to allocate and free ArrayBuffer memory; a null pointer makes the script's
// allocation fail with a RangeError.
unsafe extern "C" fn allocate(budget: &ArrayBufferBudget, len: usize) -> *mut c_void {
    if !budget.reserve(len) {
        return std::ptr::null_mut();
    }
    // SAFETY: calloc of any size is sound; a null result is handled.
    let data = unsafe { libc::calloc(len.max(1), 1) };
    if data.is_null() {
        budget.release(len);
    }
    data
}

unsafe extern "C" fn allocate_uninitialized(budget: &ArrayBufferBudget, len: usize) -> *mut c_void {
    if !budget.reserve(len) {
        return std::ptr::null_mut();
    }
    // SAFETY: as above.
    let data = unsafe { libc::malloc(len.max(1)) };
    if data.is_null() {
        budget.release(len);
    }
    data
}

unsafe extern "C" fn free(budget: &ArrayBufferBudget, data: *mut c_void, len: usize) {
    // SAFETY: V8 frees only what `allocate` gave it, with the length it asked for.
    unsafe { libc::free(data) };
    budget.release(len);
}

unsafe extern "C" fn drop_budget(budget: *const ArrayBufferBudget) {
    // SAFETY: the pointer came from `Arc::into_raw` when the allocator was made.
    drop(unsafe { Arc::from_raw(budget) });
}

static BUDGET_ALLOCATOR: v8::RustAllocatorVtable<ArrayBufferBudget> = v8::RustAllocatorVtable {
    allocate,
    allocate_uninitialized,
    free,
    drop: drop_budget,
};

/// V8's parameters for one runtime: its heap limit, and its ArrayBuffer budget.
fn create_params(limits: Limits) -> v8::CreateParams {
    let budget = Arc::new(ArrayBufferBudget {
        used: AtomicUsize::new(0),
        limit: limits.heap_bytes,
    });
    // SAFETY: the handle is the budget, leaked into the allocator and freed by its drop.
    let allocator = unsafe { v8::new_rust_allocator(Arc::into_raw(budget), &BUDGET_ALLOCATOR) };
    v8::CreateParams::default()
        .heap_limits(0, limits.heap_bytes)
        .array_buffer_allocator(allocator)
}

/// The bundle's entry points ([`ENTRY_POINTS`], `app/server.tsx`).
struct Entries {
    render: v8::Global<v8::Function>,
    deliver: v8::Global<v8::Function>,
    cancel: v8::Global<v8::Function>,
    halt: v8::Global<v8::Function>,
}

/// WebAssembly is not offered to a bundle: the app has none, and its memory would live
/// outside every limit (this V8 has no flag to turn it off).
const WITHOUT_WEBASSEMBLY: &str = "delete globalThis.WebAssembly;";

/// An argument to an entry point.
enum Argument<'a> {
    /// JSON.
    Text(&'a str),
    Number(u64),
}

pub struct Renderer {
    // Fields drop in this order: the handles to the bundle's functions before the isolate
    // they live in, and the isolate before `tokio`, which holds its delayed V8 tasks.
    entries: Entries,
    runtime: JsRuntime,
    watchdog: Watchdog,
    near_heap_limit: Arc<AtomicBool>,
    timeout: Duration,
    stopped: bool,
    tokio: tokio::runtime::Runtime,
    /// Given back once the isolate has gone.
    _kind: KindClaim,
}

impl Renderer {
    /// Owns a current-thread tokio runtime: V8 schedules its delayed tasks on the runtime of
    /// the thread that creates the isolate, and aborts without one.
    pub fn new(bundle: &Bundle, limits: Limits) -> Result<Self, RenderError> {
        let kind = bundle.claim()?;
        super::v8_flags::set_once();
        let tokio = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| RenderError::Start(format!("no tokio runtime for V8: {e}")))?;
        let _entered = tokio.enter();
        let startup_snapshot = match bundle {
            Bundle::Snapshot(snapshot) => Some(*snapshot),
            Bundle::Script(_) => None,
        };
        let options = RuntimeOptions {
            startup_snapshot,
            create_params: Some(create_params(limits)),
            extensions: vec![super::outbox_ops::bilingue_outbox::init()],
            ..Default::default()
        };
        let mut runtime =
            JsRuntime::try_new(options).map_err(|e| RenderError::Start(e.to_string()))?;
        if let Bundle::Script(source) = bundle {
            // Before any of the bundle runs, as build.rs does before the snapshot's.
            runtime
                .execute_script("bilingue:setup.js", WITHOUT_WEBASSEMBLY)
                .map_err(|e| RenderError::Start(e.to_string()))?;
            super::shared_source::run(&mut runtime, "bilingue:server.js", source)?;
        }
        let entries = {
            deno_core::scope!(scope, runtime);
            let global = scope.get_current_context().global(scope);
            let function = |name: &str| {
                let key = v8::String::new(scope, name).expect("short ASCII string");
                global
                    .get(scope, key.into())
                    .and_then(|v| v8::Local::<v8::Function>::try_from(v).ok())
                    .map(|f| v8::Global::new(scope, f))
                    .ok_or_else(|| {
                        RenderError::Script(format!("the bundle defines no function {name}"))
                    })
            };
            Entries {
                render: function(ENTRY_POINTS.render)?,
                deliver: function(ENTRY_POINTS.deliver)?,
                cancel: function(ENTRY_POINTS.cancel)?,
                halt: function(ENTRY_POINTS.halt)?,
            }
        };
        let isolate = runtime.v8_isolate().thread_safe_handle();
        let near_heap_limit = Arc::new(AtomicBool::new(false));
        let flag = near_heap_limit.clone();
        let terminate = isolate.clone();
        let ceiling = limits.heap_bytes * 2;
        runtime.add_near_heap_limit_callback(move |current, _initial| {
            // The heap is full of live objects (V8 calls this after collecting): stop the
            // script, and give it just the room to unwind. The thread replaces this runtime
            // once the call has returned. Never past twice the limit: a heap that still
            // grows then is past saving, and V8 ends the process rather than the machine.
            flag.store(true, Ordering::SeqCst);
            terminate.terminate_execution();
            (current + current / 4).min(ceiling).max(current)
        });
        let watchdog = Watchdog::spawn(move || {
            isolate.terminate_execution();
        })
        .map_err(|e| RenderError::Start(format!("cannot spawn a watchdog thread: {e}")))?;
        Ok(Self {
            entries,
            runtime,
            watchdog,
            near_heap_limit,
            timeout: limits.timeout,
            stopped: false,
            tokio,
            _kind: kind,
        })
    }

    /// Starts the page `request` asks for (a [`RenderRequest`], JSON) as `job`; what it
    /// handed over. With its stream nonce, the bundle may stream the page, and its shell
    /// ask says whether to prerender its static shell or resume from one sent already (a
    /// shell is made in two calls: this one starts it, and once its microtasks have run,
    /// [`Renderer::halt`] ends it where it waits for data). `limit` replaces
    /// `--render-timeout` (the warm-up has its own).
    pub fn start(
        &mut self,
        request: &str,
        job: u64,
        limit: Option<Duration>,
    ) -> Result<Outbox, RenderError> {
        let render = self.entries.render.clone();
        let arguments = [Argument::Text(request), Argument::Number(job)];
        debug_assert_eq!(arguments.len(), parameter_count("render"));
        self.call(&render, &arguments, limit)
    }

    /// Page `job`'s kept shell is held for its data: the bundle asks about it once the data
    /// is there (`op_bilingue_shell_sent`).
    pub fn hold(&mut self, job: u64, hold: &Arc<ShellHold>) {
        let state = self.runtime.op_state();
        state.borrow_mut().borrow_mut::<Holds>().insert(job, hold);
    }

    /// Ends the shells being prerendered: what they wait for now becomes their holes.
    pub fn halt(&mut self) -> Result<Outbox, RenderError> {
        let halt = self.entries.halt.clone();
        debug_assert_eq!(0, parameter_count("halt"));
        self.call(&halt, &[], None)
    }

    /// Hands the bundle the answers to its API calls (a JSON array); what it handed over.
    pub fn deliver(&mut self, answers_json: &str) -> Result<Outbox, RenderError> {
        let deliver = self.entries.deliver.clone();
        debug_assert_eq!(1, parameter_count("deliver"));
        self.call(&deliver, &[Argument::Text(answers_json)], None)
    }

    /// Stops the streamed page `job`, whose client went away; what it handed over.
    pub fn cancel(&mut self, job: u64) -> Result<Outbox, RenderError> {
        let cancel = self.entries.cancel.clone();
        debug_assert_eq!(1, parameter_count("cancel"));
        self.call(&cancel, &[Argument::Number(job)], None)
    }

    /// Its V8 heap in use, in bytes.
    pub fn heap_used(&mut self) -> u64 {
        self.runtime
            .v8_isolate()
            .get_heap_statistics()
            .used_heap_size() as u64
    }

    /// A call was stopped (its heap limit, its time-out): this runtime must be replaced
    /// before the next one.
    pub fn needs_replacing(&self) -> bool {
        self.stopped || self.near_heap_limit.load(Ordering::SeqCst)
    }

    /// One call into the bundle, stopped after `limit` (else `--render-timeout`); the
    /// microtasks it queued (promise continuations, React's scheduler) run before it ends.
    /// What the bundle handed over meanwhile, through the ops, is taken whatever happened:
    /// it is this call's alone.
    fn call(
        &mut self,
        function: &v8::Global<v8::Function>,
        arguments: &[Argument<'_>],
        limit: Option<Duration>,
    ) -> Result<Outbox, RenderError> {
        self.watchdog.start(limit.unwrap_or(self.timeout));
        let answer = self.call_unguarded(function, arguments);
        let state = self.runtime.op_state();
        let handed = std::mem::take(state.borrow_mut().borrow_mut::<Outbox>());
        // After this no stop is on its way, so the cancel below clears any for good.
        self.watchdog.finish();
        let answer = match answer {
            Err(RenderError::TimedOut) if self.needs_replacing() => Err(RenderError::HeapExhausted),
            Err(RenderError::TimedOut) => {
                // Stopped mid-script, its `finally` blocks unrun: the bundle's own state
                // (React's, say) may be half-changed, so this runtime serves no more.
                self.stopped = true;
                Err(RenderError::TimedOut)
            }
            answer => answer,
        };
        self.runtime.v8_isolate().cancel_terminate_execution();
        self.run_v8_tasks();
        answer.map(|()| handed)
    }

    /// Runs what V8 queued for this thread (GC steps, compilation results): deno_core
    /// delivers those only through its event loop, which nothing else turns here; left
    /// alone they would pile up for the life of the runtime. Costs ~3 µs a call.
    fn run_v8_tasks(&mut self) {
        let runtime = &mut self.runtime;
        if let Err(e) = self
            .tokio
            .block_on(runtime.run_event_loop(Default::default()))
        {
            tracing::warn!(error = %e, "a V8 task failed between renders");
        }
    }

    fn call_unguarded(
        &mut self,
        function: &v8::Global<v8::Function>,
        arguments: &[Argument<'_>],
    ) -> Result<(), RenderError> {
        deno_core::scope!(scope, self.runtime);
        v8::tc_scope!(let scope, scope);
        let function = v8::Local::new(scope, function);
        let mut values = Vec::with_capacity(arguments.len());
        for argument in arguments {
            let value: v8::Local<v8::Value> = match argument {
                Argument::Text(text) => v8::String::new(scope, text)
                    .ok_or_else(|| RenderError::Unreadable("an argument too large for V8".into()))?
                    .into(),
                Argument::Number(n) => v8::Number::new(scope, *n as f64).into(),
            };
            values.push(value);
        }
        let receiver = v8::undefined(scope).into();
        let answer = function.call(scope, receiver, &values);
        // Promise continuations and React's scheduler queue microtasks: run them now, so
        // that what they hand over comes with this call.
        scope.perform_microtask_checkpoint();
        match answer {
            Some(_) if !scope.has_terminated() => Ok(()),
            _ if scope.has_terminated() => Err(RenderError::TimedOut),
            _ => {
                let exception = scope.exception();
                let error = match exception {
                    Some(exception) => {
                        deno_core::error::JsError::from_v8_exception(scope, exception).to_string()
                    }
                    None => "the bundle stopped without an exception".to_string(),
                };
                Err(RenderError::Script(error))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::contract::{BootState, RenderRequest, ShellAsk};
    use crate::render::outbox_ops::Handed;

    #[test]
    fn one_call_hands_over_the_page_its_microtasks_made_with_its_markup_apart() {
        let _v8 = crate::test_support::v8_runtimes();
        let bundle = Bundle::Snapshot(crate::assets::SERVER_SNAPSHOT);
        let limits = Limits {
            timeout: Duration::from_secs(10),
            heap_bytes: 64 << 20,
        };
        let mut renderer = Renderer::new(&bundle, limits).unwrap();
        // The home page, first in this runtime: its screen's module comes in a microtask,
        // the page after it.
        let boot = BootState {
            language: crate::lang::demo().by_code("fr").unwrap(),
            path: "/".into(),
            page: None,
            messages: None,
            time_zone: "UTC".into(),
            data: None,
            placement: None,
        };
        let request = RenderRequest {
            boot: &boot,
            stream_nonce: None,
            shell: &ShellAsk::None,
        };
        let request = serde_json::to_string(&request).unwrap();
        let handed = renderer.start(&request, 1, None).unwrap();
        let [Handed::Rendered { job, html, result }] = handed.0.as_slice() else {
            panic!("one page: {handed:?}")
        };
        assert_eq!(*job, 1);
        assert!(html.starts_with("<main"), "{html}");
        assert!(!result.contains("<main"), "no markup in the JSON: {result}");
        let again = renderer.halt().unwrap();
        assert!(again.0.is_empty(), "taken once: {again:?}");
    }
}
