//! Tags: each read for what it means to a reader (Variant, Redefine,
//! Result, PDTL), then handed on.

use super::held::Held;
use super::scan::invalid_utf8;
use super::state::Step;
use super::tokens::*;
use super::visitor::{TagRead, Visitor};
use crate::diag::Pos;
use crate::grammar::game_start::Opens;
use crate::grammar::model::Outcome;
use crate::grammar::token::{tag_parts, TagMeaning};
use crate::pass::Tag;
use crate::pdtl::Pdtl;
use std::io;
use unicode_normalization::UnicodeNormalization;

impl<V: Visitor> Step<'_, '_, V> {
    #[cold]
    #[inline(never)]
    pub(super) fn tag(&mut self, h: Held<'_>, s: Span<'_>) -> io::Result<()> {
        let (name, raw) = tag_parts(s.text);
        let ended = self.movetext.ended();
        let amid_moves =
            self.game.movetext_line == self.places.line && self.movetext.has_moves && !ended;
        if self.game.open && amid_moves && TagMeaning::of(name) == Some(TagMeaning::Redefine) {
            // A Redefine after moves on their own line is misplaced, not a new game.
            self.error_at(
                h,
                s.at,
                "a Redefine tag must come before the movetext it applies to (with the other tags)",
            );
            return Ok(());
        }
        if !self.game_at(h, Opens::Tag, s.at)? {
            return Ok(());
        }
        self.game.has_tags = true;
        let pos = self.places.pos(s.at);
        // The tag's regular expression takes only ASCII in a name.
        let name = ascii_text(name);
        let value_at = s.at + (raw.as_ptr() as usize - s.text.as_ptr() as usize) as u64;
        let raw = match self.text_of(raw) {
            Ok(v) => v,
            Err(e) => {
                let bad = value_at + e.valid_up_to() as u64;
                self.error_at(h, bad, invalid_utf8(h, bad));
                return Ok(());
            }
        };
        let nfc;
        let value = if is_nfc(raw) {
            raw
        } else {
            nfc = raw.nfc().collect::<String>();
            &nfc
        };
        // As written when it reads `[Name "value"]` and its line ends there.
        let end = s.at + s.text.len() as u64;
        let as_written = (std::ptr::eq(value, raw)
            && s.text.len() == name.len() + raw.len() + 5
            && s.text[name.len() + 1] == b' '
            && h.from(end).first() == Some(&b'\n'))
        .then_some((s.at, end + 1));
        self.tag_read(h, name, raw, value, pos, value_at, as_written);
        Ok(())
    }

    /// A tag read: its name, its value (`raw` as written, `value` in NFC)
    /// at stream offset `value_at`, the tag at `pos`, its line as written
    /// if it is. What it means to the reader, then the visitor.
    #[allow(clippy::too_many_arguments)]
    fn tag_read(
        &mut self,
        h: Held<'_>,
        mut name: &str,
        raw: &str,
        value: &str,
        pos: Pos,
        value_at: u64,
        mut as_written: Option<(u64, u64)>,
    ) {
        let meaning = TagMeaning::of(name.as_bytes());
        match meaning {
            Some(TagMeaning::Variant) => {
                if name != "Variant" {
                    as_written = None;
                    let problem = format_args!("tag name {name} (tag names are case-sensitive)");
                    self.warn_fixed_at(h, pos, problem, "read as Variant");
                    name = "Variant";
                }
                self.game.has_variant = true;
                self.variant(h, value, value_at);
            }
            Some(TagMeaning::Redefine) => {
                if let Err(e) = self.cx.redefine.merge(value) {
                    self.error_at(h, value_at, e.to_string());
                }
            }
            Some(TagMeaning::Result) => {
                self.game.marks.result_tag = Outcome::parse(value).map(|o| (o, pos));
            }
            Some(TagMeaning::Pdtl) => return self.setup(h, name, raw, value, pos, value_at),
            None => {}
        }
        let tag = TagRead {
            tag: Tag { name, value, pos },
            meaningful: meaning.is_some(),
            as_written,
            src: h.src(),
        };
        self.v.tag(&tag, &mut self.st.cx);
        self.place(h);
    }
}

impl super::state::Reading<'_> {
    /// `bytes` of the region being read as text: checked once with the
    /// region, else here.
    #[inline]
    pub(super) fn text_of<'b>(
        &self,
        bytes: &'b [u8],
    ) -> Result<&'b str, simdutf8::compat::Utf8Error> {
        if self.scan.utf8 {
            // SAFETY: the region was checked UTF-8 as a whole, and a tag
            // token starts and ends on ASCII bytes.
            return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
        }
        simdutf8::compat::from_utf8(bytes)
    }
}

impl<V: Visitor> Step<'_, '_, V> {
    /// The PDTL tag (`name`, maybe misspelled `DPTL`) at `pos`, its value
    /// `value` (`raw` as written) at `value_at`.
    pub(super) fn setup(
        &mut self,
        h: Held<'_>,
        name: &str,
        raw: &str,
        value: &str,
        pos: Pos,
        value_at: u64,
    ) {
        if name == "DPTL" {
            let fix = "read as PDTL (the usual misspelling)";
            self.warn_fixed_at(h, pos, "tag DPTL", fix);
        }
        if self.game.has_setup {
            return self.error_at_pos(h, pos, "a game has one PDTL tag");
        }
        self.game.has_setup = true;
        match Pdtl::parse_with_warnings(value) {
            Ok((mut pdtl, normalised)) => {
                for w in normalised {
                    let at = value_at + byte_in_value(raw, value, w.offset) as u64;
                    let at = self.places.pos(at);
                    self.warn_fixed_at(h, at, format_args!("PDTL: {}", w.message), &w.fix);
                }
                pdtl.pos = pos;
                self.v.setup(&mut pdtl, h.src(), &mut self.st.cx);
            }
            Err(e) => {
                let at = value_at + byte_in_value(raw, value, e.offset) as u64;
                self.error_at(h, at, e.to_string());
            }
        }
        self.place(h);
    }

    /// The Variant tag's value, at stream offset `at`: C'escacs, or
    /// unambiguously meant to be (a typographic apostrophe, another case).
    pub(super) fn variant(&mut self, h: Held<'_>, value: &str, at: u64) {
        const CESCACS: &str = "C'escacs";
        if value == CESCACS {
            return;
        }
        let apostrophes = ['’', '‘', 'ʼ', '´', '`', '′'];
        let plain = value.replace(apostrophes, "'");
        let problem = if plain == CESCACS {
            "has a typographic apostrophe"
        } else if plain.eq_ignore_ascii_case(CESCACS) {
            "is C'escacs in another case"
        } else {
            let message = format!(
                "Variant \"{value}\" is not C'escacs: this filter reads C'escacs games only"
            );
            return self.error_at(h, at, message);
        };
        let problem = format_args!("Variant \"{value}\" {problem}");
        let pos = self.places.pos(at);
        self.warn_fixed_at(h, pos, problem, "read as C'escacs");
    }
}

/// Is a tag value in NFC, as the writer writes it? Below U+0300 every
/// character is (the first that may combine is U+0300, whose UTF-8 starts
/// 0xCC), so names in Latin scripts cost a byte test, not a table lookup
/// a character.
#[inline]
fn is_nfc(value: &str) -> bool {
    // (A maximum, not `all`: no early exit, so it runs a vector at a time.)
    value.bytes().fold(0, u8::max) < 0xCC
        || unicode_normalization::is_nfc_quick(value.chars())
            == unicode_normalization::IsNormalized::Yes
}

/// A tag's name as text: ASCII letters, digits and `_`, as the tag's
/// regular expression takes them.
#[inline]
pub(super) fn ascii_text(name: &[u8]) -> &str {
    debug_assert!(name.is_ascii());
    // SAFETY: ASCII is UTF-8 (checking it again costs more than the tag).
    unsafe { std::str::from_utf8_unchecked(name) }
}

/// Where byte `offset` of the NFC form `value` of a tag value is in the
/// value as written, `raw` (the same when the value needed no folding).
pub(super) fn byte_in_value(raw: &str, value: &str, offset: usize) -> usize {
    if raw.len() == value.len() {
        return offset.min(raw.len());
    }
    // Characters before the offset, counted in the written value.
    let chars = value[..offset.min(value.len())].chars().count();
    raw.char_indices().nth(chars).map_or(raw.len(), |(i, _)| i)
}
