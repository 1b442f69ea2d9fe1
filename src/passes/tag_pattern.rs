//! The pattern a `--tag` or `--player` matches a tag's value with.

use super::names::{is_glob, Words};
use super::select_error::SelectError;
use globset::{GlobBuilder, GlobMatcher};

/// A tag a game must have, with a value that matches: a value typed
/// plainly (no `*`, `?`, `[`, `{` or `\`) matches at the start of the tag's
/// value or of any word in it, case aside (`Sasal` and `cesc` match
/// `Sasal, Cesc`; `sal` does not); a glob matches the whole value, case
/// counting: `*` any characters, `?` one, `[abc]` / `[!abc]` / `[a-z]` one
/// of a set, `{a,b}` either, `\*` a literal `*`. The value is compared
/// with its PGN escapes undone (`\"` is `"`).
///
/// ```
/// use ctlpgn_filter::TagPattern;
/// let p = TagPattern::parse("Id=Cescacs-A0001-*").unwrap();
/// assert_eq!(p.name(), "Id");
/// assert!(p.matches("Cescacs-A0001-24"));
/// assert!(!p.matches("Cescacs-X01-en"));
/// assert!(!p.matches("cescacs-A0001-24")); // a glob's case counts
/// let p = TagPattern::parse("Site=barcelona").unwrap();
/// assert!(p.matches("Barcelona, Catalunya ESP"));
/// assert!(p.matches("Moià (Barcelona), Catalunya ESP"));
/// assert!(TagPattern::parse("Event").is_err()); // no `=`
/// ```
#[derive(Clone, Debug)]
pub struct TagPattern {
    /// The tags it looks at: one, or `White` and `Black` for a player.
    names: Vec<String>,
    pattern: String,
    matcher: Matcher,
}

/// How a [`TagPattern`] matches, and how a looser match would.
#[derive(Clone, Debug)]
enum Matcher {
    /// A value typed plainly: at a word's start, case aside; looser,
    /// anywhere inside, in the case typed.
    Words(Words),
    /// A glob over the whole value, case counting; looser, in any case.
    Glob {
        glob: GlobMatcher,
        any_case: GlobMatcher,
    },
}

impl TagPattern {
    /// A pattern for the tag `name`.
    pub fn new(name: &str, pattern: &str) -> Result<TagPattern, SelectError> {
        let name_ok = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !name_ok {
            return Err(SelectError(format!(
                "{name:?} is not a tag name: letters, digits and _ only (NAME=PATTERN)"
            )));
        }
        Ok(TagPattern {
            names: vec![name.to_string()],
            pattern: pattern.to_string(),
            matcher: Matcher::new(pattern, &format!("{name}={pattern}"))?,
        })
    }

    /// A pattern for a player, in either colour: the `White` or the
    /// `Black` tag (`--player`, as pgn-extract's `-Tp`).
    ///
    /// ```
    /// use ctlpgn_filter::TagPattern;
    /// let p = TagPattern::player("Sasal*").unwrap();
    /// assert_eq!(p.names(), ["White", "Black"]);
    /// assert!(p.matches("Sasal, Cesc"));
    /// assert!(TagPattern::player("cesc").unwrap().matches("Sasal, Cesc"));
    /// ```
    pub fn player(pattern: &str) -> Result<TagPattern, SelectError> {
        Ok(TagPattern {
            names: vec!["White".to_string(), "Black".to_string()],
            pattern: pattern.to_string(),
            matcher: Matcher::new(pattern, pattern)?,
        })
    }

    /// `NAME=PATTERN`, split at the first `=`.
    pub fn parse(arg: &str) -> Result<TagPattern, SelectError> {
        let Some((name, pattern)) = arg.split_once('=') else {
            return Err(SelectError(format!(
                "{arg:?}: write NAME=PATTERN, as in Event=open (a word's start, case aside) \
                 or Event=*Open* (a glob)"
            )));
        };
        TagPattern::new(name, pattern)
    }

    /// The tag's name (the first, for a player: `White`).
    pub fn name(&self) -> &str {
        &self.names[0]
    }

    /// The names of the tags it looks at.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Is it for a player (`--player`): the `White` or the `Black` tag?
    pub fn is_player(&self) -> bool {
        self.names.len() == 2
    }

    /// Does it look at the tag `name`?
    pub(super) fn is_for(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }

    /// The pattern, as given.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// Is it a glob (else a value typed plainly)?
    pub fn is_glob(&self) -> bool {
        matches!(self.matcher, Matcher::Glob { .. })
    }

    /// Does `value` (PGN escapes as written) match?
    pub fn matches(&self, value: &str) -> bool {
        self.on_value(value, |m, v| match m {
            Matcher::Words(w) => w.matches(v),
            Matcher::Glob { glob, .. } => glob.is_match(v),
        })
    }

    /// Would a looser pattern match `value`: a plain value anywhere
    /// inside it (the glob `*VALUE*`), a glob in any case?
    pub(crate) fn loosely_matches(&self, value: &str) -> bool {
        self.on_value(value, |m, v| match m {
            Matcher::Words(w) => w.inside(v),
            Matcher::Glob { any_case, .. } => any_case.is_match(v),
        })
    }

    /// `test` of the matcher on `value`, its PGN escapes undone.
    fn on_value(&self, value: &str, test: impl Fn(&Matcher, &str) -> bool) -> bool {
        if value.contains('\\') {
            let plain = crate::write::unescape_pgn(value.as_bytes());
            test(&self.matcher, String::from_utf8_lossy(&plain).as_ref())
        } else {
            test(&self.matcher, value)
        }
    }
}

impl Matcher {
    /// `pattern` as typed; `shown` names it in an error.
    fn new(pattern: &str, shown: &str) -> Result<Matcher, SelectError> {
        if !is_glob(pattern) {
            return Ok(Matcher::Words(Words::new(pattern)));
        }
        let glob = |any_case: bool| -> Result<GlobMatcher, SelectError> {
            Ok(GlobBuilder::new(pattern)
                .literal_separator(false)
                .backslash_escape(true)
                .case_insensitive(any_case)
                .build()
                .map_err(|e| SelectError(format!("{shown}: {}", e.kind())))?
                .compile_matcher())
        };
        Ok(Matcher::Glob {
            glob: glob(false)?,
            any_case: glob(true)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_patterns_are_globs_over_the_whole_unescaped_value() {
        let p = TagPattern::parse("Event=*Open*").unwrap();
        assert!(p.matches("Barcelona Open 2023"));
        assert!(!p.matches("Barcelona open"));
        let q = TagPattern::parse("Annotator=say \"hi\"*").unwrap();
        assert!(q.matches("say \\\"hi\\\" there"));
        let r = TagPattern::parse("Id=Cescacs-A0001-{24,44}").unwrap();
        assert!(r.matches("Cescacs-A0001-44") && !r.matches("Cescacs-A0001-43"));
        assert!(TagPattern::parse("Id=[").is_err());
        assert!(TagPattern::parse("=x").is_err());
        // `=` after the first is the pattern's.
        assert!(TagPattern::parse("Title=a=b").unwrap().matches("a=b"));
    }
}
