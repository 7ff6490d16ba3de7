//! JSON request bodies as an axum extractor that shapes its own refusals: a body that is not
//! the route's JSON is a 400 `{"error": "malformed request: …"}` naming the field, and a body
//! that cannot be read keeps axum's status with the same JSON shape, so that no handler parses
//! bytes by hand.

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
