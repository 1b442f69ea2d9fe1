//! `[Redefine "A@J, T@R"]`: the alternative piece letters a game declares.

use crate::grammar::alphabet::{standard_for, ALTERNATIVES};
use std::fmt;

/// The letters a game has redefined, merged over all its `Redefine` tags.
///
/// ```
/// use ctlpgn_filter::RedefineMap;
/// let mut m = RedefineMap::default();
/// m.merge("A@J, T@R").unwrap();
/// assert_eq!(m.resolve(b'T'), Ok(b'R'));
/// assert!(m.resolve(b'R').is_err()); // redefined: write T
/// assert!(m.merge("A@N").is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RedefineMap {
    /// `to_standard[alt - b'A']` is the standard letter `alt` stands for, or 0.
    to_standard: [u8; 26],
    /// One bit per letter (`1 << (letter - b'A')`) that `to_standard`
    /// involves, as alternative or as the standard letter it replaces: every
    /// other letter resolves to itself or to the usual hint.
    touched: u32,
    /// `FAN` was declared.
    fan: bool,
}

/// Why a `Redefine` value was refused.
///
/// ```
/// use ctlpgn_filter::{RedefineError, RedefineMap};
/// assert_eq!(RedefineMap::default().merge("Y@J"), Err(RedefineError::UnknownLetter('Y')));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedefineError {
    /// Not `ALT@STD, ...` nor `FAN`.
    Malformed(String),
    /// The letter is no alternative the spec defines.
    UnknownLetter(char),
    /// The alternative stands for another piece (`A@N`).
    WrongTarget {
        /// The alternative letter.
        alt: char,
        /// The target written.
        written: char,
        /// The piece it stands for.
        standard: char,
    },
    /// Two alternatives for one piece, or one alternative declared twice
    /// with different meanings.
    Conflict(String),
}

impl fmt::Display for RedefineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const ALLOWED: &str = "allowed: A@J B@J F@J L@J (bishop), C@N S@N (knight), T@R (rook), W@V (wyvern), Q@D (queen), or FAN";
        match self {
            RedefineError::Malformed(v) => write!(
                f,
                "Redefine value \"{v}\" is not a comma-separated list like \"A@J, T@R\" nor \"FAN\"; {ALLOWED}"
            ),
            RedefineError::UnknownLetter(c) => {
                write!(f, "{c} is not an alternative piece letter; {ALLOWED}")
            }
            RedefineError::WrongTarget {
                alt,
                written,
                standard,
            } => write!(
                f,
                "{alt} can only stand for {standard}, not {written}: write {alt}@{standard}"
            ),
            RedefineError::Conflict(m) => write!(f, "{m}"),
        }
    }
}

/// One bit per standard piece letter (bit 0 for `A`).
pub(crate) const STANDARD_MASK: u32 = {
    let mut m = 0u32;
    let s = crate::grammar::alphabet::STANDARD_LETTERS;
    let mut i = 0;
    while i < s.len() {
        m |= 1 << (s[i] - b'A');
        i += 1;
    }
    m
};

impl RedefineMap {
    /// Merges one tag value into the map.
    pub fn merge(&mut self, value: &str) -> Result<(), RedefineError> {
        if value.trim() == "FAN" {
            self.fan = true;
            return Ok(());
        }
        let mut next = *self;
        for item in value.split(',') {
            let item = item.trim();
            let b = item.as_bytes();
            let (&[alt], &[std]) = (
                item.split('@').next().unwrap_or("").trim().as_bytes(),
                item.split('@').nth(1).unwrap_or("").trim().as_bytes(),
            ) else {
                return Err(RedefineError::Malformed(value.to_string()));
            };
            if b.iter().filter(|&&c| c == b'@').count() != 1 {
                return Err(RedefineError::Malformed(value.to_string()));
            }
            let standard = standard_for(alt).ok_or(RedefineError::UnknownLetter(alt as char))?;
            if standard != std {
                return Err(RedefineError::WrongTarget {
                    alt: alt as char,
                    written: std as char,
                    standard: standard as char,
                });
            }
            if let Some(other) = ALTERNATIVES
                .iter()
                .map(|a| a.0)
                .find(|&o| o != alt && next.to_standard[(o - b'A') as usize] == standard)
            {
                return Err(RedefineError::Conflict(format!(
                    "{} already stands for {}: one piece takes one alternative letter per game",
                    other as char, standard as char
                )));
            }
            next.to_standard[(alt - b'A') as usize] = standard;
            next.touched |= 1 << (alt - b'A') | 1 << (standard - b'A');
        }
        *self = next;
        Ok(())
    }

    /// `Redefine "FAN"` was declared.
    pub fn fan(&self) -> bool {
        self.fan
    }

    /// The standard letter `alt` stands for in this game, if declared.
    pub fn standard(&self, alt: u8) -> Option<u8> {
        alt.checked_sub(b'A')
            .and_then(|i| self.to_standard.get(i as usize))
            .copied()
            .filter(|&s| s != 0)
    }

    /// The alternative that replaced standard letter `std`, if any.
    pub fn alternative_of(&self, std: u8) -> Option<u8> {
        (b'A'..=b'Z').find(|&a| self.standard(a) == Some(std))
    }

    /// Is any letter redefined?
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.touched == 0
    }

    /// Maps a plain letter as written to its standard meaning, or says why not.
    #[inline]
    pub fn resolve(&self, letter: u8) -> Result<u8, String> {
        // A standard letter no Redefine touches stands for itself.
        let i = letter.wrapping_sub(b'A');
        if i < 26 && (STANDARD_MASK & !self.touched) & (1 << i) != 0 {
            return Ok(letter);
        }
        self.resolve_slow(letter)
    }

    #[cold]
    fn resolve_slow(&self, letter: u8) -> Result<u8, String> {
        if let Some(s) = self.standard(letter) {
            return Ok(s);
        }
        if let Some(alt) = self.alternative_of(letter) {
            return Err(format!(
                "piece letter {} is redefined as {} in this game ([Redefine \"{}@{}\"]): write {}",
                letter as char, alt as char, alt as char, letter as char, alt as char
            ));
        }
        if let Some(s) = standard_for(letter) {
            return Err(format!(
                "piece letter {} is the alternative for {}; add [Redefine \"{}@{}\"]",
                letter as char, s as char, letter as char, s as char
            ));
        }
        Ok(letter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's examples (section Redefine), each with the letters it
    /// says stand for which pieces: each alternative resolves to its piece,
    /// the piece's own letter is refused, and no other letter changes.
    #[test]
    fn spec_examples_parse_to_the_letters_they_define() {
        for (value, pairs) in [
            (
                "A@J, C@N, T@R",
                &[(b'A', b'J'), (b'C', b'N'), (b'T', b'R')][..],
            ),
            ("B@J, Q@D, W@V", &[(b'B', b'J'), (b'Q', b'D'), (b'W', b'V')]),
            (
                "L@J, S@N, T@R, W@V",
                &[(b'L', b'J'), (b'S', b'N'), (b'T', b'R'), (b'W', b'V')],
            ),
            (
                "F@J, C@N, T@R, W@V",
                &[(b'F', b'J'), (b'C', b'N'), (b'T', b'R'), (b'W', b'V')],
            ),
        ] {
            let mut m = RedefineMap::default();
            m.merge(value).unwrap();
            assert!(!m.fan(), "{value}");
            for &(alt, standard) in pairs {
                assert_eq!(m.standard(alt), Some(standard), "{value}");
                assert_eq!(m.resolve(alt), Ok(standard), "{value}");
                assert!(m.resolve(standard).is_err(), "{value}");
            }
            let defined: Vec<u8> = (b'A'..=b'Z').filter(|&l| m.standard(l).is_some()).collect();
            let mut expected: Vec<u8> = pairs.iter().map(|p| p.0).collect();
            expected.sort_unstable();
            assert_eq!(defined, expected, "{value}");
        }
    }

    #[test]
    fn fan_is_declared_and_redefines_no_letter() {
        let mut m = RedefineMap::default();
        m.merge("FAN").unwrap();
        assert!(m.fan());
        assert!(m.is_empty());
        assert!((b'A'..=b'Z').all(|l| m.standard(l).is_none()));
    }

    #[test]
    fn several_tags_merge() {
        let mut m = RedefineMap::default();
        m.merge("A@J").unwrap();
        m.merge("T@R").unwrap();
        assert_eq!(m.standard(b'A'), Some(b'J'));
        assert_eq!(m.standard(b'T'), Some(b'R'));
    }

    #[test]
    fn wrong_target_is_refused() {
        let e = RedefineMap::default().merge("A@N").unwrap_err();
        assert_eq!(e.to_string(), "A can only stand for J, not N: write A@J");
    }

    #[test]
    fn two_alternatives_for_one_piece_conflict() {
        let e = RedefineMap::default().merge("A@J, B@J").unwrap_err();
        assert!(matches!(e, RedefineError::Conflict(_)));
    }

    #[test]
    fn unknown_letter_is_refused() {
        let e = RedefineMap::default().merge("Y@J").unwrap_err();
        assert_eq!(e, RedefineError::UnknownLetter('Y'));
    }

    #[test]
    fn malformed_value_is_refused() {
        for v in ["A=J", "AJ@J", "A@", "", "A@J@J"] {
            assert!(
                matches!(
                    RedefineMap::default().merge(v),
                    Err(RedefineError::Malformed(_))
                ),
                "{v}"
            );
        }
    }

    #[test]
    fn redefined_standard_letter_is_invalid() {
        let mut m = RedefineMap::default();
        m.merge("T@R").unwrap();
        assert!(m.resolve(b'R').unwrap_err().contains("redefined as T"));
        assert_eq!(m.resolve(b'T'), Ok(b'R'));
    }

    #[test]
    fn fast_resolve_agrees_with_the_slow_one() {
        let mut maps = vec![RedefineMap::default()];
        for v in [
            "A@J, C@N, T@R",
            "B@J, Q@D, W@V",
            "L@J, S@N, T@R, W@V",
            "FAN",
        ] {
            let mut m = RedefineMap::default();
            m.merge(v).unwrap();
            maps.push(m);
        }
        for m in &maps {
            assert_eq!(m.is_empty(), m.to_standard.iter().all(|&s| s == 0));
            for letter in 0..=255u8 {
                assert_eq!(
                    m.resolve(letter),
                    m.resolve_slow(letter),
                    "{}",
                    letter as char
                );
            }
        }
    }

    #[test]
    fn undeclared_alternative_gets_a_hint() {
        assert_eq!(
            RedefineMap::default().resolve(b'A').unwrap_err(),
            "piece letter A is the alternative for J; add [Redefine \"A@J\"]"
        );
    }
}
