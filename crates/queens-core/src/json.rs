//! JSON documents read as their readers are told about them: a document of the wrong shape is
//! refused naming the field it got wrong, in the words of JSON (an object, an array, a whole
//! number), never in the Rust types it is read into (`struct ShardReport with 10 elements`,
//! `u32`). The server's request bodies, shard reports, checkpoints and JSON problems are read
//! here.

use serde::de::DeserializeOwned;
use thiserror::Error;

/// Why a document is not the one expected: where (a field's path, or the whole document), what
/// is wrong there, and the position.
#[derive(Debug, Error)]
#[error("{place}: {words}{}", position(*.line, *.column))]
pub struct JsonRefusal {
    place: String,
    words: String,
    line: usize,
    column: usize,
}

impl JsonRefusal {
    /// The 1-based line the refusal is at, 0 where it is about the whole document.
    pub fn line(&self) -> usize {
        self.line
    }
}

/// Where `serde_json` says an error is, as it ends its messages (nothing at line 0).
fn position(line: usize, column: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(" at line {line} column {column}")
    }
}

/// `bytes` read as one JSON object of type `T`; `whole` names the document where a refusal is
/// about all of it ("the body", "the report").
pub fn read_object<T: DeserializeOwned>(bytes: &[u8], whole: &str) -> Result<T, JsonRefusal> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        // Whether the document is one whole JSON value: where it is not, serde's words stand.
        if serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_err() {
            return refusal(&error.path().to_string(), whole, error.inner());
        }
        // serde reads an array as a struct's fields in order, and would name the element that
        // did not fit: the document is said to be the wrong kind of value instead.
        if let Some(kind) = not_an_object(bytes) {
            return JsonRefusal {
                place: whole.to_owned(),
                words: format!("invalid type: {kind}, expected an object"),
                line: 0,
                column: 0,
            };
        }
        if let Some((path, words)) = misread_whole_number::<T>(bytes, error.inner()) {
            let (line, column) = (error.inner().line(), error.inner().column());
            return refusal_at(&path, whole, words, line, column);
        }
        refusal(&error.path().to_string(), whole, error.inner())
    })?;
    deserializer
        .end()
        .map_err(|error| refusal(".", whole, &error))?;
    Ok(value)
}

/// A JSON whole number of any length, kept as written: a side or a count that a document gives
/// past every machine number (forty nines) is refused by its reader's limit, in the reader's
/// words, rather than by the JSON reader's `number out of range`. Any other value (a fraction,
/// an exponent, a string) is refused as serde refuses it for an integer field. It reads only from
/// JSON text ([`read_object`], `serde_json::from_str`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WholeNumber(String);

impl WholeNumber {
    /// The number, where it fits an `i128`.
    pub fn value(&self) -> Option<i128> {
        self.0.parse().ok()
    }

    /// The number, where it lies in `range`: how a side, a size or a count is taken from it.
    pub fn within(&self, range: std::ops::RangeInclusive<u32>) -> Option<u32> {
        self.value()
            .and_then(|value| u32::try_from(value).ok())
            .filter(|value| range.contains(value))
    }

    /// Whether it is below 0.
    pub fn is_negative(&self) -> bool {
        self.0.starts_with('-') && self.0[1..].bytes().any(|digit| digit != b'0')
    }
}

/// The number as written, cut short past a screenful as every refusal cuts what it quotes.
impl std::fmt::Display for WholeNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::error::excerpt(&self.0))
    }
}

impl From<u32> for WholeNumber {
    fn from(value: u32) -> Self {
        WholeNumber(value.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for WholeNumber {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{Error, Unexpected};
        let raw = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
        let text = raw.get();
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()) {
            return Ok(WholeNumber(text.to_owned()));
        }
        let expected = &"a whole number";
        let string: String;
        let unexpected = match text.as_bytes().first() {
            Some(b'"') => {
                string = serde_json::from_str(text).map_err(D::Error::custom)?;
                Unexpected::Str(&string)
            }
            Some(b'{') => Unexpected::Map,
            Some(b'[') => Unexpected::Seq,
            Some(b't') => Unexpected::Bool(true),
            Some(b'f') => Unexpected::Bool(false),
            Some(b'n') => Unexpected::Unit,
            _ => Unexpected::Float(text.parse().map_err(D::Error::custom)?),
        };
        Err(D::Error::invalid_type(unexpected, expected))
    }
}

/// The kind of JSON value `bytes` (one whole JSON value) holds when it is not an object.
fn not_an_object(bytes: &[u8]) -> Option<&'static str> {
    match bytes.iter().find(|byte| !byte.is_ascii_whitespace())? {
        b'{' => None,
        b'[' => Some("array"),
        b'"' => Some("string"),
        b'n' => Some("null"),
        b't' | b'f' => Some("boolean"),
        _ => Some("number"),
    }
}

/// The field and the words of a refusal that `serde_json` gave as a syntax error in `bytes`,
/// a document that is valid JSON. It reads a whole number that may pass 2⁶⁴ (a count's total, its nodes:
/// `u128`) as digits alone, so a fraction or an exponent there (`1e40`, `4.5`) stops it
/// before the field ends (`expected ',' or '}'`, naming no field), and a string or a negative
/// number is an `invalid number` or a `number out of range`. Read again as a
/// [`serde_json::Value`], which reads every number, the field is named and its value said.
fn misread_whole_number<T: DeserializeOwned>(
    bytes: &[u8],
    error: &serde_json::Error,
) -> Option<(String, String)> {
    if !error.is_syntax() {
        return None;
    }
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let again = serde_path_to_error::deserialize::<_, T>(value).err()?;
    let words = again.inner().to_string();
    // A whole number past 2¹²⁸ is a float to the value: "number out of range" says it better.
    let past_the_range = error.to_string().starts_with("number out of range");
    if past_the_range && words.contains("floating point") {
        return None;
    }
    Some((again.path().to_string(), in_json_words(&words)))
}

/// The refusal of `error` at the field `path` (`.` for the document itself).
fn refusal(path: &str, whole: &str, error: &serde_json::Error) -> JsonRefusal {
    // serde_json ends its message with the position; the words before it are rewritten.
    let suffix = position(error.line(), error.column());
    let message = error.to_string();
    let words = message.strip_suffix(&suffix).unwrap_or(&message);
    let words = if error.is_data() {
        in_json_words(words)
    } else {
        words.to_owned()
    };
    refusal_at(path, whole, words, error.line(), error.column())
}

/// The refusal `words` at the field `path` (`.` for the document itself), at a position.
fn refusal_at(path: &str, whole: &str, words: String, line: usize, column: usize) -> JsonRefusal {
    let place = match path {
        "." | "?" => whole.to_owned(),
        field => field.to_owned(),
    };
    JsonRefusal {
        place,
        words,
        line,
        column,
    }
}

/// A message of serde's about a value of the wrong type, in the words of JSON rather than of
/// the Rust types the document is read into: "expected u32" is "expected a whole number from 0
/// to 4294967295", "struct Square" is "an object", "sequence" is "array".
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
        squares: Vec<Spot>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Spot {
        row: u32,
    }

    fn refused(text: &str) -> String {
        read_object::<Sample>(text.as_bytes(), "the sample")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_refusal_names_the_field_it_got_wrong() {
        assert_eq!(
            refused(r#"{"runs": "x"}"#),
            "runs: invalid type: string \"x\", expected a whole number of 0 or more at line 1 \
             column 12"
        );
        assert_eq!(
            refused(r#"{"runs": 1, "squares": [{"row": -1}]}"#),
            "squares[0].row: invalid value: integer `-1`, expected a whole number from 0 to \
             4294967295 at line 1 column 34"
        );
        for (text, kind) in [("[]", "array"), (" [1, 2] ", "array"), ("true", "boolean")] {
            assert_eq!(
                refused(text),
                format!("the sample: invalid type: {kind}, expected an object")
            );
        }
        assert_eq!(
            refused(r#"{"runs": 1} {}"#),
            "the sample: trailing characters at line 1 column 13"
        );
        assert_eq!(
            refused(r#"{"runs": 1"#),
            "the sample: EOF while parsing an object at line 1 column 10"
        );
        let refusal = read_object::<Sample>(b"\n\n{\"runs\": true}", "x").unwrap_err();
        assert_eq!(refusal.line(), 3);
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Tally {
        total: u128,
        parts: Vec<Part>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Part {
        nodes: u128,
    }

    #[test]
    fn a_whole_number_past_two_to_the_64_that_is_not_one_is_refused_naming_its_field() {
        let refused = |text: &str| {
            read_object::<Tally>(text.as_bytes(), "the tally")
                .unwrap_err()
                .to_string()
        };
        let whole = "expected a whole number of 0 or more";
        for (total, found) in [
            ("1e40", "invalid type: number `1e+40`".to_owned()),
            ("4.5", "invalid type: number `4.5`".to_owned()),
            ("1.0", "invalid type: number `1.0`".to_owned()),
            ("-3", "invalid value: integer `-3`".to_owned()),
            ("\"7\"", "invalid type: string \"7\"".to_owned()),
            ("null", "invalid type: null".to_owned()),
        ] {
            let message = refused(&format!(r#"{{"total": {total}, "parts": []}}"#));
            assert!(
                message.starts_with(&format!("total: {found}, {whole} at line 1 column ")),
                "{total}: {message}"
            );
        }
        assert!(
            refused(r#"{"total": 1, "parts": [{"nodes": 1}, {"nodes": 2E3}]}"#).starts_with(
                &format!("parts[1].nodes: invalid type: number `2000.0`, {whole}")
            ),
        );
        // Past 2¹²⁸ it is out of range, as serde_json says; written exactly, it is read.
        let past = format!("{}0", u128::MAX);
        assert_eq!(
            refused(&format!(r#"{{"total": {past}, "parts": []}}"#)),
            "total: number out of range at line 1 column 50"
        );
        let most = format!(
            r#"{{"total": {}, "parts": [{{"nodes": 18446744073709551616}}]}}"#,
            u128::MAX
        );
        let tally: Tally = read_object(most.as_bytes(), "the tally").unwrap();
        assert_eq!((tally.total, tally.parts[0].nodes), (u128::MAX, 1 << 64));
        // A document that is not JSON keeps serde_json's own words.
        assert_eq!(
            refused(r#"{"total": 1e40, "parts": [}"#),
            "the tally: expected `,` or `}` at line 1 column 12"
        );
    }

    #[derive(Debug, serde::Deserialize)]
    struct Sides {
        n: WholeNumber,
        #[serde(default)]
        rows: Option<WholeNumber>,
    }

    #[test]
    fn a_whole_number_is_read_however_long_and_anything_else_refused_as_for_an_integer() {
        let forty_nines = "9".repeat(40);
        for (text, value, negative) in [
            ("8", Some(8), false),
            ("-3", Some(-3), true),
            ("-0", Some(0), false),
            (forty_nines.as_str(), None, false),
        ] {
            let sides: Sides = read_object(format!(r#"{{"n": {text}}}"#).as_bytes(), "s").unwrap();
            assert_eq!(sides.n.value(), value, "{text}");
            assert_eq!(sides.n.is_negative(), negative, "{text}");
            assert_eq!(sides.n.to_string(), text);
            assert_eq!(sides.rows, None);
        }
        let past: Sides = read_object(
            format!(r#"{{"n": 1, "rows": -{forty_nines}}}"#).as_bytes(),
            "s",
        )
        .unwrap();
        let rows = past.rows.unwrap();
        assert!(rows.is_negative() && rows.value().is_none());
        assert_eq!(WholeNumber::from(7).to_string(), "7");
        // Taken where it lies in the range, at both ends and past every machine number.
        for (number, taken) in [
            ("0", None),
            ("1", Some(1)),
            ("200", Some(200)),
            ("201", None),
            ("-1", None),
            ("4294967296", None),
            (forty_nines.as_str(), None),
        ] {
            let sides: Sides =
                read_object(format!(r#"{{"n": {number}}}"#).as_bytes(), "s").unwrap();
            assert_eq!(sides.n.within(1..=200), taken, "{number}");
        }
        assert_eq!(rows.within(0..=u32::MAX), None);
        assert_eq!(
            WholeNumber::from(u32::MAX).within(0..=u32::MAX),
            Some(u32::MAX)
        );
        let refused = |text: &str| {
            read_object::<Sides>(format!(r#"{{"n": {text}}}"#).as_bytes(), "s")
                .unwrap_err()
                .to_string()
        };
        for (text, found) in [
            ("1e3", "number `1000.0`"),
            ("8.5", "number `8.5`"),
            ("\"8\"", "string \"8\""),
            ("null", "null"),
            ("true", "boolean `true`"),
            ("[8]", "array"),
            ("{}", "object"),
        ] {
            let message = refused(text);
            assert!(
                message.starts_with(&format!(
                    "n: invalid type: {found}, expected a whole number at line 1 column "
                )),
                "{text}: {message}"
            );
        }
    }
}
