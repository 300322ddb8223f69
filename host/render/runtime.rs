//! One V8 runtime with the server bundle loaded: the only place that speaks to V8.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use deno_core::{JsRuntime, RuntimeOptions, v8};

use super::watchdog::Watchdog;
use super::{Bundle, RenderError};

/// Limits a runtime lives under.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// A render running longer is terminated inside V8.
    pub timeout: Duration,
    /// The V8 heap a runtime may use: a render that reaches it is stopped, and the runtime
    /// replaced.
    pub heap_bytes: usize,
}

/// The global function `app/server.tsx` defines: JSON request in, JSON result out.
const RENDER_FUNCTION: &str = "bilingueRender";

pub struct Renderer {
    // Fields drop in this order: the handle to the render function before the isolate it
    // lives in, and the isolate before `tokio`, which holds its delayed V8 tasks.
    render: v8::Global<v8::Function>,
    runtime: JsRuntime,
    watchdog: Watchdog,
    near_heap_limit: Arc<AtomicBool>,
    timeout: Duration,
    stopped: bool,
    tokio: tokio::runtime::Runtime,
}

impl Renderer {
    /// Owns a current-thread tokio runtime: V8 schedules its delayed tasks on the runtime of
    /// the thread that creates the isolate, and aborts without one.
    pub fn new(bundle: &Bundle, limits: Limits) -> Result<Self, RenderError> {
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
            create_params: Some(v8::CreateParams::default().heap_limits(0, limits.heap_bytes)),
            ..Default::default()
        };
        let mut runtime =
            JsRuntime::try_new(options).map_err(|e| RenderError::Start(e.to_string()))?;
        if let Bundle::Script(source) = bundle {
            runtime
                .execute_script("bilingue:server.js", source.to_string())
                .map_err(|e| RenderError::Script(e.to_string()))?;
        }
        let render = {
            deno_core::scope!(scope, runtime);
            let global = scope.get_current_context().global(scope);
            let name = v8::String::new(scope, RENDER_FUNCTION).expect("short ASCII string");
            let value = global.get(scope, name.into());
            let function = value
                .and_then(|v| v8::Local::<v8::Function>::try_from(v).ok())
                .ok_or_else(|| {
                    RenderError::Script(format!("the bundle defines no function {RENDER_FUNCTION}"))
                })?;
            v8::Global::new(scope, function)
        };
        let isolate = runtime.v8_isolate().thread_safe_handle();
        let near_heap_limit = Arc::new(AtomicBool::new(false));
        let flag = near_heap_limit.clone();
        let terminate = isolate.clone();
        let ceiling = limits.heap_bytes * 2;
        runtime.add_near_heap_limit_callback(move |current, _initial| {
            // The heap is full of live objects (V8 calls this after collecting): stop the
            // script, and give it just the room to unwind. The thread replaces this runtime
            // once the render has returned. Never past twice the limit: a heap that still
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
            runtime,
            watchdog,
            near_heap_limit,
            render,
            timeout: limits.timeout,
            stopped: false,
            tokio,
        })
    }

    /// Calls the bundle's render function with one JSON argument and returns its JSON
    /// answer; stopped after `--render-timeout`.
    pub fn render(&mut self, request_json: &str) -> Result<String, RenderError> {
        self.render_within(request_json, self.timeout)
    }

    /// The same, stopped after `limit` (the warm-up has its own).
    pub fn render_within(
        &mut self,
        request_json: &str,
        limit: Duration,
    ) -> Result<String, RenderError> {
        self.watchdog.start(limit);
        let answer = self.call_render(request_json);
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
        answer
    }

    /// A render was stopped (its heap limit, its time-out): this runtime must be replaced
    /// before the next render.
    pub fn needs_replacing(&self) -> bool {
        self.stopped || self.near_heap_limit.load(Ordering::SeqCst)
    }

    /// Runs what V8 queued for this thread (GC steps, compilation results): deno_core
    /// delivers those only through its event loop, which nothing else turns here; left
    /// alone they would pile up for the life of the runtime. Costs ~3 µs a render.
    fn run_v8_tasks(&mut self) {
        let runtime = &mut self.runtime;
        if let Err(e) = self
            .tokio
            .block_on(runtime.run_event_loop(Default::default()))
        {
            tracing::warn!(error = %e, "a V8 task failed between renders");
        }
    }

    fn call_render(&mut self, request_json: &str) -> Result<String, RenderError> {
        deno_core::scope!(scope, self.runtime);
        v8::tc_scope!(let scope, scope);
        let function = v8::Local::new(scope, &self.render);
        let argument = v8::String::new(scope, request_json)
            .ok_or_else(|| RenderError::Answer("request too large for a V8 string".into()))?;
        let receiver = v8::undefined(scope).into();
        let answer = function.call(scope, receiver, &[argument.into()]);
        // React may queue microtasks (scheduler, MessageChannel): run them now, not never.
        scope.perform_microtask_checkpoint();
        match answer {
            Some(value) => Ok(value.to_rust_string_lossy(scope)),
            None if scope.has_terminated() => Err(RenderError::TimedOut),
            None => {
                let exception = scope.exception();
                let error = match exception {
                    Some(exception) => {
                        deno_core::error::JsError::from_v8_exception(scope, exception).to_string()
                    }
                    None => "the render stopped without an exception".to_string(),
                };
                Err(RenderError::Script(error))
            }
        }
    }
}
