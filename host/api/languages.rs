//! `GET /api/languages/:code`: one supported language as the app's list declares it (its
//! code, locale, own name and direction); a code the list does not have is a JSON 404. The
//! list is fixed for the build, so the answer may be kept an hour by anyone. It names its
//! data `language-<code>` (`Surrogate-Key`), from the list's code, never the one asked.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::{json_error, name_data};
use crate::lang::Languages;

pub async fn language(State(languages): State<Languages>, Path(code): Path<String>) -> Response {
    let Some(language) = languages.by_code(&code) else {
        return json_error(StatusCode::NOT_FOUND, format!("no such language: {code}"));
    };
    let mut response = Json(json!({
        "code": language.code(),
        "locale": languages.info(language).locale(),
        "name": languages.info(language).name(),
        "direction": languages.info(language).direction(),
    }))
    .into_response();
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    let key = format!("language-{}", language.code().to_ascii_lowercase());
    name_data(&mut response, &key);
    response
}
