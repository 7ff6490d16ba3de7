//! API errors: a status code and `{"error": "..."}`; the libraries' errors in a request convert
//! into a 400 with their own message.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use queens_api::document::ErrorDocument;

/// A request the server refuses, with the reason in the client's terms.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    /// A refusal with `status`.
    pub fn with_status(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// Bad input: 400.
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// A request from a site or for a host this server does not serve: 403.
    pub fn forbidden(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::FORBIDDEN,
            message: message.into(),
        }
    }

    /// A body over the size limit: 413.
    pub fn too_large(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: message.into(),
        }
    }

    /// A body that did not arrive in time: 408.
    pub fn timeout(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            message: message.into(),
        }
    }

    /// A body that is not JSON: 415.
    pub fn unsupported_media(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            message: message.into(),
        }
    }

    /// The server is shutting down: 503.
    pub fn unavailable(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }

    /// No such thing: 404.
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// Too many jobs running: 429.
    pub fn busy(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::TOO_MANY_REQUESTS,
            message: message.into(),
        }
    }

    /// The server failed: 500.
    pub fn internal(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
        }
    }
}

/// Errors in what the client asked for: each is a 400 with the library's own sentence, so that
/// the server, the command line and Python say the same.
macro_rules! bad_request_from {
    ($($error:ty),+ $(,)?) => {$(
        impl From<$error> for ApiError {
            fn from(error: $error) -> Self {
                ApiError::bad(error.to_string())
            }
        }
    )+};
}

bad_request_from!(
    queens_core::ParamError,
    queens_api::catalogue::UnknownSolver,
    queens_api::challenge::ChallengeError,
    queens_api::experiment::ExperimentError,
    queens_api::count::CountError,
    queens_api::configure::PositionError,
    queens_api::configure::UnknownEngine,
    queens_core::instance::InstanceError,
);

/// The front door's refusals that may name a setting: a 400 whose sentence names it as the
/// page sends it (`max_iters`, not `--max-iters`).
macro_rules! bad_request_worded {
    ($($error:ty),+ $(,)?) => {$(
        impl From<$error> for ApiError {
            fn from(error: $error) -> Self {
                ApiError::bad(queens_api::Worded::worded(&error, queens_api::Words::Page))
            }
        }
    )+};
}

bad_request_worded!(queens_api::RequestError);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(ErrorDocument::new(self.message))).into_response()
    }
}
