//! A solver's tunable parameters, each declared once.
//!
//! A solver declares its parameters with [`parameters!`](crate::parameters!): one line per
//! parameter — its name, type, default, range and doc — and the macro writes the typed struct,
//! its `Default`, the [`Parameter`] list the descriptor shows, and the conversions to and from
//! [`ParamValues`] (the checked values every front end passes around). Nothing else names a
//! parameter, so the struct, the descriptor and the help cannot disagree; an explanation quotes
//! a parameter as `{name}` and [`explain`] fills in the value in force.
//!
//! ```
//! queens_core::parameters! {
//!     /// A shaking climber's parameters.
//!     pub struct Shake {
//!         /// probability of a shake
//!         p: f64 = 0.23, 0.0..=1.0;
//!         /// queens moved by a shake
//!         q: u32 = 2, 1..=1_000_000;
//!     }
//! }
//! use queens_core::parameters::{Parameters, explain};
//!
//! let values = Shake::checked("demo", &[("q", 3.0)])?;
//! assert_eq!(Shake::from_values(&values), Shake { p: 0.23, q: 3 });
//! assert_eq!(Shake::LIST[1].doc, "queens moved by a shake");
//! assert!(Shake::checked("demo", &[("q", 2.5)]).is_err());
//! assert_eq!(explain("shakes {q} queens", &values)?, "shakes 3 queens");
//! # Ok::<(), queens_core::ParamError>(())
//! ```

use serde::{Serialize, Serializer};

use crate::error::{ParamError, range_text};

/// One tunable parameter: `--set NAME=VALUE`, a field of the web API, a keyword in Python.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Parameter {
    /// Its name.
    pub name: &'static str,
    /// The value when none is given.
    pub default: f64,
    /// The smallest value allowed.
    #[serde(serialize_with = "serialize_bound")]
    pub min: f64,
    /// The largest value allowed (infinite is `null` in JSON).
    #[serde(serialize_with = "serialize_bound")]
    pub max: f64,
    /// Whether only whole numbers are allowed.
    pub integer: bool,
    /// One line: what it does.
    pub doc: &'static str,
}

impl Parameter {
    /// `Err` when `value` is not allowed.
    pub fn check(&self, value: f64) -> Result<(), ParamError> {
        let name = self.name;
        if !value.is_finite() {
            return Err(ParamError::NotANumber {
                name: name.to_owned(),
                value: value.to_string(),
            });
        }
        if self.integer && value.fract() != 0.0 {
            return Err(ParamError::NotWhole { name, value });
        }
        if value < self.min || value > self.max {
            return Err(ParamError::OutOfRange {
                name,
                value,
                min: self.min,
                max: self.max,
                integer: self.integer,
            });
        }
        Ok(())
    }

    /// The allowed values in words: "0 or 1", "1 to 100000", "[0, 1]".
    pub fn range(&self) -> String {
        range_text(self.min, self.max, self.integer)
    }
}

/// A parameter's value read from text (`--set p=0.2`, `?p=0.2`): a finite number.
pub fn parse_value(name: &str, text: &str) -> Result<f64, ParamError> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
        .ok_or_else(|| ParamError::NotANumber {
            name: name.to_owned(),
            value: text.trim().to_owned(),
        })
}

/// A parameter's value as it was given: a number (from Python, JSON or a caller of the
/// library), or the text a user typed (`--set p=0.2`, `?p=0.2`), read only once its name is
/// known to be the solver's, so that a name the solver does not take is refused as such
/// whatever was typed after it.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A number.
    Number(f64),
    /// Text to read as a number.
    Text(String),
}

impl ParamValue {
    /// The value as a number, for the parameter `name`.
    pub fn number(&self, name: &str) -> Result<f64, ParamError> {
        match self {
            ParamValue::Number(value) => Ok(*value),
            ParamValue::Text(text) => parse_value(name, text),
        }
    }
}

impl From<f64> for ParamValue {
    fn from(value: f64) -> Self {
        ParamValue::Number(value)
    }
}

impl From<&str> for ParamValue {
    fn from(text: &str) -> Self {
        ParamValue::Text(text.to_owned())
    }
}

impl From<String> for ParamValue {
    fn from(text: String) -> Self {
        ParamValue::Text(text)
    }
}

/// A value given for a parameter, as [`ParamValues::new`] takes it: a number, or a
/// [`ParamValue`] that may still be text.
pub trait GivenValue {
    /// The value as a number, for the parameter `name`.
    fn number(&self, name: &str) -> Result<f64, ParamError>;
}

impl GivenValue for f64 {
    fn number(&self, _name: &str) -> Result<f64, ParamError> {
        Ok(*self)
    }
}

impl GivenValue for ParamValue {
    fn number(&self, name: &str) -> Result<f64, ParamError> {
        ParamValue::number(self, name)
    }
}

/// A solver's parameter values, checked against its [`Parameter`]s: every parameter it
/// declares, the given value or the default.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValues {
    values: Vec<(&'static str, f64)>,
}

impl ParamValues {
    /// The defaults of `parameters`.
    pub fn defaults(parameters: &[Parameter]) -> Self {
        ParamValues {
            values: parameters.iter().map(|p| (p.name, p.default)).collect(),
        }
    }

    /// Checks `given` (name, value) pairs against `parameters` of the solver named `solver`:
    /// every name first, then each value (read from its text where it is text).
    pub fn new<S: AsRef<str>, V: GivenValue>(
        solver: &'static str,
        parameters: &'static [Parameter],
        given: &[(S, V)],
    ) -> Result<Self, ParamError> {
        let mut values: Vec<(&'static str, f64)> =
            parameters.iter().map(|p| (p.name, p.default)).collect();
        let mut indices = Vec::with_capacity(given.len());
        for (name, _) in given {
            let name = name.as_ref();
            let index = Self::index_of(solver, parameters, name)?;
            if indices.contains(&index) {
                return Err(ParamError::Twice(name.to_owned()));
            }
            indices.push(index);
        }
        for ((name, value), index) in given.iter().zip(indices) {
            let value = value.number(name.as_ref())?;
            parameters[index].check(value)?;
            values[index].1 = value;
        }
        Ok(ParamValues { values })
    }

    /// Refuses `name` unless it is one of `parameters`, those of the solver named `solver`.
    pub fn check_name(
        solver: &'static str,
        parameters: &'static [Parameter],
        name: &str,
    ) -> Result<(), ParamError> {
        Self::index_of(solver, parameters, name).map(|_| ())
    }

    /// Where `name` stands in `parameters`, or the refusal naming the ones there are.
    fn index_of(
        solver: &'static str,
        parameters: &'static [Parameter],
        name: &str,
    ) -> Result<usize, ParamError> {
        parameters
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| {
                let known: Vec<&str> = parameters.iter().map(|p| p.name).collect();
                ParamError::Unknown {
                    solver,
                    name: name.to_owned(),
                    known: if known.is_empty() {
                        "nothing".to_owned()
                    } else {
                        known.join(", ")
                    },
                }
            })
    }

    /// The value of the parameter `name`, if the solver declares it.
    pub fn value(&self, name: &str) -> Option<f64> {
        self.values
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, value)| value)
    }

    /// Every parameter with its value, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.values.iter().copied()
    }
}

/// A bound as JSON: an infinite one is `null`.
#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde passes fields by reference"
)]
fn serialize_bound<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.is_finite() {
        serializer.serialize_f64(*value)
    } else {
        serializer.serialize_none()
    }
}

/// A type a parameter is read into: a real number, a whole number or a switch (0 or 1).
pub trait Value: Copy {
    /// Whether only whole numbers are allowed.
    const INTEGER: bool;
    /// The value from a checked number.
    fn from_value(value: f64) -> Self;
    /// The value as a number.
    fn to_value(self) -> f64;
}

impl Value for f64 {
    const INTEGER: bool = false;
    fn from_value(value: f64) -> Self {
        value
    }
    fn to_value(self) -> f64 {
        self
    }
}

/// Whole numbers, read from a checked (whole, in-range) value.
macro_rules! whole_value {
    ($($whole:ty),+) => {$(
        impl Value for $whole {
            const INTEGER: bool = true;
            fn from_value(value: f64) -> Self {
                value as $whole
            }
            #[allow(clippy::cast_lossless, reason = "u64 has no lossless conversion")]
            fn to_value(self) -> f64 {
                self as f64
            }
        }
    )+};
}

whole_value!(u32, u64);

/// A switch: 1 is on, 0 is off.
impl Value for bool {
    const INTEGER: bool = true;
    fn from_value(value: f64) -> Self {
        value != 0.0
    }
    fn to_value(self) -> f64 {
        f64::from(u8::from(self))
    }
}

/// A typed set of parameters, written by [`parameters!`](crate::parameters!).
pub trait Parameters: Copy + Default {
    /// Every parameter, in declaration order: what the descriptor lists.
    const LIST: &'static [Parameter];

    /// The parameters from checked values; one the values do not hold keeps its default.
    fn from_values(values: &ParamValues) -> Self;

    /// Every parameter with its value, in declaration order, not yet checked.
    fn given(&self) -> Vec<(&'static str, f64)>;

    /// `given` checked against [`LIST`](Parameters::LIST) for the solver named `solver`.
    fn checked<S: AsRef<str>>(
        solver: &'static str,
        given: &[(S, f64)],
    ) -> Result<ParamValues, ParamError> {
        ParamValues::new(solver, Self::LIST, given)
    }

    /// These values, checked against their ranges, for the solver named `solver`.
    fn values(&self, solver: &'static str) -> Result<ParamValues, ParamError> {
        Self::checked(solver, &self.given())
    }
}

/// A doc comment as one line of text: its lines joined, the leading space dropped.
#[doc(hidden)]
pub const fn doc_line(text: &'static str) -> &'static str {
    text.trim_ascii()
}

/// Refuses, when the program is compiled, a parameter whose default is outside its range or
/// not whole where it must be.
#[doc(hidden)]
pub const fn assert_declared(list: &[Parameter]) {
    let mut i = 0;
    while i < list.len() {
        let p = &list[i];
        assert!(
            p.min <= p.default && p.default <= p.max,
            "a default lies outside its range"
        );
        assert!(
            !p.integer || p.default % 1.0 == 0.0,
            "a whole parameter has a fractional default"
        );
        i += 1;
    }
}

/// `template` with each `{name}` replaced by the value of the parameter `name` in `values`:
/// an explanation that says the values in force. `{{` and `}}` are literal braces.
pub fn explain(template: &str, values: &ParamValues) -> Result<String, ParamError> {
    let mut text = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open].replace("}}", "}"));
        rest = &rest[open + 1..];
        if let Some(after) = rest.strip_prefix('{') {
            text.push('{');
            rest = after;
            continue;
        }
        let close = rest
            .find('}')
            .ok_or_else(|| ParamError::Invalid(format!("an explanation leaves '{{{rest}' open")))?;
        let name = &rest[..close];
        let value = values.value(name).ok_or_else(|| {
            ParamError::Invalid(format!(
                "an explanation quotes '{name}', which is not a parameter"
            ))
        })?;
        text.push_str(&value.to_string());
        rest = &rest[close + 1..];
    }
    text.push_str(&rest.replace("}}", "}"));
    Ok(text)
}

/// Declares a solver's parameters once: the typed struct, its `Default`, its
/// [`Parameter`](crate::Parameter) list and its [`Parameters`](crate::parameters::Parameters)
/// conversions.
///
/// Each field is `/// doc` then `name: type = default, min..=max;` with a type of `f64`, `u32`,
/// `u64` or `bool` (a switch, `0..=1`). The doc comment is the parameter's help line; a default
/// outside its range does not compile.
#[macro_export]
macro_rules! parameters {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])+
                $field:ident : $ty:ty = $default:literal, $min:literal ..= $max:literal;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        $vis struct $name {
            $(
                $(#[doc = $doc])+
                pub $field: $ty,
            )*
        }

        #[allow(clippy::cast_lossless, clippy::cast_precision_loss)]
        impl ::core::default::Default for $name {
            fn default() -> Self {
                $name {
                    $(
                        $field: <$ty as $crate::parameters::Value>::from_value($default as f64),
                    )*
                }
            }
        }

        #[allow(clippy::cast_lossless, clippy::cast_precision_loss)]
        impl $crate::parameters::Parameters for $name {
            const LIST: &'static [$crate::Parameter] = &[
                $(
                    $crate::Parameter {
                        name: stringify!($field),
                        default: $default as f64,
                        min: $min as f64,
                        max: $max as f64,
                        integer: <$ty as $crate::parameters::Value>::INTEGER,
                        doc: $crate::parameters::doc_line(concat!($($doc),+)),
                    },
                )*
            ];

            #[allow(unused_variables)]
            fn from_values(values: &$crate::ParamValues) -> Self {
                let defaults = <$name as ::core::default::Default>::default();
                $name {
                    $(
                        $field: values
                            .value(stringify!($field))
                            .map_or(defaults.$field, <$ty as $crate::parameters::Value>::from_value),
                    )*
                }
            }

            fn given(&self) -> ::std::vec::Vec<(&'static str, f64)> {
                ::std::vec![
                    $(
                        (stringify!($field), $crate::parameters::Value::to_value(self.$field)),
                    )*
                ]
            }
        }

        const _: () = $crate::parameters::assert_declared(
            <$name as $crate::parameters::Parameters>::LIST,
        );
    };
}

/// Inside `impl Solver for …`: the solver's [`descriptor`](crate::Solver::descriptor) is the
/// static `$descriptor`, and its [`parameters`](crate::Solver::parameters) are the field
/// `$field` (a [`parameters!`](crate::parameters!) struct) checked against their declaration.
///
/// ```text
/// impl Solver for Genetic {
///     queens_core::declared!(DESCRIPTOR, params);
///
///     fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError> {
///         …
///     }
/// }
/// ```
#[macro_export]
macro_rules! declared {
    ($descriptor:path, $field:ident) => {
        fn descriptor(&self) -> &'static $crate::SolverDescriptor {
            &$descriptor
        }

        fn parameters(&self) -> Result<$crate::ParamValues, $crate::ParamError> {
            $crate::Parameters::values(&self.$field, $descriptor.name)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    parameters! {
        /// A demo.
        struct Demo {
            /// probability
            p: f64 = 0.23, 0.0..=1.0;
            /// a switch
            avoid: bool = 1, 0..=1;
            /// iterations
            restart: u32 = 300, 1..=1_000_000_000;
        }
    }

    const PARAMETERS: &[Parameter] = Demo::LIST;

    fn refused(name: &str, value: f64) -> String {
        ParamValues::new("demo", PARAMETERS, &[(name, value)])
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn defaults_fill_what_is_not_given() {
        let values = ParamValues::new("demo", PARAMETERS, &[("restart", 5.0)]).unwrap();
        assert_eq!(
            Demo::from_values(&values),
            Demo {
                p: 0.23,
                avoid: true,
                restart: 5
            }
        );
        assert_eq!(values.value("pp"), None);
    }

    #[test]
    fn refusals_say_what_is_allowed() {
        assert_eq!(refused("avoid", 2.0), "avoid must be 0 or 1, got 2");
        assert_eq!(
            refused("restart", 0.0),
            "restart must be at least 1 (1 to 1000000000), got 0"
        );
        assert_eq!(refused("p", 1.5), "p must be in [0, 1], got 1.5");
        assert_eq!(
            refused("restart", 2.5),
            "restart must be a whole number, got 2.5"
        );
        assert_eq!(refused("p", f64::NAN), "p must be a number, got 'NaN'");
        assert_eq!(
            refused("x", 1.0),
            "demo has no parameter 'x' (it reads: p, avoid, restart)"
        );
        assert_eq!(
            ParamValues::new("demo", PARAMETERS, &[("p", 0.1), ("p", 0.2)])
                .unwrap_err()
                .to_string(),
            "p is given twice"
        );
    }

    /// Text is read only after every name is known: a name the solver does not take is refused
    /// as such whatever follows it, and a text that is no number as that.
    #[test]
    fn names_are_checked_before_any_text_is_read() {
        let text = |given: &[(&str, &str)]| {
            let given: Vec<(&str, ParamValue)> = given
                .iter()
                .map(|&(name, text)| (name, text.into()))
                .collect();
            ParamValues::new("demo", PARAMETERS, &given).map_err(|error| error.to_string())
        };
        assert_eq!(
            text(&[("p", "x"), ("x", "1")]),
            Err("demo has no parameter 'x' (it reads: p, avoid, restart)".into())
        );
        assert_eq!(
            text(&[("pp", "x")]),
            Err("demo has no parameter 'pp' (it reads: p, avoid, restart)".into())
        );
        assert_eq!(
            text(&[("p", "x")]),
            Err("p must be a number, got 'x'".into())
        );
        assert_eq!(
            text(&[("p", "x"), ("p", "0.2")]),
            Err("p is given twice".into())
        );
        let values = text(&[("p", " 0.5 "), ("restart", "7")]).unwrap();
        assert_eq!(
            (values.value("p"), values.value("restart")),
            (Some(0.5), Some(7.0))
        );
        assert_eq!(
            ParamValues::check_name("demo", PARAMETERS, "q")
                .unwrap_err()
                .to_string(),
            "demo has no parameter 'q' (it reads: p, avoid, restart)"
        );
    }

    #[test]
    fn the_declaration_is_the_list_the_struct_and_the_defaults() {
        assert_eq!(
            Demo::LIST
                .iter()
                .map(|p| (p.name, p.default, p.integer, p.doc))
                .collect::<Vec<_>>(),
            [
                ("p", 0.23, false, "probability"),
                ("avoid", 1.0, true, "a switch"),
                ("restart", 300.0, true, "iterations"),
            ]
        );
        let demo = Demo {
            p: 0.5,
            avoid: false,
            restart: 7,
        };
        let values = demo.values("demo").unwrap();
        assert_eq!(Demo::from_values(&values), demo);
        assert_eq!(
            Demo::from_values(&Demo::checked::<&str>("demo", &[]).unwrap()),
            Demo::default()
        );
        assert!(Demo { restart: 0, ..demo }.values("demo").is_err());
    }

    #[test]
    fn explanations_quote_the_values_in_force() {
        let values = Demo::checked("demo", &[("restart", 40.0)]).unwrap();
        assert_eq!(
            explain("after {restart} steps, p = {p} ({{braces}})", &values).unwrap(),
            "after 40 steps, p = 0.23 ({braces})"
        );
        // Closing braces are literal before a quoted parameter too, as the page reads them.
        assert_eq!(
            explain("a set {{x}} of {restart}", &values).unwrap(),
            "a set {x} of 40"
        );
        assert!(explain("{missing}", &values).is_err());
        assert!(explain("{restart", &values).is_err());
    }

    #[test]
    fn joined_lists_keep_both_in_order() {
        const JOINED: [Parameter; 4] = crate::descriptor::join(
            Demo::LIST,
            &[Parameter {
                name: "x",
                default: 1.0,
                min: 0.0,
                max: 2.0,
                integer: false,
                doc: "x",
            }],
        );
        assert_eq!(JOINED.map(|p| p.name), ["p", "avoid", "restart", "x"]);
    }
}
