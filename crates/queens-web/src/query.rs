//! Query strings of the streaming endpoints, read by hand so that every mistake is a 400 with a
//! JSON message naming the parameter.

use std::collections::BTreeMap;
use std::str::FromStr;

use crate::error::ApiError;

/// The parameters of a query string, by name (the last value wins).
#[derive(Debug, Default)]
pub struct Params(BTreeMap<String, String>);

impl Params {
    /// Parses `query` (without the `?`).
    pub fn parse(query: Option<&str>) -> Self {
        Params(
            form_urlencoded::parse(query.unwrap_or_default().as_bytes())
                .into_owned()
                .collect(),
        )
    }

    /// A parameter's text, if given and not blank.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.0
            .get(name)
            .map(|value| value.trim())
            .filter(|value| !value.is_empty())
    }

    /// A parameter parsed as `T`, if given.
    pub fn get<T: FromStr>(&self, name: &str) -> Result<Option<T>, ApiError> {
        self.text(name)
            .map(|text| {
                text.parse()
                    .map_err(|_| ApiError::bad(format!("{name} must be a number, got '{text}'")))
            })
            .transpose()
    }

    /// A required parameter parsed as `T`.
    pub fn require<T: FromStr>(&self, name: &str) -> Result<T, ApiError> {
        self.get(name)?
            .ok_or_else(|| ApiError::bad(format!("the query needs {name}")))
    }

    /// The parameters not in `known`, as name and value.
    pub fn others<'a>(&'a self, known: &'a [&str]) -> impl Iterator<Item = (&'a str, &'a str)> {
        self.0
            .iter()
            .filter(|(name, _)| !known.contains(&name.as_str()))
            .map(|(name, value)| (name.as_str(), value.as_str()))
    }
}

/// Checks that `n` lies in `1..=max`.
pub fn check_side(n: u32, max: u32) -> Result<u32, ApiError> {
    if (1..=max).contains(&n) {
        Ok(n)
    } else {
        Err(ApiError::bad(format!(
            "n must be between 1 and {max} on this server, got {n}"
        )))
    }
}
