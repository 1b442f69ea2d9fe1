//! A game is read the same whatever follows it on its line, and every
//! message points at the byte at fault: after words folded from full-width
//! text, byte order marks and no-break spaces as anywhere else.

use ctlpgn_filter::{Diagnostic, Filter};

/// Each diagnostic as (line, column, message), and the output.
fn read(input: &[u8]) -> (Vec<(u64, u64, String)>, String) {
    let (out, diags, _) = Filter::default().filter_bytes(input);
    let diags = diags
        .into_iter()
        .map(|d: Diagnostic| (d.line, d.column, d.message))
        .collect();
    (diags, String::from_utf8(out).unwrap())
}

const GAME: &str = "[Variant \"C'escacs\"]\n";

#[test]
fn a_byte_order_mark_after_a_folded_result_is_a_blank() {
    let (diags, out) = read(format!("{GAME}1. E7-E13: ３－０\u{FEFF}\n").as_bytes());
    assert!(diags.is_empty(), "{diags:?}");
    assert!(out.contains("1. E7-E13:\n3-0\n"), "{out}");
}

#[test]
fn a_no_break_space_ends_a_folded_word_as_a_space_does() {
    let input = format!("{GAME}1. E7-E13: ３－０\u{A0}[Variant \"C'escacs\"] 1. F8-F12:\n");
    let (diags, out) = read(input.as_bytes());
    assert_eq!(out.matches("[Variant").count(), 2, "{out}");
    assert!(diags.iter().all(|d| !d.2.contains("tag")), "{diags:?}");
}

#[test]
fn a_tag_after_a_folded_move_is_read_as_a_tag() {
    let input = format!("{GAME}1. Ｅ７－Ｅ１３:*[Variant \"C'escacs\"]\n1. F8-F12:\n");
    let (diags, out) = read(input.as_bytes());
    assert!(out.contains("1. E7-E13:\n*\n"), "{out}");
    assert!(out.contains("1. F8-F12:\n*\n"), "{out}");
    assert!(
        diags.iter().all(|d| !d.2.contains("not closed")),
        "{diags:?}"
    );
}

#[test]
fn invalid_utf8_inside_a_move_number_is_pointed_at() {
    let mut input = format!("{GAME}1. E7-E13, E21-E15 12").into_bytes();
    input.extend_from_slice(b"\xFF. F8-F12:\n");
    let (diags, _) = read(&input);
    assert_eq!((diags[0].0, diags[0].1), (2, 22), "{diags:?}");
    assert!(
        diags[0].2.starts_with("invalid UTF-8: byte 0xFF"),
        "{diags:?}"
    );
}

#[test]
fn invalid_utf8_inside_a_result_is_pointed_at() {
    let mut input = format!("{GAME}1. E7-E13: 3").into_bytes();
    input.extend_from_slice(b"\xFF-0\n");
    let (diags, _) = read(&input);
    assert_eq!((diags[0].0, diags[0].1), (2, 13), "{diags:?}");
    assert!(
        diags[0].2.starts_with("invalid UTF-8: byte 0xFF"),
        "{diags:?}"
    );
}

#[test]
fn a_label_too_large_for_its_field_is_an_error_naming_it() {
    let input = format!("{GAME}1. E7-E13: ($[4294967296] 1. F8-F12)\n");
    let mut keep = ctlpgn_filter::FilterBuilder::new()
        .keep_variations(true)
        .build();
    let (_, diags, _) = keep.filter_bytes(input.as_bytes());
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        (diags[0].line, diags[0].column, diags[0].message.as_str()),
        (
            2,
            13,
            "variation label $[4294967296] is too large (at most $[99999])"
        )
    );
}

/// Comments and variations belong to the game under way, ended or not:
/// so does a character no token starts with inside a variation.
#[test]
fn a_stray_character_inside_a_variation_after_the_end_marker_is_its_game_s() {
    let input = format!("{GAME}1. E7-E13: (1. F8-F12 ; ) \n*\n");
    let mut keep = ctlpgn_filter::FilterBuilder::new()
        .keep_variations(true)
        .build();
    let (_, diags, r) = keep.filter_bytes(input.as_bytes());
    assert_eq!((r.games_read, r.games_rejected), (1, 1));
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!((diags[0].line, diags[0].column), (2, 23));
    assert!(
        diags[0].message.starts_with("; starts a comment"),
        "{diags:?}"
    );
}

#[test]
fn a_no_break_space_around_a_dash_is_a_blank_as_a_space_is() {
    for blank in [" ", "\u{A0}"] {
        let input = format!("{GAME}1. E7{blank}-{blank}E13:\n");
        let (diags, out) = read(input.as_bytes());
        assert!(out.contains("1. E7-E13:\n"), "{blank:?}: {out}");
        assert_eq!(diags.len(), 1, "{blank:?}: {diags:?}");
        assert_eq!(diags[0].2, "blanks inside a move: read as E7-E13");
    }
}

/// A game read alone, then with more after it on its last line: the same
/// output for it, the same diagnostics about it.
fn read_alike(game: &str, after: &str) {
    let (alone_diags, alone) = read(game.as_bytes());
    let (diags, out) = read(format!("{game}{after}").as_bytes());
    assert!(
        out.starts_with(&alone),
        "{game:?} + {after:?}:\n{alone}\n---\n{out}"
    );
    let line_count = game.lines().count() as u64;
    let about_it: Vec<_> = diags
        .into_iter()
        .filter(|d| d.0 < line_count || d.1 <= game.lines().last().unwrap().chars().count() as u64)
        .filter(|d| !d.2.starts_with("two games on one line") && !d.2.starts_with("no [Variant"))
        .collect();
    let alone_diags: Vec<_> = alone_diags
        .into_iter()
        .filter(|d| !d.2.starts_with("no [Variant"))
        .collect();
    assert_eq!(about_it, alone_diags, "{game:?} + {after:?}");
}

#[test]
fn a_game_is_read_the_same_whatever_follows_it_on_its_line() {
    read_alike(&format!("{GAME}1. E7-E13:\n１*"), "[E \"x\"]\n");
    read_alike(&format!("{GAME}1. E7 - E13"), "[Event \"x\"]\n");
    read_alike(&format!("{GAME}1. E7-E13 :"), "[Event \"x\"]\n");
    read_alike(
        &format!("{GAME}1. JE5 × F16"),
        "[Variant \"C'escacs\"]\n1. F8-F12:\n*\n",
    );
}

#[test]
fn a_redefine_after_a_comma_on_its_line_is_misplaced() {
    // The comma is the line's movetext: the tag is an error in the game,
    // not a new game.
    let input = format!("{GAME}1. E7-E13\n, [Redefine \"A@J\"] E21-E15:\n");
    let (_, diags, report) = ctlpgn_filter::Filter::default().filter_bytes(input.as_bytes());
    assert_eq!((report.games_read, report.games_rejected), (1, 1));
    assert!(
        diags[0]
            .message
            .starts_with("a Redefine tag must come before"),
        "{diags:?}"
    );
}

#[test]
fn a_byte_not_utf8_in_a_comment_never_closed_of_a_game_read_again_is_placed_on_its_line() {
    // The first comment is never closed: the game is read again from the
    // tag on line 2, whose own comment is never closed either.
    let input = b"{\n[T\"\"]E7-E1{\n\xFF\n[i\"\"]\n";
    let (_, diags, _) = ctlpgn_filter::Filter::default().filter_bytes(input);
    let bad = diags
        .iter()
        .find(|d| d.message.starts_with("invalid UTF-8"))
        .expect("the byte is reported");
    assert_eq!((bad.line, bad.column), (3, 1));
}

#[test]
fn escapes_in_a_tag_value_are_written_as_read() {
    use ctlpgn_filter::{FilterBuilder, Format};
    let input = concat!(
        "[Variant \"C'escacs\"]\n",
        "[Event \"The \\\"Big\\\" one\"]\n",
        "[Site \"a \\\\ b\"]\n",
        "[Annotator \"ends in \\\\\"]\n",
        "[Round \"\\\"1\\\"\"]\n",
        "\n1. E7-E13:\n*\n",
    );
    for format in [Format::CtlPgn, Format::Ndjson] {
        let mut f = FilterBuilder::new().format(format).build();
        let (out, diags, _) = f.filter_bytes(input.as_bytes());
        assert!(diags.is_empty(), "{diags:?}");
        if format == Format::CtlPgn {
            assert!(out.starts_with(input.split("\n\n").next().unwrap().as_bytes()));
        }
    }
}

#[test]
fn spaces_that_fold_to_a_blank_before_the_first_game_belong_to_no_game() {
    let game = "1. E13xF16:\n*\n";
    // No-break, narrow no-break, em and ideographic spaces: NFKC folds
    // each to a space, as it folds full-width text.
    for space in ["\u{A0}", "\u{202F}", "\u{2003}", "\u{3000}"] {
        let input = format!("{space}\n{space}{game}");
        let mut rejects = Vec::new();
        let report = Filter::default()
            .run_with_rejects(
                input.as_bytes(),
                &mut Vec::new(),
                Some(&mut rejects),
                &mut |_| {},
            )
            .unwrap();
        assert_eq!(report.games_rejected, 1, "{space:?}");
        assert_eq!(rejects, game.as_bytes(), "{space:?}");
    }
}
