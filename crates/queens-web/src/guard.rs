//! What every request passes before a handler sees it, and what every error looks like.
//!
//! - **Host**: a name other than `localhost` or an IP address must be the host of an allowed
//!   origin (`serve --allow-origin`), so that a page on another site cannot reach the server
//!   through a DNS name rebound to 127.0.0.1.
//! - **Origin**: a request that says where it comes from must come from the page itself (the
//!   same scheme, host and port as it asked for) or from an allowed origin; a page on another
//!   site cannot start jobs on a user's server.
//! - **Cross-site requests without an Origin**: a page on another site can still make the
//!   browser send a GET with no `Origin` (an `<img>` or `<script>` pointing at an API route).
//!   An API request whose `Sec-Fetch-Site` says `cross-site` or `same-site` (or, from a browser
//!   that does not send it, whose `Referer` names another origin) is refused unless that origin
//!   is allowed. The page itself may be linked from anywhere.
//! - **Strict requests**: an HTTP/1.1 request has one `Host` header, neither none nor several
//!   (400 otherwise, so that the Host check cannot be skipped); a body declared over the limit
//!   is 413 at once, and a body arrives within the body time limit or the request is 408.
//! - **Content type**: a POST to a route that takes one must say `application/json` (which a
//!   plain cross-site form cannot); a POST to a route that does not is 405, as any other method
//!   a route does not take.
//! - **JSON errors**: every error response — ours, and the framework's own (404, 405, 413) —
//!   carries `{"error": "..."}`.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, Version, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use queens_api::document::ErrorDocument;

use crate::AppState;
use crate::error::ApiError;

/// Refuses requests from other sites and malformed ones, whatever their route.
pub async fn check(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    if let Err(error) = verdict(&state, request.version(), request.headers(), api) {
        return error.into_response();
    }
    next.run(request).await
}

/// On a route and method that take the request (a route layer, so that a method the route does
/// not take stays 405): refuses a POST that is not JSON, and reads its body within the time
/// limit.
pub async fn json_body(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    if let Err(error) = json_content_type(request.headers()) {
        return error.into_response();
    }
    let (parts, body) = request.into_parts();
    let limits = state.limits();
    let read = tokio::time::timeout(
        limits.body_timeout,
        axum::body::to_bytes(body, limits.body_bytes),
    )
    .await;
    let bytes = match read {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return ApiError::too_large(format!(
                "the request body is too large (at most {} bytes)",
                limits.body_bytes
            ))
            .into_response();
        }
        Err(_) => {
            return ApiError::timeout(format!(
                "the request body did not arrive within {} s",
                limits.body_timeout.as_secs()
            ))
            .into_response();
        }
    };
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
        .await
}

fn verdict(
    state: &AppState,
    version: Version,
    headers: &HeaderMap,
    api: bool,
) -> Result<(), ApiError> {
    match headers.get_all(header::HOST).iter().count() {
        0 if version == Version::HTTP_11 => {
            return Err(ApiError::bad(
                "an HTTP/1.1 request names its Host (RFC 9112, section 3.2)",
            ));
        }
        0 | 1 => {}
        _ => return Err(ApiError::bad("a request has one Host header, not several")),
    }
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if let Some(declared) = declared
        && declared > state.limits().body_bytes as u64
    {
        return Err(ApiError::too_large(format!(
            "the request body is too large ({declared} bytes declared, at most {})",
            state.limits().body_bytes
        )));
    }
    let allowed = &state.limits().allowed_origins;
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .map(str::trim);
    if let Some(host) = host
        && !host_is_local(host)
        && !allowed
            .iter()
            .any(|origin| origin_host(origin) == Some(host))
    {
        return Err(ApiError::forbidden(format!(
            "this server answers requests for localhost or an IP address, not '{host}' \
             (start it with --allow-origin to serve another name)"
        )));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or_default().trim();
        let same = host.is_some_and(|host| origin_host(origin) == Some(host));
        if !same && !allowed.iter().any(|allowed| allowed == origin) {
            return Err(ApiError::forbidden(format!(
                "requests from {origin} are not allowed (start the server with --allow-origin \
                 {origin} to allow them)"
            )));
        }
    }
    if api && headers.get(header::ORIGIN).is_none() {
        cross_site_check(headers, host, allowed)?;
    }
    Ok(())
}

/// Refuses a body that does not say it is JSON.
pub(crate) fn json_content_type(headers: &HeaderMap) -> Result<(), ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"));
    if json {
        Ok(())
    } else {
        Err(ApiError::unsupported_media(
            "send the request body as JSON, with Content-Type: application/json",
        ))
    }
}

/// An API request without an `Origin`: refused when the browser says another site sent it.
fn cross_site_check(
    headers: &HeaderMap,
    host: Option<&str>,
    allowed: &[String],
) -> Result<(), ApiError> {
    let text = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    let refused = |from: &str| {
        Err(ApiError::forbidden(format!(
            "requests from another site ({from}) may not use the API (start the server with \
             --allow-origin to allow a site)"
        )))
    };
    let referer_origin = text("referer").and_then(|referer| {
        let (scheme, rest) = referer.split_once("://")?;
        let host = rest.split(['/', '?', '#']).next()?;
        Some(format!("{scheme}://{host}"))
    });
    match text("sec-fetch-site").map(str::trim) {
        Some("same-origin" | "none") => Ok(()),
        Some(site) => match &referer_origin {
            Some(origin) if allowed.contains(origin) => Ok(()),
            Some(origin) => refused(origin),
            None => refused(site),
        },
        // A browser without Fetch Metadata: judge by the Referer, if it sent one.
        None => match &referer_origin {
            Some(origin)
                if host.is_none_or(|host| origin_host(origin) != Some(host))
                    && !allowed.contains(origin) =>
            {
                refused(origin)
            }
            _ => Ok(()),
        },
    }
}

/// `host:port` of an origin (`http://host:port`), without the scheme.
fn origin_host(origin: &str) -> Option<&str> {
    origin
        .split_once("://")
        .map(|(_, rest)| rest.trim_end_matches('/'))
}

/// `localhost` or an IP address, with or without a port: names no other site can rebind.
fn host_is_local(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        // [::1]:7878
        rest.split(']').next().unwrap_or_default()
    } else {
        host.rsplit_once(':')
            .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
            .map_or(host, |(name, _)| name)
    };
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok()
}

/// Gives every error response a JSON body: the framework's own rejections (no route, wrong
/// method, a body over the limit) come as plain text or nothing.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_owned())
        .unwrap_or_default();
    let message = match status {
        StatusCode::NOT_FOUND => "no such page or API route".to_owned(),
        StatusCode::METHOD_NOT_ALLOWED => "this route does not take that method".to_owned(),
        StatusCode::PAYLOAD_TOO_LARGE => "the request body is too large".to_owned(),
        _ if !text.is_empty() => text,
        _ => status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_lowercase(),
    };
    let mut response = (status, axum::Json(ErrorDocument::new(message))).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            response.headers_mut().insert(name, value.clone());
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_hosts_are_names_no_one_can_rebind() {
        for host in [
            "localhost",
            "localhost:7878",
            "127.0.0.1:7878",
            "[::1]:80",
            "10.0.0.5",
        ] {
            assert!(host_is_local(host), "{host}");
        }
        for host in [
            "evil.example:7878",
            "queens.example.org",
            "127.0.0.1.nip.io",
        ] {
            assert!(!host_is_local(host), "{host}");
        }
        assert_eq!(origin_host("http://localhost:7878"), Some("localhost:7878"));
    }
}
