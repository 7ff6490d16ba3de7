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

/// `bytes` read as a JSON object of type `T`, or the 400 that names what is wrong.
fn read<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    queens_core::json::read_object(bytes, "the body")
        .map_err(|refusal| ApiError::bad(format!("malformed request: {refusal}")))
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

    /// The words are `queens_core::json`'s (tested there); the server gives them as a 400.
    #[test]
    fn a_refusal_is_a_400_naming_the_field_it_got_wrong() {
        assert_eq!(
            refusal(r#"{"runs": 1, "squares": [{"row": -1}]}"#),
            "malformed request: squares[0].row: invalid value: integer `-1`, expected a whole \
             number from 0 to 4294967295 at line 1 column 34"
        );
        assert_eq!(
            refusal("[]"),
            "malformed request: the body: invalid type: array, expected an object"
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
