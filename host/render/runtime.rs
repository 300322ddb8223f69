//! One V8 runtime with the server bundle loaded: the only place that speaks to V8.

use deno_core::{JsRuntime, RuntimeOptions, v8};

use super::{Bundle, RenderError};

/// The global function `app/server.tsx` defines: JSON request in, JSON result out.
const RENDER_FUNCTION: &str = "bilingueRender";

pub struct Renderer {
    runtime: JsRuntime,
    render: v8::Global<v8::Function>,
}

impl Renderer {
    /// Must run on a thread with a tokio runtime entered: V8's delayed tasks need one.
    pub fn new(bundle: &Bundle) -> Result<Self, RenderError> {
        let startup_snapshot = match bundle {
            Bundle::Snapshot(snapshot) => Some(*snapshot),
            Bundle::Script(_) => None,
        };
        let options = RuntimeOptions { startup_snapshot, ..Default::default() };
        let mut runtime = JsRuntime::try_new(options).map_err(|e| RenderError::Start(e.to_string()))?;
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
        Ok(Self { runtime, render })
    }

    /// Calls the bundle's render function with one JSON argument and returns its JSON answer.
    pub fn render(&mut self, request_json: &str) -> Result<String, RenderError> {
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
