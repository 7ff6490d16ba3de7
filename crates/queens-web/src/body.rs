//! JSON request bodies as an axum extractor that shapes its own refusals: a body that does not
//! say it is JSON is a 415 (whatever layers a route has, so that no cross-site form reaches a
//! handler), a body that is not the route's JSON is a 400 `{"error": "malformed request: …"}`
//! naming the field, and a body that cannot be read keeps axum's status with the same JSON
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
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|error| ApiError::bad(format!("malformed request: {error}")))
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
