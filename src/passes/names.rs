//! Tag values as people type them (`--player Sasal`, `--tag Site=barcelona`):
//! a value without glob characters matches at the start of the tag's value
//! or of any word in it, case aside. A value with glob characters is a glob
//! over the whole value, case counting (`tag_pattern.rs`, [`TagPattern`]).
//!
//! [`TagPattern`]: super::TagPattern

/// The characters that make a pattern a glob: `*`, `?`, `[...]`, `{a,b}`,
/// and `\` (which escapes one of them).
const GLOB_CHARACTERS: &[char] = &['*', '?', '[', ']', '{', '}', '\\'];

/// Does `pattern` hold a glob character?
pub(crate) fn is_glob(pattern: &str) -> bool {
    pattern.contains(GLOB_CHARACTERS)
}

/// A plain value, matched at the start of a value or of any word in it
/// (a run of letters and digits), case aside: `sasal` and `Cesc` both match
/// `Sasal, Cesc`; `sal` does not.
#[derive(Clone, Debug)]
pub(crate) struct Words {
    /// As typed.
    typed: String,
    /// In lower case.
    lower: String,
}

impl Words {
    pub fn new(typed: &str) -> Words {
        Words {
            typed: typed.to_string(),
            lower: typed.to_lowercase(),
        }
    }

    /// Does `value` start with it, or a word of `value`, case aside?
    pub fn matches(&self, value: &str) -> bool {
        if self.lower.is_ascii() {
            // As typed, nearly always: bytes compared, nothing made; a
            // word whose first letter differs is passed at once.
            let (v, w) = (value.as_bytes(), self.lower.as_bytes());
            let Some(&first) = w.first() else {
                return true;
            };
            let at = |i: usize| {
                v[i].to_ascii_lowercase() == first
                    && v.len() - i >= w.len()
                    && v[i..i + w.len()].eq_ignore_ascii_case(w)
            };
            return if value.is_ascii() {
                word_starts(v).any(at)
            } else {
                word_starts_in(value).any(at)
            };
        }
        let v = value.to_lowercase();
        let found = word_starts_in(&v).any(|i| v[i..].starts_with(self.lower.as_str()));
        found
    }

    /// Is it inside `value`, in the case typed: the glob `*VALUE*`, the
    /// looser match a selection that keeps nothing suggests.
    pub fn inside(&self, value: &str) -> bool {
        memchr::memmem::find(value.as_bytes(), self.typed.as_bytes()).is_some()
    }
}

/// Where `v`'s value and its words start: byte 0, and each letter or digit
/// after a byte that is neither (ASCII).
fn word_starts(v: &[u8]) -> impl Iterator<Item = usize> + '_ {
    (0..v.len()).filter(move |&i| {
        i == 0 || v[i].is_ascii_alphanumeric() && !v[i - 1].is_ascii_alphanumeric()
    })
}

/// [`word_starts`] over any text: each letter or digit after a character
/// that is neither, by its byte offset.
fn word_starts_in(v: &str) -> impl Iterator<Item = usize> + '_ {
    let mut before = None::<char>;
    v.char_indices().filter_map(move |(i, c)| {
        let starts = match before {
            None => true,
            Some(b) => c.is_alphanumeric() && !b.is_alphanumeric(),
        };
        before = Some(c);
        starts.then_some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_value_matches_the_start_of_the_value_or_of_a_word_case_aside() {
        let sasal = Words::new("Sasal");
        assert!(sasal.matches("Sasal, Cesc"));
        assert!(Words::new("cesc").matches("Sasal, Cesc"));
        assert!(Words::new("sasal, c").matches("Sasal, Cesc"));
        assert!(!Words::new("sal").matches("Sasal, Cesc"));
        assert!(!sasal.matches("Ros, Xus"));
        assert!(Words::new("a0001").matches("Cescacs-A0001-24"));
        assert!(Words::new("pol").matches("Martí i Pol, Pere"));
        // Beyond ASCII: case folded, word starts found by character.
        assert!(Words::new("núria").matches("Puig, NÚRIA"));
        assert!(Words::new("jörg").matches("Müller, Jörg"));
        assert!(!Words::new("üller").matches("Müller, Jörg"));
        assert!(!Words::new("Sasal, Cesc!").matches("Sasal, Cesc"));
    }

    #[test]
    fn inside_is_the_glob_star_value_star() {
        assert!(Words::new("sal").inside("Sasal, Cesc"));
        assert!(!Words::new("SAL").inside("Sasal, Cesc"));
    }

    #[test]
    fn glob_characters_make_a_glob() {
        for glob in ["Sasal*", "?", "[ab]", "{a,b}", "a\\*"] {
            assert!(is_glob(glob), "{glob}");
        }
        for plain in ["Sasal", "Sasal, Cesc", "2022-08-14", "C'escacs"] {
            assert!(!is_glob(plain), "{plain}");
        }
    }
}
