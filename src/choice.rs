//! Named choices: the enums a flag or a gate-file key picks by name (`--order rank`, `[eval]
//! order = "rank"`, `--format json`), each with its name and its line of help. The command line
//! (`cli`) turns them into clap values and the gate-file readers parse them, with one spelling
//! and without the stages knowing clap.

/// An enum picked by name.
pub trait Choice: Sized + Copy + 'static {
    /// Every value, in the order help lists them.
    const ALL: &'static [Self];

    /// The name a flag or a key takes (`msmarco`, `best-effort`).
    fn name(self) -> &'static str;

    /// Its line of help on the command line, if it has one.
    fn help(self) -> Option<&'static str> {
        None
    }

    /// The value named `s`, if one is.
    fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == s)
    }

    /// Every name, quoted and comma-separated, for an error: `"score", "rank", "given"`.
    fn quoted_names() -> String {
        Self::ALL
            .iter()
            .map(|v| format!("{:?}", v.name()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Implements [`Choice`] for a plain enum: each variant with its name and optional help.
#[macro_export]
#[doc(hidden)]
macro_rules! choice {
    ($ty:ty { $($variant:ident => $name:literal $(: $help:literal)?),+ $(,)? }) => {
        impl $crate::choice::Choice for $ty {
            const ALL: &'static [Self] = &[$(<$ty>::$variant),+];
            fn name(self) -> &'static str {
                match self { $(<$ty>::$variant => $name),+ }
            }
            fn help(self) -> Option<&'static str> {
                match self { $(<$ty>::$variant => $crate::choice!(@help $($help)?)),+ }
            }
        }
    };
    (@help $help:literal) => { Some($help) };
    (@help) => { None };
}

#[cfg(test)]
mod tests {
    use super::Choice;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Side {
        Left,
        RightHand,
    }
    crate::choice!(Side { Left => "left": "the left one", RightHand => "right-hand" });

    #[test]
    fn names_parse_back_and_list_in_order() {
        assert_eq!(Side::parse("right-hand"), Some(Side::RightHand));
        assert_eq!(Side::parse("Left"), None);
        assert_eq!(Side::quoted_names(), "\"left\", \"right-hand\"");
        assert_eq!(Side::Left.help(), Some("the left one"));
        assert_eq!(Side::RightHand.help(), None);
    }
}
