//! The stages' named choices as clap values: each enum's names and help from its
//! `choice::Choice`, so `--format`, `--order`, `--comment` … list and parse them while the
//! stages that own the enums never see clap.

use clap::builder::PossibleValue;
use clap::ValueEnum;

use crate::choice::Choice;

/// `impl ValueEnum for T` from `T: Choice`.
macro_rules! clap_values {
    ($($ty:ty),+ $(,)?) => {$(
        impl ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                <$ty as Choice>::ALL
            }
            fn to_possible_value(&self) -> Option<PossibleValue> {
                let value = PossibleValue::new(Choice::name(*self));
                Some(match Choice::help(*self) {
                    Some(help) => value.help(help),
                    None => value,
                })
            }
        }
    )+};
}

clap_values!(
    crate::report::Format,
    crate::report::plan::PlanFormat,
    crate::eval::Order,
    crate::eval::Gain,
    crate::eval::EmptyGold,
    crate::eval::Format,
    crate::eval::output::RowFormat,
    crate::publish::CommentMode,
    crate::publish::CommentWhen,
);
