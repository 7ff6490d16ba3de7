//! The parsers of the command line's numeric flags. They refuse only what cannot reach the
//! checks that follow parsing (a word where a number belongs, a negative number, a number past
//! what the flag's type holds), and they word it as those checks word the values they refuse:
//! `--threads must be at least 1 and at most 1024, got -2`, never the standard library's
//! "invalid digit found in string" or "number too large to fit in target type". A number in the
//! type's range is passed on as it is, for the command's own check.

use queens_api::devices::{DeviceId, DeviceIdError};
use queens_api::request::{WholeError, parse_whole};

/// The values a whole-number flag takes, as its refusals state them.
#[derive(Clone, Copy, Debug)]
pub enum Bounds {
    /// From a least value, with no most but the type's.
    AtLeast(u64),
    /// From a least to a most value.
    Between(u64, u64),
}

/// An unsigned type a whole-number flag is read into.
pub trait Whole: TryFrom<u64> + Clone + Send + Sync + 'static {
    /// The most the type holds.
    const MAX: u64;
}

impl Whole for u16 {
    const MAX: u64 = u16::MAX as u64;
}

impl Whole for u32 {
    const MAX: u64 = u32::MAX as u64;
}

impl Whole for u64 {
    const MAX: u64 = u64::MAX;
}

impl Whole for usize {
    const MAX: u64 = usize::MAX as u64;
}

/// The parser of the whole-number flag `flag`, which takes `bounds`.
pub fn whole<T: Whole>(
    flag: &'static str,
    bounds: Bounds,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text| {
        let least = match bounds {
            Bounds::AtLeast(least) | Bounds::Between(least, _) => least,
        };
        match parse_whole(text, flag, 0, T::MAX) {
            Ok(value) => {
                T::try_from(value).map_err(|_| format!("{flag} must be at most {}", T::MAX))
            }
            Err(WholeError::NotANumber { got, .. }) => Err(WholeError::NotANumber {
                what: flag.to_owned(),
                got,
                least,
            }
            .to_string()),
            Err(WholeError::TooSmall { got, .. } | WholeError::TooLarge { got, .. }) => {
                Err(match bounds {
                    Bounds::Between(least, most) => {
                        format!("{flag} must be at least {least} and at most {most}, got {got}")
                    }
                    Bounds::AtLeast(least) if got.starts_with('-') => {
                        format!("{flag} must be at least {least}, got {got}")
                    }
                    Bounds::AtLeast(_) => format!("{flag} must be at most {}, got {got}", T::MAX),
                })
            }
        }
    }
}

/// The parser of `--device`: an index in `queens devices` or a PCI address.
pub fn device(text: &str) -> Result<DeviceId, String> {
    text.parse().map_err(|refusal| match refusal {
        DeviceIdError::Neither(_) => format!("--device must be {refusal}"),
        DeviceIdError::Address(_) => format!("--device: {refusal}"),
    })
}

/// The parser of the flag `flag`, a positive number of `unit` ("seconds", "nodes a second"):
/// any number Rust reads, infinities and NaN included, is passed on for the command's check;
/// a text that is not a number is refused in that check's words.
pub fn positive(
    flag: &'static str,
    unit: &'static str,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    real(flag, format!("a positive number of {unit}"))
}

/// The parser of the flag `flag`, a share from 0 to 1, as [`positive`] parses its numbers.
pub fn share(
    flag: &'static str,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    real(flag, "a share from 0 to 1".to_owned())
}

/// The parser of a flag that takes any number Rust reads, passed on for the command's check;
/// a text that is not one is refused as "`flag` must be `what`, got '…'".
fn real(
    flag: &'static str,
    what: String,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |text| {
        text.trim().parse::<f64>().map_err(|_| {
            format!(
                "{flag} must be {what}, got '{}'",
                queens_core::error::excerpt(text)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_in_the_type_pass_on_for_the_commands_check() {
        let threads = whole::<usize>("--threads", Bounds::Between(1, 1024));
        assert_eq!(threads("4"), Ok(4));
        // Out of the flag's range but in the type's: the command refuses it, in the same words.
        assert_eq!(threads("0"), Ok(0));
        assert_eq!(threads("5000"), Ok(5000));
        assert_eq!(threads(" +7 "), Ok(7));
    }

    #[test]
    fn what_cannot_reach_the_check_is_refused_in_its_words() {
        let threads = whole::<usize>("--threads", Bounds::Between(1, 1024));
        for (text, refusal) in [
            (
                "-2",
                "--threads must be at least 1 and at most 1024, got -2",
            ),
            (
                "99999999999999999999999",
                "--threads must be at least 1 and at most 1024, got 99999999999999999999999",
            ),
            (
                "abc",
                "--threads must be a positive whole number, got 'abc'",
            ),
            ("", "--threads must be a positive whole number, got ''"),
            (
                "1.5",
                "--threads must be a positive whole number, got '1.5'",
            ),
        ] {
            assert_eq!(threads(text), Err(refusal.to_owned()), "{text}");
        }
        let shards = whole::<u32>("--shards", Bounds::AtLeast(1));
        assert_eq!(
            shards("4294967296"),
            Err("--shards must be at most 4294967295, got 4294967296".to_owned())
        );
        assert_eq!(
            shards("-1"),
            Err("--shards must be at least 1, got -1".to_owned())
        );
        assert_eq!(device("1"), Ok(DeviceId::Index(1)));
        assert_eq!(
            device("3B:00.0").map(|id| id.to_string()),
            Ok("0000:3b:00.0".to_owned())
        );
        for text in ["x", "-1"] {
            assert_eq!(
                device(text),
                Err(format!(
                    "--device must be an index that `queens devices` lists (0, 1, …) or a PCI \
                     address it shows (0000:3b:00.0), got '{text}'"
                ))
            );
        }
        assert_eq!(
            device("0000:3b:00"),
            Err(
                "--device: '0000:3b:00' is not a PCI address (DOMAIN:BUS:DEVICE.FUNCTION in \
                 hexadecimal, as 0000:3b:00.0)"
                    .to_owned()
            )
        );
        let nodes = whole::<u64>("--max-nodes", Bounds::AtLeast(1));
        assert_eq!(nodes("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            nodes("18446744073709551616"),
            Err(
                "--max-nodes must be at most 18446744073709551615, got 18446744073709551616".into()
            )
        );
    }

    /// The class, from the parser's own definition: every numeric flag of every command
    /// refuses a word, an empty value and a number past any type in a sentence naming the flag,
    /// and takes a negative number as its value (to refuse or pass on), never as an unknown
    /// flag.
    #[test]
    fn every_numeric_flag_of_every_command_refuses_in_the_products_words() {
        use std::any::TypeId;

        use clap::builder::ValueParser;
        use clap::error::ErrorKind;

        let catalogue = queens_api::Catalogue::standard();
        let command = crate::help::command(catalogue);
        let numeric = [
            TypeId::of::<u32>(),
            TypeId::of::<u64>(),
            TypeId::of::<usize>(),
            TypeId::of::<f64>(),
        ];
        let mut flags = 0;
        for sub in command.get_subcommands() {
            for arg in sub.get_arguments() {
                let (Some(long), parser) = (arg.get_long(), arg.get_value_parser()) else {
                    continue;
                };
                let type_id = ValueParser::type_id(parser);
                if !numeric.iter().any(|numeric| type_id == *numeric) {
                    continue;
                }
                flags += 1;
                let flag = format!("--{long}");
                let parse = |text: &str| {
                    crate::help::parse(catalogue, ["queens", sub.get_name(), flag.as_str(), text])
                };
                // A float takes any number of digits (1e23), refused after parsing if need be.
                let past_any_type =
                    (type_id != TypeId::of::<f64>()).then_some("99999999999999999999999");
                for text in ["abc", "", "1x"].into_iter().chain(past_any_type) {
                    let error = parse(text).expect_err(&format!("{flag} {text:?}"));
                    let message = error.to_string();
                    assert_eq!(error.kind(), ErrorKind::ValueValidation, "{message}");
                    assert!(message.contains(&format!("{flag} must be")), "{message}");
                    for jargon in ["invalid digit", "fit in target", "not in 0..", "float"] {
                        assert!(!message.contains(jargon), "{message}");
                    }
                }
                if let Err(error) = parse("-1") {
                    assert_ne!(
                        error.kind(),
                        ErrorKind::UnknownArgument,
                        "{flag} -1: {error}"
                    );
                }
            }
        }
        assert!(flags >= 20, "{flags} numeric flags found");
    }

    #[test]
    fn a_number_of_seconds_that_is_no_number_is_refused_in_the_checks_words() {
        let limit = positive("--time-limit", "seconds");
        assert_eq!(limit("2.5"), Ok(2.5));
        assert_eq!(limit("-1"), Ok(-1.0));
        assert!(limit("nan").unwrap().is_nan());
        assert_eq!(
            limit("soon"),
            Err("--time-limit must be a positive number of seconds, got 'soon'".to_owned())
        );
        assert_eq!(
            positive("--rate", "nodes a second")(""),
            Err("--rate must be a positive number of nodes a second, got ''".to_owned())
        );
    }
}
