//! JSON request bodies as an axum extractor that shapes its own refusals: a body that does not
//! say it is JSON is a 415 (whatever layers a route has, so that no cross-site form reaches a
//! handler), a body that is not the route's JSON is a 400 `{"error": "malformed request: …"}`
//! naming the field it got wrong in JSON's words (an object, an array, a whole number; never the
//! server's Rust types), and a body that cannot be read keeps axum's status with the same JSON
//! shape, so that no handler parses bytes by hand.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A body read as `T`.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        crate::guard::json_content_type(request.headers())?;
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                let status = rejection.status();
                ApiError::with_status(status, rejection.body_text())
            })?;
        read(&bytes).map(JsonBody)
    }
}

/// `bytes` read as one JSON document of type `T`, an object, or the refusal that names what is
/// wrong.
fn read<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        // serde reads an array as a struct's fields in order, and would name the element that
        // did not fit: the body is said to be the wrong kind of value instead.
        if let Some(kind) = not_an_object(bytes) {
            return ApiError::bad(format!(
                "malformed request: the body: invalid type: {kind}, expected an object"
            ));
        }
        let path = error.path().to_string();
        malformed(&path, error.inner())
    })?;
    deserializer.end().map_err(|error| malformed(".", &error))?;
    Ok(value)
}

/// The kind of JSON value `bytes` holds when it is one whole JSON value but not an object.
fn not_an_object(bytes: &[u8]) -> Option<&'static str> {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).ok()?;
    match bytes.iter().find(|byte| !byte.is_ascii_whitespace())? {
        b'{' => None,
        b'[' => Some("array"),
        b'"' => Some("string"),
        b'n' => Some("null"),
        b't' | b'f' => Some("boolean"),
        _ => Some("number"),
    }
}

/// The 400 for `error` at the field `path` (`.` for the body itself).
fn malformed(path: &str, error: &serde_json::Error) -> ApiError {
    // serde_json ends its message with the position; the words before it are rewritten.
    let position = format!(" at line {} column {}", error.line(), error.column());
    let message = error.to_string();
    let words = message.strip_suffix(&position).unwrap_or(&message);
    let words = if error.is_data() {
        in_json_words(words)
    } else {
        words.to_owned()
    };
    let place = match path {
        "." | "?" => "the body".to_owned(),
        field => field.to_owned(),
    };
    let position = if error.line() == 0 { "" } else { &position };
    ApiError::bad(format!("malformed request: {place}: {words}{position}"))
}

/// A message of serde's about a value of the wrong type, in the words of JSON rather than of
/// the Rust types the body is read into: "expected u32" is "expected a whole number from 0 to
/// 4294967295", "struct Square" is "an object", "sequence" is "array".
fn in_json_words(message: &str) -> String {
    let (found, expected) = match message.rsplit_once("expected ") {
        Some((found, expected)) => (found, Some(expected)),
        None => (message, None),
    };
    // A JSON array given where an object belongs is read as the object's fields in order.
    let found = if found.starts_with("invalid length") && expected.is_some_and(is_struct) {
        "invalid type: array, ".to_owned()
    } else {
        found
            .replace("invalid type: sequence", "invalid type: array")
            .replace("invalid type: map", "invalid type: object")
            .replace("floating point", "number")
    };
    match expected {
        Some(expected) => format!("{found}expected {}", expected_in_json_words(expected)),
        None => found,
    }
}

/// Whether serde's `expected` names a Rust struct (`struct Square`, `struct Request with 2
/// elements`).
fn is_struct(expected: &str) -> bool {
    expected.starts_with("struct ")
}

/// What serde says it expected, in JSON's words.
fn expected_in_json_words(expected: &str) -> String {
    let whole = |most: u64| format!("a whole number from 0 to {most}");
    match expected {
        "u8" => whole(u8::MAX.into()),
        "u16" => whole(u16::MAX.into()),
        "u32" => whole(u32::MAX.into()),
        "u64" | "u128" | "usize" => "a whole number of 0 or more".to_owned(),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".to_owned(),
        "f32" | "f64" => "a number".to_owned(),
        "a sequence" => "an array".to_owned(),
        "a map" => "an object".to_owned(),
        other if is_struct(other) => "an object".to_owned(),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::response::IntoResponse;

    async fn extract(content_type: &str) -> Result<serde_json::Value, ApiError> {
        let request = Request::builder()
            .method("POST")
            .header("content-type", content_type)
            .body(axum::body::Body::from(r#"{"n": 8}"#))
            .unwrap();
        JsonBody::from_request(request, &())
            .await
            .map(|JsonBody(value)| value)
    }

    #[test]
    fn serdes_words_for_rust_types_become_jsons() {
        for (serde, json) in [
            (
                "invalid type: string \"x\", expected u64",
                "invalid type: string \"x\", expected a whole number of 0 or more",
            ),
            (
                "invalid value: integer `-1`, expected u32",
                "invalid value: integer `-1`, expected a whole number from 0 to 4294967295",
            ),
            (
                "invalid type: floating point `1.5`, expected u8",
                "invalid type: number `1.5`, expected a whole number from 0 to 255",
            ),
            (
                "invalid length 0, expected struct ExperimentRequest with 6 elements",
                "invalid type: array, expected an object",
            ),
            (
                "invalid type: integer `5`, expected struct Square",
                "invalid type: integer `5`, expected an object",
            ),
            (
                "invalid type: map, expected a sequence",
                "invalid type: object, expected an array",
            ),
            (
                "invalid type: sequence, expected f64",
                "invalid type: array, expected a number",
            ),
            ("missing field `n`", "missing field `n`"),
            (
                "unknown field `x`, expected `rows`",
                "unknown field `x`, expected `rows`",
            ),
        ] {
            assert_eq!(in_json_words(serde), json, "{serde}");
        }
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Sample {
        runs: u64,
        #[serde(default)]
        squares: Vec<Square>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Square {
        row: u32,
    }

    fn refusal(body: &str) -> String {
        let error = read::<Sample>(body.as_bytes()).unwrap_err();
        let response = error.into_response();
        assert_eq!(response.status(), axum::http::StatusCode::BAD_REQUEST);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let bytes = rt
            .block_on(axum::body::to_bytes(response.into_body(), 1 << 16))
            .unwrap();
        let document: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        document["error"].as_str().unwrap().to_owned()
    }

    #[test]
    fn a_refusal_names_the_field_it_got_wrong() {
        assert_eq!(
            refusal(r#"{"runs": "x"}"#),
            "malformed request: runs: invalid type: string \"x\", expected a whole number of 0 \
             or more at line 1 column 12"
        );
        assert_eq!(
            refusal(r#"{"runs": 1, "squares": [{"row": -1}]}"#),
            "malformed request: squares[0].row: invalid value: integer `-1`, expected a whole \
             number from 0 to 4294967295 at line 1 column 34"
        );
        assert_eq!(
            refusal("[]"),
            "malformed request: the body: invalid type: array, expected an object"
        );
        assert_eq!(
            refusal(" [1, 2] "),
            "malformed request: the body: invalid type: array, expected an object"
        );
        assert_eq!(
            refusal("true"),
            "malformed request: the body: invalid type: boolean, expected an object"
        );
        assert_eq!(
            refusal(r#"{"runs": 1} {}"#),
            "malformed request: the body: trailing characters at line 1 column 13"
        );
        assert_eq!(
            refusal(r#"{"runs": 1"#),
            "malformed request: the body: EOF while parsing an object at line 1 column 10"
        );
    }

    #[tokio::test]
    async fn only_a_body_that_says_it_is_json_is_read() {
        assert_eq!(extract("application/json").await.unwrap()["n"], 8);
        assert_eq!(
            extract("application/json; charset=utf-8").await.unwrap()["n"],
            8
        );
        for other in ["text/plain", "application/x-www-form-urlencoded"] {
            let error = extract(other).await.unwrap_err();
            assert_eq!(
                error.into_response().status(),
                axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{other}"
            );
        }
    }
}
