//! The route tables the unit tests build: the app's pages by route, and routes the same
//! in every language.

use super::{AppRoutes, DeclaredRoute, EMBEDDED, filled};

/// Routes whose pattern is the same in every language, each named after its first
/// segment (`home` for `/`).
pub fn declared_everywhere(patterns: &[&str]) -> Vec<DeclaredRoute> {
    patterns
        .iter()
        .map(|pattern| DeclaredRoute {
            name: match pattern.split('/').nth(1).unwrap_or_default() {
                "" => "home".into(),
                first => first.replace(|c: char| !c.is_ascii_alphanumeric(), ""),
            },
            paths: crate::lang::demo()
                .all()
                .map(|language| (language.code().to_owned(), pattern.to_string()))
                .collect(),
            params: Default::default(),
            loads: true,
        })
        .collect()
}

/// The app's page of `route` in the language `code`, its parameters `params` (tests): its
/// URL path, prefix and all, from the embedded manifest's routes.
pub fn app_page(code: &str, route: &str, params: &[(&str, &str)]) -> String {
    let declared = EMBEDDED
        .routes
        .iter()
        .find(|declared| declared.name == route)
        .unwrap_or_else(|| panic!("the app has no route {route:?}"));
    let path = filled(&declared.paths[code], |name| {
        params
            .iter()
            .find(|(param, _)| *param == name)
            .unwrap_or_else(|| panic!("{route} needs {name}"))
            .1
    });
    format!("/{code}{path}")
}

impl AppRoutes {
    /// Routes whose pattern is the same in every language ([`declared_everywhere`]).
    pub fn same_in_every_language(patterns: &[&str]) -> Self {
        Self::new(&crate::lang::demo(), &declared_everywhere(patterns))
            .expect("every language has a path")
    }
}
