//! Query strings of the streaming endpoints, read by hand so that every mistake is a 400 with a
//! JSON message naming the parameter.

use std::collections::BTreeMap;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use queens_core::error::excerpt;
use queens_core::json::WholeNumber;

use crate::error::ApiError;

/// The parameters of a query string, by name, each given once; as an extractor, the request's
/// own (a name given twice is a 400).
#[derive(Debug, Default)]
pub struct Params(BTreeMap<String, String>);

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        Params::parse(parts.uri.query())
    }
}

impl Params {
    /// Parses `query` (without the `?`); a name given twice is refused, as the command line
    /// refuses a flag or a solver parameter given twice, rather than one value quietly winning,
    /// and so is a value given to no name (`=3`), as `--set =3` is.
    pub fn parse(query: Option<&str>) -> Result<Self, ApiError> {
        let mut params = BTreeMap::new();
        for (name, value) in form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
            if name.trim().is_empty() {
                return Err(ApiError::bad(format!(
                    "the query gives '{}' to no name; give NAME=VALUE",
                    excerpt(&value)
                )));
            }
            if params
                .insert(name.to_string(), value.into_owned())
                .is_some()
            {
                return Err(ApiError::bad(format!(
                    "{} is given twice in the query; give each parameter once",
                    excerpt(&name)
                )));
            }
        }
        Ok(Params(params))
    }

    /// A parameter's text, if given and not blank.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.0
            .get(name)
            .map(|value| value.trim())
            .filter(|value| !value.is_empty())
    }

    /// Whole-number parameter `name`, if given: from `least` to `most`, refused as every front
    /// end refuses a whole number.
    pub fn whole(&self, name: &str, least: u64, most: u64) -> Result<Option<u64>, ApiError> {
        self.text(name)
            .map(|text| {
                queens_api::request::parse_whole(text, name, least, most)
                    .map_err(|e| ApiError::bad(e.to_string()))
            })
            .transpose()
    }

    /// Board side `name`, if given: from 1 to `max`, read and refused as every front end does.
    pub fn side(&self, name: &str, max: u32) -> Result<Option<u32>, ApiError> {
        self.text(name)
            .map(|text| {
                queens_api::request::parse_side_up_to(text, max)
                    .map_err(|e| ApiError::bad(e.to_string()))
            })
            .transpose()
    }

    /// Refuses a parameter not in `known`, naming it and what `route` takes, as every route
    /// does: a parameter the server would drop could change the answer the user expects.
    pub fn only(&self, route: &str, known: &[&str]) -> Result<&Self, ApiError> {
        match self.others(known).next() {
            None => Ok(self),
            Some((name, _)) => Err(ApiError::bad(format!(
                "unknown parameter {}; {route} takes {}",
                excerpt(name),
                list(known)
            ))),
        }
    }

    /// The parameters not in `known`, as name and value.
    pub fn others<'a>(&'a self, known: &'a [&str]) -> impl Iterator<Item = (&'a str, &'a str)> {
        self.0
            .iter()
            .filter(|(name, _)| !known.contains(&name.as_str()))
            .map(|(name, value)| (name.as_str(), value.as_str()))
    }
}

/// `a`, `a and b`, `a, b and c`.
fn list(names: &[&str]) -> String {
    match names {
        [] => "no parameters".to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Deserializes a JSON object into a map, refusing a key given twice (which serde would
/// otherwise let the last one win).
pub fn unique_keys<'de, D, V>(deserializer: D) -> Result<BTreeMap<String, V>, D::Error>
where
    D: serde::Deserializer<'de>,
    V: serde::Deserialize<'de>,
{
    struct Unique<V>(std::marker::PhantomData<V>);
    impl<'de, V: serde::Deserialize<'de>> serde::de::Visitor<'de> for Unique<V> {
        type Value = BTreeMap<String, V>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut values = BTreeMap::new();
            while let Some((key, value)) = map.next_entry::<String, V>()? {
                if values.contains_key(&key) {
                    return Err(serde::de::Error::custom(format!(
                        "{key} is given twice; give each parameter once"
                    )));
                }
                values.insert(key, value);
            }
            Ok(values)
        }
    }
    deserializer.deserialize_map(Unique(std::marker::PhantomData))
}

/// Checks that `n` lies in `1..=max`, refusing it as every front end does.
pub fn check_side(n: impl Into<WholeNumber>, max: u32) -> Result<u32, ApiError> {
    queens_api::request::check_side(n, max).map_err(|e| ApiError::bad(e.to_string()))
}
