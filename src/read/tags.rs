//! Tags: a tag line read whole when it is written as the writer writes
//! it and no pass wants tags, else through the tokenizer; either way, the
//! tags that carry meaning (Variant, Redefine, Result, PDTL) read for it.

use super::scan::{invalid_utf8, Scan};
use super::tokens::*;
use super::{Held, Reading};
use crate::diag::Pos;
use crate::grammar::game_start::Opens;
use crate::grammar::model::Outcome;
use crate::grammar::token::{is_tag_name_byte, tag_parts};
use crate::passes::{Flow, Tag};
use crate::pdtl::Pdtl;
use std::io;
use unicode_normalization::UnicodeNormalization;

impl Reading<'_> {
    #[cold]
    #[inline(never)]
    pub(super) fn tag(&mut self, h: Held<'_>, s: Span<'_>) -> io::Result<()> {
        let (name, raw) = tag_parts(s.text);
        let ended = self.movetext.ended();
        let amid_moves =
            self.game.movetext_line == self.places.line && self.movetext.has_moves && !ended;
        if self.game.open && amid_moves && name == b"Redefine" {
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
        self.tag_read(h, name, raw, value, pos, value_at);
        Ok(())
    }

    /// A tag read, by the tokenizer or as a plain line: its name, its
    /// value (`raw` as written, `value` in NFC) at stream offset
    /// `value_at`, the tag at `pos`. What it means to the reader, then the
    /// passes and the writer.
    fn tag_read(
        &mut self,
        h: Held<'_>,
        name: &str,
        raw: &str,
        value: &str,
        pos: Pos,
        value_at: u64,
    ) {
        let name = if name != "Variant" && name.eq_ignore_ascii_case("Variant") {
            let problem = format_args!("tag name {name} (tag names are case-sensitive)");
            self.warn_fixed_at(h, pos, problem, "read as Variant");
            "Variant"
        } else {
            name
        };
        match name {
            "Variant" => {
                self.game.has_variant = true;
                self.variant(h, value, value_at);
            }
            "Redefine" => {
                if let Err(e) = self.f.cx.redefine.merge(value) {
                    self.error_at(h, value_at, e.to_string());
                }
            }
            "Result" => {
                self.game.marks.result_tag = Outcome::parse(value).map(|o| (o, pos));
            }
            "PDTL" | "DPTL" => return self.setup(h, name, raw, value, pos, value_at),
            _ => {}
        }
        let tag = Tag { name, value, pos };
        let meaningful = is_meaningful_tag(name.as_bytes());
        if self.f.chain.tag(&tag, meaningful, &mut self.f.cx) == Flow::Keep {
            self.f.writer.tag(&tag);
        }
        self.place(h);
    }

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

    /// Tag lines `[Name "value"]` from `text[i]`, a line's start, among
    /// the tags of a game under way or starting one, as far as they are as the writer
    /// writes them, when no pass wants tags: read without the tokenizer,
    /// those that carry meaning read for it as the tokenizer's are, the
    /// others handed to the writer as read (a run of them as one copy, to
    /// a writer that takes lines as read). Returns where they end.
    #[inline]
    pub(super) fn tag_lines(
        &mut self,
        h: Held<'_>,
        text: &[u8],
        from: u64,
        mut i: usize,
    ) -> io::Result<usize> {
        let runs = self.f.writer.takes_lines();
        // The run of tag lines read and not yet handed on: where it starts,
        // how many lines.
        let mut run = (i, 0);
        while let Some(t) = plain_tag_line(h, text, from, i, &self.scan) {
            let meaningful = is_meaningful_tag(&text[t.name.clone()]);
            if runs && !meaningful && self.in_plain_tags() {
                if run.1 == 0 {
                    run.0 = i;
                }
                run.1 += 1;
                i = t.end;
                continue;
            }
            self.tag_run(text, from, &mut run, i);
            if !self.in_plain_tags() {
                // The first tag of a game starts it, by the rule the
                // tokenizer's tags follow; then, if a pass wants this
                // game's tags, the tokenizer reads them, this one first.
                if !self.game_at(h, Opens::Tag, from + i as u64)? || !self.in_plain_tags() {
                    break;
                }
            }
            self.game.has_tags = true;
            // Checked ASCII, and the value UTF-8 with its region, and NFC.
            let name = ascii_text(&text[t.name.clone()]);
            let value = self.text_of(&text[t.value.clone()]).unwrap_or_default();
            let pos = self.places.pos(from + i as u64);
            if meaningful {
                let value_at = from + t.value.start as u64;
                self.tag_read(h, name, value, value, pos, value_at);
            } else {
                self.f
                    .writer
                    .tag_line(&Tag { name, value, pos }, &text[i..t.end]);
            }
            i = t.end;
            self.places.new_line(from + i as u64);
        }
        self.tag_run(text, from, &mut run, i);
        Ok(i)
    }

    /// Hands the run of tag lines `run` (where it starts, how many lines)
    /// that ends at `text[end]` to the writer, whole.
    #[inline]
    fn tag_run(&mut self, text: &[u8], from: u64, run: &mut (usize, u64), end: usize) {
        if run.1 > 0 {
            self.game.has_tags = true;
            self.f.writer.tag_lines(&text[run.0..end]);
            self.places.new_lines(run.1, from + end as u64);
            run.1 = 0;
        }
    }

    /// Would a tag at a line's start here start a game, as the
    /// tokenizer's tags do: on the main line, nothing waiting, and the
    /// game-start rule says so?
    #[inline]
    pub(super) fn tag_may_start_game(&self) -> bool {
        self.game.depth == 0 && self.moves.pending.is_none() && self.standing().starts(Opens::Tag)
    }

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
                self.f.chain.setup(&mut pdtl, &mut self.f.cx);
                self.f.writer.setup(&pdtl);
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
/// regular expression and [`plain_tag_line`] take them.
#[inline]
pub(super) fn ascii_text(name: &[u8]) -> &str {
    debug_assert!(name.is_ascii());
    // SAFETY: ASCII is UTF-8 (checking it again costs more than the tag).
    unsafe { std::str::from_utf8_unchecked(name) }
}

/// Do tags of this name carry meaning to the reader (the PDTL aside,
/// which is read as a position)? They reach every pass.
#[inline]
pub(super) fn is_meaningful_tag(name: &[u8]) -> bool {
    // By length first: most names are none of these lengths.
    match name.len() {
        4 => matches!(name, b"PDTL" | b"DPTL"),
        6 => name == b"Result",
        7 => is_variant(name),
        8 => name == b"Redefine",
        _ => false,
    }
}

/// Is a tag name of seven bytes `Variant` in any case? Its bytes, lower
/// cased as one word: a tag name's bytes ([`is_tag_name_byte`]) that are
/// not letters stay apart from the letters so.
///
/// [`is_tag_name_byte`]: crate::grammar::token::is_tag_name_byte
#[inline]
fn is_variant(name: &[u8]) -> bool {
    let mut word = [0u8; 8];
    word[..7].copy_from_slice(name);
    u64::from_le_bytes(word) | 0x0020_2020_2020_2020 == u64::from_le_bytes(*b"variant\0")
}

/// Where the name and value of a tag line are, and where the line ends
/// (after its line end).
pub(super) struct TagLine {
    pub(super) name: std::ops::Range<usize>,
    pub(super) value: std::ops::Range<usize>,
    pub(super) end: usize,
}

/// The tag line at `text[i..]`, a line's start, if it is written as the
/// writer writes tags (`[Name "value"]` with one space, then the line
/// end) and its value is NFC (ASCII, or valid UTF-8 when `utf8`). The
/// quotes come from the index.
#[inline]
pub(super) fn plain_tag_line(
    h: Held<'_>,
    text: &[u8],
    from: u64,
    i: usize,
    region: &Scan,
) -> Option<TagLine> {
    use super::index::Classes;
    if text.get(i) != Some(&b'[') {
        return None;
    }
    let name_end = i + 1 + text[i + 1..].iter().position(|&c| !is_tag_name_byte(c))?;
    if name_end == i + 1 || text.get(name_end..name_end + 2) != Some(b" \"") {
        return None;
    }
    let value = name_end + 2;
    let at = |k: usize| from + k as u64;
    let close = (h
        .index
        .find(Classes::QUOTE.or(Classes::LF), at(value), h.index.end())?
        - from) as usize;
    if text.get(close..close + 3) != Some(b"\"]\n") {
        return None;
    }
    let v = &text[value..close];
    // The first quote closes the value unless a backslash stands before it
    // (`\"`, or `\\"`): such a line goes to the tokenizer. Escapes before
    // it are copied as written, as the tokenizer's path writes them.
    if text[close - 1] == b'\\' {
        return None;
    }
    if !region.ascii
        && h.index
            .find(Classes::NON_ASCII, at(value), at(close))
            .is_some()
    {
        // A value not known UTF-8 is read, and checked, as a token.
        if !region.utf8 {
            return None;
        }
        // SAFETY: the region was checked UTF-8 as a whole, and the value
        // lies between ASCII quotes.
        if !is_nfc(unsafe { std::str::from_utf8_unchecked(v) }) {
            return None;
        }
    }
    Some(TagLine {
        name: i + 1..name_end,
        value: value..close,
        end: close + 3,
    })
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

#[cfg(test)]
mod tests {
    use super::is_meaningful_tag;

    #[test]
    fn the_tags_with_meaning_are_told_by_name_variant_in_any_case() {
        for name in [
            "Variant", "VARIANT", "variant", "vArIaNt", "Result", "Redefine", "PDTL", "DPTL",
        ] {
            assert!(is_meaningful_tag(name.as_bytes()), "{name}");
        }
        for name in [
            "Variang", "Variants", "_ariant", "V4riant", "result", "Event", "Site", "PDTl",
        ] {
            assert!(!is_meaningful_tag(name.as_bytes()), "{name}");
        }
    }
}
