//! One V8 runtime with the server bundle loaded: the only place that speaks to V8.

use deno_core::{JsRuntime, RuntimeOptions, v8};

use super::{Bundle, RenderError};

/// The global function `app/server.tsx` defines: JSON request in, JSON result out.
const RENDER_FUNCTION: &str = "bilingueRender";

pub struct Renderer {
    // Dropped before `tokio`: the runtime's delayed V8 tasks live on it.
    runtime: JsRuntime,
    render: v8::Global<v8::Function>,
    tokio: tokio::runtime::Runtime,
}

impl Renderer {
    /// Owns a current-thread tokio runtime: V8 schedules its delayed tasks on the runtime of
    /// the thread that creates the isolate, and aborts without one.
    pub fn new(bundle: &Bundle) -> Result<Self, RenderError> {
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
        Ok(Self {
            runtime,
            render,
            tokio,
        })
    }

    /// Calls the bundle's render function with one JSON argument and returns its JSON answer.
    pub fn render(&mut self, request_json: &str) -> Result<String, RenderError> {
        let answer = self.call_render(request_json);
        self.run_v8_tasks();
        answer
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
