//! A route's parameter forms as the build wrote them (`params` in `app/routes.ts`, checked
//! to be in the dialect of `app/data/formDialect.ts`): compiled with the `regex` crate,
//! which reads that dialect as JavaScript does with the `u` flag, so that the host takes a
//! path for a route's page exactly when the app's router does. Both engines are held to
//! the cases of `app/data/form-cases.json`.

use std::collections::BTreeMap;

use regex::Regex;

/// The forms of one route's parameters; a parameter without one takes any value.
#[derive(Debug, Clone, Default)]
pub struct Forms(Vec<(String, Regex)>);

impl Forms {
    /// Fails, naming the route and the parameter, on a form the engine cannot read.
    pub fn new(route: &str, declared: &BTreeMap<String, String>) -> Result<Self, String> {
        declared
            .iter()
            .map(|(param, form)| {
                Regex::new(form).map(|regex| (param.clone(), regex)).map_err(|error| {
                    format!("the manifest's route {route:?}: the form of {param:?}, {form:?}: {error}")
                })
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }

    /// Whether `value` (decoded) is of the form `param` declares.
    pub fn take(&self, param: &str, value: &str) -> bool {
        self.0
            .iter()
            .find(|(name, _)| name == param)
            .is_none_or(|(_, form)| form.is_match(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_takes_the_same_values_here_as_in_javascript() {
        #[derive(serde::Deserialize)]
        struct Case {
            form: String,
            value: String,
            matches: bool,
        }
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../../app/data/form-cases.json")).unwrap();
        assert!(cases.len() >= 30);
        for case in cases {
            let forms = Forms::new("r", &[("p".to_string(), case.form.clone())].into()).unwrap();
            assert_eq!(
                forms.take("p", &case.value),
                case.matches,
                "{} on {:?}",
                case.form,
                case.value
            );
            assert!(forms.take("other", &case.value), "an undeclared parameter");
        }
    }

    /// The build's limits on repetitions and nesting (app/data/formDialect.ts) keep every
    /// form it lets through within this engine's: these are at the limits.
    #[test]
    fn a_form_at_the_dialects_limits_compiles() {
        let forms: Vec<String> =
            serde_json::from_str(include_str!("../../app/data/form-limits.json")).unwrap();
        assert!(forms.len() >= 5);
        for form in forms {
            let compiled = Forms::new("r", &[("p".to_string(), form.clone())].into());
            assert!(compiled.is_ok(), "{form}: {compiled:?}");
        }
    }

    #[test]
    fn a_form_the_engine_cannot_read_is_refused_naming_its_route() {
        let error =
            Forms::new("pages", &[("id".to_string(), "^(a$".to_string())].into()).unwrap_err();
        assert!(
            error.contains(r#"route "pages": the form of "id""#),
            "{error}"
        );
    }
}
