//! Board diagrams: a [`Position`] drawn as SVG text, from the spec's
//! geometry ("The board", "Coordinates"). The board is a regular hexagon of
//! 169 flat-topped hexes, a vertex towards each player; a column runs
//! upward one hex height every two lines, and the next column sits half a
//! hex higher or lower (a line up or down), one and a half sides across.
//!
//! Everything that does not depend on the position (the hexes, their
//! colours, the coordinates, each hex's centre as text) is written once
//! when the [`Diagram`] is made: a diagram then costs a copy and a few
//! bytes per piece. Numbers are written with two decimals, so the bytes
//! are the same on every run and machine.

use crate::grammar::hex::{Hex, HexColour, COLUMNS};
use crate::grammar::model::{figurine, HalfMove, Side};
use crate::verify::{move_hexes, Position};
use std::fmt::Write as _;

/// A hex's side, in the SVG's own units.
const SIDE: f64 = 20.0;
/// Half a hex's height: a line's step up its column.
const HALF_HEIGHT: f64 = SIDE * 0.866_025_403_784_438_6;
/// The drawing's extent in its own units: the board (±230 across, ±259.81
/// up and down) and the coordinates around it.
const VIEW_LEFT: f64 = -262.0;
const VIEW_TOP: f64 = -270.0;
const VIEW_WIDTH: f64 = 524.0;
const VIEW_HEIGHT: f64 = 556.0;

/// The hexes' fills: white, black, coloured.
const FILL_WHITE: &str = "#f4f1ea";
const FILL_BLACK: &str = "#8a8f96";
const FILL_COLOURED: &str = "#5b9bd5";
/// The marks: the last move's hexes, an incoherent move's, a king in check.
const MARK_MOVE: &str = "#f2c200";
const MARK_FAULT: &str = "#e0301e";

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PieceStyle {
    /// Their letters, upper case for White and lower case for Black, in
    /// discs of the side's colour.
    #[default]
    Letters,
    /// The notation's figurines (♔ ♚ ...); the wyvern's and the guard's
    /// (🩏 🩐 🩒 🩓), which few fonts have, as their letters, drawn as the
    /// figurines are (White's outlined, Black's filled), never as a box.
    Figurines,
}

/// How a diagram looks: its size, the side at the bottom, the pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiagramOptions {
    /// Width in pixels (the height follows the board's proportions).
    pub size: u32,
    /// Whose view: that side's vertex at the bottom.
    pub view: Side,
    /// Letters or figurines.
    pub pieces: PieceStyle,
}

impl Default for DiagramOptions {
    fn default() -> DiagramOptions {
        DiagramOptions {
            size: 480,
            view: Side::White,
            pieces: PieceStyle::Letters,
        }
    }
}

/// What a diagram marks besides the pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Hexes of the last move played (yellow).
    pub moved: Vec<Hex>,
    /// Hexes of an incoherent move (red): the move that could not be played.
    pub fault: Vec<Hex>,
    /// The side to move's king is in check (as the last move's `+` says).
    pub check: bool,
}

impl Marks {
    /// The hexes `mv` names, as the last move played: its origin and
    /// destination; a castling's king's and rooks' homes and targets; a
    /// forced promotion's hex. The king is marked in check when `mv` says
    /// so (`+`, `#`...).
    pub fn last_move(mv: &HalfMove) -> Marks {
        Marks {
            moved: move_hexes(mv),
            fault: Vec::new(),
            check: mv.check.is_some(),
        }
    }

    /// The hexes `mv` names, as a move that could not be played.
    pub fn incoherent(mv: &HalfMove) -> Marks {
        Marks {
            moved: Vec::new(),
            fault: move_hexes(mv),
            check: false,
        }
    }
}

/// A diagram maker: the board drawn once, for any number of positions.
///
/// ```
/// use ctlpgn_filter::{Diagram, DiagramOptions, Marks, Position};
/// let diagram = Diagram::new(DiagramOptions::default());
/// let svg = diagram.svg(&Position::initial(), &Marks::default());
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"480\""));
/// // Every piece in its disc, and the side to move's by its edge.
/// assert_eq!(svg.matches("<circle").count(), 54 + 1);
/// ```
#[derive(Clone, Debug)]
pub struct Diagram {
    options: DiagramOptions,
    /// The `<svg>` element's opening tag.
    open: String,
    /// The board and its coordinates, up to where the marks go.
    board: String,
    /// Each hex's outline, as a path (`M...Z`), by [`Hex::index`].
    outline: Vec<String>,
    /// Each hex's centre, `cx="X" cy="Y"`, by [`Hex::index`].
    centre: Vec<String>,
    /// Where each hex's glyph goes, `x="X" y="Y"` (its baseline).
    glyph_at: Vec<String>,
}

impl Diagram {
    /// Draws the board as `options` ask.
    pub fn new(options: DiagramOptions) -> Diagram {
        let hexes: Vec<Hex> = (0..Hex::COUNT).map(Hex::from_index).collect();
        let place = |h: Hex| centre(h, options.view);
        let outline: Vec<String> = hexes.iter().map(|&h| hex_path(place(h))).collect();
        let centre = hexes
            .iter()
            .map(|&h| {
                let (x, y) = place(h);
                format!("cx=\"{}\" cy=\"{}\"", num(x), num(y))
            })
            .collect();
        let baseline = match options.pieces {
            PieceStyle::Letters => 5.5,
            PieceStyle::Figurines => 9.0,
        };
        let glyph_at = hexes
            .iter()
            .map(|&h| {
                let (x, y) = place(h);
                format!("x=\"{}\" y=\"{}\"", num(x), num(y + baseline))
            })
            .collect();
        let height = (u64::from(options.size) * VIEW_HEIGHT as u64).div_ceil(VIEW_WIDTH as u64);
        let open = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" viewBox=\"{} {} {} {}\">\n",
            options.size,
            num(VIEW_LEFT),
            num(VIEW_TOP),
            num(VIEW_WIDTH),
            num(VIEW_HEIGHT)
        );
        let mut board = format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fff\"/>\n",
            num(VIEW_LEFT),
            num(VIEW_TOP),
            num(VIEW_WIDTH),
            num(VIEW_HEIGHT)
        );
        for (colour, fill) in [
            (HexColour::White, FILL_WHITE),
            (HexColour::Black, FILL_BLACK),
            (HexColour::Coloured, FILL_COLOURED),
        ] {
            let _ = write!(
                board,
                "<path class=\"{}\" fill=\"{fill}\" stroke=\"#444\" stroke-width=\"0.8\" d=\"",
                colour_name(colour)
            );
            for &h in hexes.iter().filter(|h| h.colour() == colour) {
                board += &outline[h.index()];
            }
            board += "\"/>\n";
        }
        board += &coordinates(options.view);
        Diagram {
            options,
            open,
            board,
            outline,
            centre,
            glyph_at,
        }
    }

    /// The image's height in pixels: its width's, in the board's proportions.
    pub fn height(&self) -> u32 {
        let h = (u64::from(self.options.size) * VIEW_HEIGHT as u64).div_ceil(VIEW_WIDTH as u64);
        u32::try_from(h).unwrap_or(u32::MAX)
    }

    /// Where `hex`'s centre lands in the image, in pixels from its top
    /// left corner (to lay something over a diagram, or to test one).
    pub fn pixel_of(&self, hex: Hex) -> (f64, f64) {
        let scale = f64::from(self.options.size) / VIEW_WIDTH;
        // The height is rounded up: the drawing is centred in it.
        let slack = (f64::from(self.height()) - VIEW_HEIGHT * scale) / 2.0;
        let (x, y) = centre(hex, self.options.view);
        ((x - VIEW_LEFT) * scale, (y - VIEW_TOP) * scale + slack)
    }

    /// The options it was made with.
    pub fn options(&self) -> DiagramOptions {
        self.options
    }

    /// `position` as SVG text, with `marks`.
    pub fn svg(&self, position: &Position, marks: &Marks) -> String {
        let mut out = Vec::with_capacity(self.board.len() + 4096);
        self.write(position, marks, &mut out);
        String::from_utf8(out).expect("the SVG is built from str")
    }

    /// Appends `position` as SVG text, with `marks`, to `out`.
    pub fn write(&self, position: &Position, marks: &Marks, out: &mut Vec<u8>) {
        out.extend_from_slice(self.open.as_bytes());
        // The position as a PDTL, for a reader of the text.
        out.extend_from_slice(b"<title>");
        out.extend_from_slice(position.to_string().as_bytes());
        out.extend_from_slice(b"</title>\n");
        out.extend_from_slice(self.board.as_bytes());
        for (hexes, fill) in [(&marks.moved, MARK_MOVE), (&marks.fault, MARK_FAULT)] {
            if hexes.is_empty() {
                continue;
            }
            out.extend_from_slice(b"<path fill=\"");
            out.extend_from_slice(fill.as_bytes());
            out.extend_from_slice(b"\" fill-opacity=\"0.6\" d=\"");
            for h in hexes {
                out.extend_from_slice(self.outline[h.index()].as_bytes());
            }
            out.extend_from_slice(b"\"/>\n");
        }
        if marks.check {
            let king = position
                .pieces()
                .find(|(_, p)| p.side == position.turn() && p.glyph.letter == b'K');
            if let Some((h, _)) = king {
                out.extend_from_slice(b"<circle ");
                out.extend_from_slice(self.centre[h.index()].as_bytes());
                out.extend_from_slice(b" r=\"17\" fill=\"");
                out.extend_from_slice(MARK_FAULT.as_bytes());
                out.extend_from_slice(b"\"/>\n");
            }
        }
        self.side_to_move(position.turn(), out);
        for side in [Side::White, Side::Black] {
            self.pieces(position, side, out);
        }
        out.extend_from_slice(b"</svg>\n");
    }

    /// A small disc of the mover's colour by the mover's edge, bottom right
    /// or top right.
    fn side_to_move(&self, turn: Side, out: &mut Vec<u8>) {
        let y = if turn == self.options.view {
            "252"
        } else {
            "-252"
        };
        let (fill, stroke) = disc_colours(turn);
        let _ = writeln!(
            Writer(out),
            "<circle class=\"turn\" cx=\"236\" cy=\"{y}\" r=\"9\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"/>"
        );
    }

    fn pieces(&self, position: &Position, side: Side, out: &mut Vec<u8>) {
        let mut pieces = position.pieces().filter(|(_, p)| p.side == side).peekable();
        if pieces.peek().is_none() {
            return;
        }
        let (fill, stroke) = disc_colours(side);
        match self.options.pieces {
            PieceStyle::Letters => {
                let _ = write!(
                    Writer(out),
                    "<g class=\"{}\"><g fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\">",
                    side_name(side)
                );
                let at: Vec<Hex> = pieces.map(|(h, _)| h).collect();
                for h in &at {
                    out.extend_from_slice(b"<circle ");
                    out.extend_from_slice(self.centre[h.index()].as_bytes());
                    // Inside the hex's inscribed circle (17.32).
                    out.extend_from_slice(b" r=\"14\"/>");
                }
                let _ = write!(
                    Writer(out),
                    "</g><g fill=\"{stroke}\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\">"
                );
                for h in at {
                    let letter = position
                        .piece(h)
                        .expect("a piece stands there")
                        .glyph
                        .letter;
                    out.extend_from_slice(b"<text ");
                    out.extend_from_slice(self.glyph_at[h.index()].as_bytes());
                    out.push(b'>');
                    out.push(match side {
                        Side::White => letter,
                        Side::Black => letter.to_ascii_lowercase(),
                    });
                    out.extend_from_slice(b"</text>");
                }
                out.extend_from_slice(b"</g></g>\n");
            }
            PieceStyle::Figurines => {
                let _ = write!(
                    Writer(out),
                    "<g class=\"{}\" fill=\"#000\" font-family=\"DejaVu Sans, 'Noto Sans Symbols 2', 'Segoe UI Symbol', sans-serif\" font-size=\"26\" text-anchor=\"middle\">",
                    side_name(side)
                );
                let mut letters = Vec::new();
                for (h, p) in pieces {
                    let glyph = figurine(p.glyph.letter, side);
                    if !in_common_fonts(glyph) {
                        letters.push((h, p.glyph.letter));
                        continue;
                    }
                    out.extend_from_slice(b"<text ");
                    out.extend_from_slice(self.glyph_at[h.index()].as_bytes());
                    out.push(b'>');
                    out.extend_from_slice(glyph.as_bytes());
                    out.extend_from_slice(b"</text>");
                }
                if !letters.is_empty() {
                    // As the figurines are drawn: White's outlined, Black's filled.
                    let (fill, _) = disc_colours(side);
                    let _ = write!(
                        Writer(out),
                        "<g class=\"letters\" fill=\"{fill}\" stroke=\"#000\" stroke-width=\"1.2\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"24\" font-weight=\"bold\">"
                    );
                    for (h, letter) in letters {
                        out.extend_from_slice(b"<text ");
                        out.extend_from_slice(self.glyph_at[h.index()].as_bytes());
                        out.push(b'>');
                        out.push(match side {
                            Side::White => letter,
                            Side::Black => letter.to_ascii_lowercase(),
                        });
                        out.extend_from_slice(b"</text>");
                    }
                    out.extend_from_slice(b"</g>");
                }
                out.extend_from_slice(b"</g>\n");
            }
        }
    }
}

/// Is `glyph` in the fonts a viewer most likely has (DejaVu Sans, Arial,
/// Segoe UI Symbol)? Not the figurines of the Chess Symbols block
/// (U+1FA00 on, Unicode 12: the wyvern's and the guard's, 🩏 🩐 🩒 🩓),
/// which Noto Sans Symbols 2 has and few fonts besides: drawn, they would
/// be a box.
fn in_common_fonts(glyph: &str) -> bool {
    glyph.chars().all(|c| c < '\u{1FA00}')
}

/// `fmt::Write` into a byte vector.
struct Writer<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Writer<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// A disc's fill and outline (the outline is the letter's colour too).
fn disc_colours(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::White => ("#fff", "#000"),
        Side::Black => ("#000", "#fff"),
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

fn colour_name(colour: HexColour) -> &'static str {
    match colour {
        HexColour::White => "white",
        HexColour::Black => "black",
        HexColour::Coloured => "coloured",
    }
}

/// Where `hex`'s centre is drawn, in the SVG's units (y downward), F14 at
/// the origin: columns one and a half sides apart from White's left, lines
/// half a hex height apart upward; turned half round for Black's view.
pub(crate) fn centre(hex: Hex, view: Side) -> (f64, f64) {
    let x = (hex.column_index() as f64 - 7.0) * 1.5 * SIDE;
    let y = (14.0 - f64::from(hex.line())) * HALF_HEIGHT;
    match view {
        Side::White => (x, y),
        Side::Black => (-x, -y),
    }
}

/// A flat-topped hex's outline around `(x, y)`.
fn hex_path((x, y): (f64, f64)) -> String {
    let h = HALF_HEIGHT;
    let s = SIDE;
    let points = [
        (x - s, y),
        (x - s / 2.0, y - h),
        (x + s / 2.0, y - h),
        (x + s, y),
        (x + s / 2.0, y + h),
        (x - s / 2.0, y + h),
    ];
    let mut d = String::new();
    for (i, (px, py)) in points.iter().enumerate() {
        let _ = write!(
            d,
            "{}{} {}",
            if i == 0 { 'M' } else { 'L' },
            num(*px),
            num(*py)
        );
    }
    d.push('Z');
    d
}

/// The coordinates on the edges: each column's letter below its lowest hex
/// as seen, each line's number at the left margin, level with its hexes.
fn coordinates(view: Side) -> String {
    let mut s = String::from(
        "<g class=\"coordinates\" fill=\"#222\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"11\" text-anchor=\"middle\">",
    );
    for &letter in COLUMNS {
        let mut ends = (0..=28u8).filter_map(|l| Hex::on_board(letter, l));
        let first = ends.next().expect("every column has hexes");
        let last = ends.next_back().unwrap_or(first);
        let (x, y) = [centre(first, view), centre(last, view)]
            .into_iter()
            .fold((0.0, f64::MIN), |a, b| if b.1 > a.1 { b } else { a });
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            num(x),
            num(y + HALF_HEIGHT + 15.0),
            letter as char
        );
    }
    for line in 0..=28u8 {
        let hex = Hex::on_line(line).next().expect("every line has hexes");
        let y = centre(hex, view).1;
        let _ = write!(s, "<text x=\"-247\" y=\"{}\">{line}</text>", num(y + 4.0));
    }
    s += "</g>\n";
    s
}

/// `v` with two decimals, `-0.00` written `0.00`: the same text everywhere.
fn num(v: f64) -> String {
    let t = format!("{v:.2}");
    if t == "-0.00" {
        "0.00".to_string()
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Hex {
        Hex::parse(s.as_bytes()).unwrap()
    }

    #[test]
    fn the_six_corner_hexes_are_equally_far_from_the_centre() {
        let d = |h: &str| {
            let (x, y) = centre(hex(h), Side::White);
            (x * x + y * y).sqrt()
        };
        for h in ["P7", "P21", "F28", "Z21", "Z7"] {
            assert!((d(h) - d("F0")).abs() < 1e-9, "{h}");
        }
    }

    #[test]
    fn neighbours_along_a_column_and_across_touch() {
        let dist = |a: &str, b: &str| {
            let ((x1, y1), (x2, y2)) = (centre(hex(a), Side::White), centre(hex(b), Side::White));
            ((x1 - x2).powi(2) + (y1 - y2).powi(2)).sqrt()
        };
        // The six orthogonal neighbours of F14 are one hex height away.
        for n in ["F12", "F16", "E13", "E15", "G13", "G15"] {
            assert!((dist("F14", n) - 2.0 * HALF_HEIGHT).abs() < 1e-9, "{n}");
        }
    }

    #[test]
    fn black_sees_the_board_turned_half_round() {
        let (x, y) = centre(hex("G1"), Side::White);
        assert_eq!(centre(hex("G1"), Side::Black), (-x, -y));
        assert!(y > 0.0, "White's king starts at the bottom of White's view");
    }

    #[test]
    fn a_diagram_is_the_same_bytes_every_time() {
        let d = Diagram::new(DiagramOptions::default());
        let p = Position::initial();
        assert_eq!(d.svg(&p, &Marks::default()), d.svg(&p, &Marks::default()));
        assert!(!d.svg(&p, &Marks::default()).contains("-0.00"));
    }
}
