//! Board diagrams: the SVG text (snapshots under snapshots/diagram/), and
//! what a real renderer (resvg) draws from it, pixel by pixel.

use ctlpgn_filter::{
    Diagram, DiagramOptions, FilterBuilder, Hex, Marks, Pdtl, PieceStyle, Position, Side, Verify,
    FIGURINES,
};
use resvg::{tiny_skia, usvg};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

/// The spec's continuation example ("Exception: continuation of games").
const SPEC_CONTINUATION: &str = "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPG2g/4:PE1EP/3:R3/2:2R/1:DK/0:V/ b KRrkr - 2";

fn hex(s: &str) -> Hex {
    Hex::parse(s.as_bytes()).unwrap()
}

/// `h` as the notation writes it (`G1`).
fn name(h: Hex) -> String {
    let mut text = Vec::new();
    h.write_to(&mut text);
    String::from_utf8(text).unwrap()
}

fn options(view: Side) -> DiagramOptions {
    DiagramOptions {
        view,
        ..DiagramOptions::default()
    }
}

/// The final position of the one game in `input`, and its last move's marks.
fn final_of(input: &[u8]) -> (Position, Marks) {
    let end = Arc::new(Mutex::new(None));
    let keep = Arc::clone(&end);
    let verify = Verify::new().on_game_end(move |e| {
        let marks = e.last_move.map(Marks::last_move).unwrap_or_default();
        *keep.lock().unwrap() = Some((e.position.clone(), marks));
    });
    let (_, _, report) = FilterBuilder::new()
        .verify(verify)
        .build()
        .filter_bytes(input);
    assert_eq!(report.games_rejected, 0);
    let end = end.lock().unwrap().take();
    end.expect("the game ended")
}

/// The positions the snapshots show: name, options, position, marks; the
/// marked last move last.
fn cases() -> Vec<(&'static str, DiagramOptions, Position, Marks)> {
    let spec = Position::from_pdtl(&Pdtl::parse(SPEC_CONTINUATION).unwrap());
    let real = std::fs::read("corpus/real-2023-09-08.ctl-pgn").unwrap();
    let (real, real_marks) = final_of(&real);
    let (opening, last_move) = final_of(b"1. E7-E13, E21-E15\n2. JF6-B12:\n");
    let initial = Position::initial;
    vec![
        ("initial", options(Side::White), initial(), Marks::default()),
        (
            "spec-continuation",
            options(Side::White),
            spec,
            Marks::default(),
        ),
        ("real-2023-09-08", options(Side::White), real, real_marks),
        (
            "initial-black-view",
            options(Side::Black),
            initial(),
            Marks::default(),
        ),
        ("last-move", options(Side::White), opening, last_move),
    ]
}

#[test]
fn diagram_snapshots() {
    insta::with_settings!({
        snapshot_path => "../snapshots/diagram",
        prepend_module_to_snapshot => false,
    }, {
        for (name, options, position, marks) in cases() {
            let svg = Diagram::new(options).svg(&position, &marks);
            insta::assert_snapshot!(name, svg);
        }
    });
}

/// Renders `svg` as resvg does, with the system's fonts.
fn render(svg: &str) -> tiny_skia::Pixmap {
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &opt).expect("resvg reads the SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
}

/// The colour at `(x, y)`, as `#rrggbb`.
fn colour(p: &tiny_skia::Pixmap, (x, y): (f64, f64)) -> String {
    let c = p
        .pixel(x.round() as u32, y.round() as u32)
        .expect("inside the image");
    format!("#{:02x}{:02x}{:02x}", c.red(), c.green(), c.blue())
}

/// The fills the SVG gives each hex colour, read from its text.
fn fill_of(svg: &str, class: &str) -> String {
    let at = svg.find(&format!("class=\"{class}\" fill=\"")).unwrap() + class.len() + 15;
    svg[at..at + 7].to_string()
}

#[test]
fn f14_is_drawn_in_the_coloured_colour() {
    let d = Diagram::new(DiagramOptions::default());
    let svg = d.svg(&Position::initial(), &Marks::default());
    let p = render(&svg);
    let coloured = fill_of(&svg, "coloured");
    assert_eq!(colour(&p, d.pixel_of(hex("F14"))), coloured);
    assert_ne!(coloured, fill_of(&svg, "white"));
    assert_ne!(coloured, fill_of(&svg, "black"));
    // Its neighbours up and down its column are the two other colours.
    assert_eq!(colour(&p, d.pixel_of(hex("F16"))), fill_of(&svg, "white"));
    assert_eq!(colour(&p, d.pixel_of(hex("F12"))), fill_of(&svg, "black"));
}

/// The pixel a third of a disc's radius in from its left edge: inside the
/// disc, clear of the letter.
fn disc_edge(d: &Diagram, h: Hex) -> (f64, f64) {
    let (x, y) = d.pixel_of(h);
    let unit = f64::from(d.options().size) / 524.0;
    (x - 11.0 * unit, y)
}

/// The class of `h`'s colour: its cross-line's, the line mod 3 (the
/// spec: White's vertex F0 black, White's king's hex G1 white, the midline
/// and the central hex F14 coloured).
fn colour_class(h: Hex) -> &'static str {
    match h.line() % 3 {
        0 => "black",
        1 => "white",
        _ => "coloured",
    }
}

/// `svg` without its pieces: the board, the marks and the side to move.
fn without_pieces(svg: &str) -> String {
    svg.split_inclusive('\n')
        .filter(|l| !l.starts_with("<g class=\"white\"") && !l.starts_with("<g class=\"black\""))
        .collect()
}

/// The colour drawn by the edge of `h`'s disc in `position`, once that
/// pixel is shown to lie on `h`: without the pieces it is `h`'s own fill,
/// so a disc's white is never the white background off the board.
fn disc_colour(d: &Diagram, position: &Position, h: Hex) -> String {
    let svg = d.svg(position, &Marks::default());
    let at = disc_edge(d, h);
    let board = render(&without_pieces(&svg));
    assert_eq!(
        colour(&board, at),
        fill_of(&svg, colour_class(h)),
        "{}: the pixel is not on its hex",
        name(h)
    );
    colour(&render(&svg), at)
}

#[test]
fn a_white_king_disc_stands_on_its_hex() {
    let d = Diagram::new(DiagramOptions::default());
    assert_eq!(disc_colour(&d, &Position::initial(), hex("G1")), "#ffffff");
    assert_eq!(disc_colour(&d, &Position::initial(), hex("G27")), "#000000");
    // An empty hex has no disc: its own colour shows.
    let empty = Position::from_pdtl(&Pdtl::parse("/27:1k/1:1K/ w -- - 0 1").unwrap());
    assert_eq!(disc_colour(&d, &empty, hex("G1")), "#ffffff");
    let svg = d.svg(&empty, &Marks::default());
    assert_eq!(disc_colour(&d, &empty, hex("E1")), fill_of(&svg, "white"));
    assert_ne!(
        fill_of(&svg, "white"),
        "#ffffff",
        "a white disc shows on a white hex"
    );
}

#[test]
fn the_six_corners_are_where_the_geometry_puts_them() {
    let d = Diagram::new(DiagramOptions::default());
    let svg = d.svg(
        &Position::from_pdtl(&Pdtl::parse("/27:1k/1:1K/ w -- - 0 1").unwrap()),
        &Marks::default(),
    );
    let p = render(&svg);
    let centre = d.pixel_of(hex("F14"));
    let f0 = d.pixel_of(hex("F0"));
    let radius = f0.1 - centre.1;
    // A regular hexagon, a vertex towards each player: F0 straight below
    // the centre, then every 60 degrees round (y grows downward).
    for (i, corner) in ["F0", "Z7", "Z21", "F28", "P21", "P7"].iter().enumerate() {
        let angle = std::f64::consts::FRAC_PI_2 - i as f64 * std::f64::consts::FRAC_PI_3;
        let (x, y) = d.pixel_of(hex(corner));
        assert!(
            (x - (centre.0 + radius * angle.cos())).abs() < 0.01,
            "{corner} x"
        );
        assert!(
            (y - (centre.1 + radius * angle.sin())).abs() < 0.01,
            "{corner} y"
        );
        let class = match corner.as_bytes()[1..] {
            [b'0'] | [b'2', b'1'] => "black",
            _ => "white",
        };
        assert_eq!(colour(&p, (x, y)), fill_of(&svg, class), "{corner}");
        // A hex further out along the same ray is off the board: background.
        let beyond = (
            centre.0 + (x - centre.0) * 1.085,
            centre.1 + (y - centre.1) * 1.085,
        );
        assert_eq!(colour(&p, beyond), "#ffffff", "beyond {corner}");
    }
}

#[test]
fn the_board_turns_for_blacks_view() {
    let white = Diagram::new(options(Side::White));
    let black = Diagram::new(options(Side::Black));
    let (wx, wy) = white.pixel_of(hex("G1"));
    let (bx, by) = black.pixel_of(hex("G1"));
    let height = f64::from(white.height());
    assert!(
        wy > height / 2.0 && by < height / 2.0,
        "G1 below, then above"
    );
    assert!(wx > bx, "G1 right of the middle, then left");
    // White's king is drawn where Black's view puts it, Black's below.
    let initial = Position::initial();
    assert_eq!(disc_colour(&black, &initial, hex("G1")), "#ffffff");
    assert_eq!(disc_colour(&black, &initial, hex("G27")), "#000000");
    assert!(black.pixel_of(hex("G27")).1 > height / 2.0);
}

#[test]
fn a_marked_move_tints_its_two_hexes_and_no_other() {
    let (_, options, position, marks) = cases().pop().unwrap();
    let d = Diagram::new(options);
    let plain = render(&d.svg(&position, &Marks::default()));
    let marked = render(&d.svg(&position, &marks));
    assert_eq!(marks.moved, [hex("F6"), hex("B12")]);
    // F6 is empty now: its middle shows the tint.
    assert_ne!(
        colour(&plain, d.pixel_of(hex("F6"))),
        colour(&marked, d.pixel_of(hex("F6")))
    );
    // B12 holds the bishop: the tint shows round its disc.
    let (x, y) = d.pixel_of(hex("B12"));
    let unit = f64::from(d.options().size) / 524.0;
    let rim = (x + 16.0 * unit, y);
    assert_ne!(colour(&plain, rim), colour(&marked, rim));
    assert_eq!(
        colour(&plain, d.pixel_of(hex("F14"))),
        colour(&marked, d.pixel_of(hex("F14")))
    );
}

// ───────────────────────── the SVG text ─────────────────────────

/// Where the spec's geometry puts `h`'s centre, in the SVG's units (a hex's
/// side is 20, y downward): F14 at the origin, the columns one and a half
/// sides apart from White's left, the cross-lines half a hex height apart
/// upward; turned half round for Black's view.
fn spec_centre(h: Hex, view: Side) -> (f64, f64) {
    let x = (h.column_index() as f64 - 7.0) * 30.0;
    let y = (14.0 - f64::from(h.line())) * 10.0 * 3f64.sqrt();
    match view {
        Side::White => (x, y),
        Side::Black => (-x, -y),
    }
}

/// The hex that `(x, y)`, in the SVG's units, lies in: the one whose
/// centre is nearest, and inside its inscribed circle.
fn hex_at((x, y): (f64, f64), view: Side) -> Hex {
    let (h, far) = (0..Hex::COUNT)
        .map(Hex::from_index)
        .map(|h| {
            let (cx, cy) = spec_centre(h, view);
            (h, (cx - x).hypot(cy - y))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    assert!(far < 10.0 * 3f64.sqrt(), "({x}, {y}) is on no hex");
    h
}

/// The number in the attribute `name` of `element` (its text after the tag's name).
fn attribute(element: &str, name: &str) -> f64 {
    let element = format!(" {element}");
    let at = element.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
    let value = &element[at..];
    value[..value.find('"').unwrap()].parse().unwrap()
}

/// The `d` of the path of `class`.
fn path_of<'a>(svg: &'a str, class: &str) -> &'a str {
    let path = &svg[svg.find(&format!("<path class=\"{class}\"")).unwrap()..];
    let d = &path[path.find(" d=\"").unwrap() + 4..];
    &d[..d.find('"').unwrap()]
}

/// The centre of each outline (`M...Z`) of a path's `d`: its corners' mean.
fn outline_centres(d: &str) -> Vec<(f64, f64)> {
    d.split('M')
        .filter(|o| !o.is_empty())
        .map(|o| {
            let corners: Vec<(f64, f64)> = o
                .trim_end_matches('Z')
                .split('L')
                .map(|p| {
                    let (x, y) = p.split_once(' ').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            assert_eq!(corners.len(), 6, "a hexagon: {o}");
            let n = corners.len() as f64;
            let (x, y) = corners
                .iter()
                .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
            (x / n, y / n)
        })
        .collect()
}

/// What `side`'s group of `svg` draws: the hex and text of each glyph,
/// and the hex of each disc.
fn drawn(svg: &str, side: Side, view: Side) -> (BTreeSet<(String, String)>, BTreeSet<String>) {
    let class = if side == Side::White {
        "white"
    } else {
        "black"
    };
    let group = svg
        .lines()
        .find(|l| l.starts_with(&format!("<g class=\"{class}\"")))
        .unwrap_or_default();
    let glyphs = group
        .split("<text ")
        .skip(1)
        .map(|t| {
            let at = (attribute(t, "x"), attribute(t, "y"));
            let text = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            (name(hex_at(at, view)), text.to_string())
        })
        .collect();
    let discs = group
        .split("<circle ")
        .skip(1)
        .map(|c| name(hex_at((attribute(c, "cx"), attribute(c, "cy")), view)))
        .collect();
    (glyphs, discs)
}

/// `position`'s pieces of `side`: each hex, and the glyph `glyph` gives.
fn pieces_of(
    position: &Position,
    side: Side,
    glyph: impl Fn(u8, Side) -> String,
) -> BTreeSet<(String, String)> {
    position
        .pieces()
        .filter(|(_, p)| p.side == side)
        .map(|(h, p)| (name(h), glyph(p.glyph.letter, side)))
        .collect()
}

/// A piece's letter, upper case for White, lower case for Black.
fn letter(letter: u8, side: Side) -> String {
    let c = letter as char;
    match side {
        Side::White => c.to_ascii_uppercase().to_string(),
        Side::Black => c.to_ascii_lowercase().to_string(),
    }
}

/// A piece's figurine, the side's own (the spec's table).
fn figurine(letter: u8, side: Side) -> String {
    let (white, black, _) = FIGURINES.iter().find(|f| f.2 == letter).unwrap();
    match side {
        Side::White => white.to_string(),
        Side::Black => black.to_string(),
    }
}

/// What `--figurines` draws for a piece: its figurine, but the wyvern's
/// and the guard's (U+1FA4F on, which few fonts have), drawn as letters.
fn drawn_figurine(letter: u8, side: Side) -> String {
    let f = figurine(letter, side);
    if f.chars().all(|c| c < '\u{1FA00}') {
        f
    } else {
        self::letter(letter, side)
    }
}

/// The initial position and the real game's final one, in both views.
fn positions_and_views() -> Vec<(Position, Side)> {
    let real = final_of(&std::fs::read("corpus/real-2023-09-08.ctl-pgn").unwrap()).0;
    let mut all = Vec::new();
    for view in [Side::White, Side::Black] {
        all.push((Position::initial(), view));
        all.push((real.clone(), view));
    }
    all
}

#[test]
fn the_board_has_169_hexes_each_coloured_by_its_cross_line() {
    for view in [Side::White, Side::Black] {
        let svg = Diagram::new(options(view)).svg(&Position::initial(), &Marks::default());
        let mut hexes = BTreeMap::new();
        for class in ["white", "black", "coloured"] {
            for centre in outline_centres(path_of(&svg, class)) {
                let h = hex_at(centre, view);
                assert_eq!(class, colour_class(h), "{}, {view:?}'s view", name(h));
                assert!(
                    hexes.insert(name(h), class).is_none(),
                    "{} drawn twice",
                    name(h)
                );
            }
        }
        assert_eq!(hexes.len(), 169, "{view:?}'s view");
        let count = |class| hexes.values().filter(|c| **c == class).count();
        // As counted on a hexagon of eight hexes a side, line by line.
        assert_eq!(
            (count("black"), count("white"), count("coloured")),
            (57, 57, 55)
        );
    }
}

#[test]
fn each_piece_is_drawn_on_its_hex_its_letter_in_a_disc() {
    for (position, view) in positions_and_views() {
        let svg = Diagram::new(options(view)).svg(&position, &Marks::default());
        for side in [Side::White, Side::Black] {
            let expected = pieces_of(&position, side, letter);
            assert!(expected.len() >= 5, "{side:?}: {expected:?}");
            let (glyphs, discs) = drawn(&svg, side, view);
            assert_eq!(glyphs, expected, "{side:?}'s letters, {view:?}'s view");
            let hexes: BTreeSet<String> = expected.iter().map(|(h, _)| h.clone()).collect();
            assert_eq!(discs, hexes, "{side:?}'s discs, {view:?}'s view");
        }
    }
}

#[test]
fn figurines_draw_each_piece_as_its_sides_figurine_on_its_hex_without_a_disc() {
    for (position, view) in positions_and_views() {
        let d = Diagram::new(DiagramOptions {
            pieces: PieceStyle::Figurines,
            ..options(view)
        });
        let svg = d.svg(&position, &Marks::default());
        for side in [Side::White, Side::Black] {
            let (glyphs, discs) = drawn(&svg, side, view);
            assert_eq!(
                glyphs,
                pieces_of(&position, side, drawn_figurine),
                "{side:?}"
            );
            assert!(discs.is_empty(), "{side:?}: {discs:?}");
        }
    }
}

/// The characters of `svg`'s text as resvg lays them out with the
/// fonts of this machine: each, and whether a font had a glyph for it
/// (else it is drawn as a box).
fn glyphs_found(svg: &str) -> Vec<(String, bool)> {
    fn walk(g: &usvg::Group, found: &mut Vec<(String, bool)>) {
        for node in g.children() {
            match node {
                usvg::Node::Group(g) => walk(g, found),
                usvg::Node::Text(t) => found.extend(
                    (t.layouted().iter())
                        .flat_map(|span| &span.positioned_glyphs)
                        .map(|glyph| (glyph.text.clone(), glyph.id.0 != 0)),
                ),
                _ => {}
            }
        }
    }
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &opt).expect("resvg reads the SVG");
    let mut found = Vec::new();
    walk(tree.root(), &mut found);
    found
}

#[test]
fn figurines_are_never_drawn_as_a_box_with_the_fonts_here() {
    // Every piece of both sides: the initial position.
    for pieces in [PieceStyle::Figurines, PieceStyle::Letters] {
        let d = Diagram::new(DiagramOptions {
            pieces,
            ..DiagramOptions::default()
        });
        let svg = d.svg(&Position::initial(), &Marks::default());
        let found = glyphs_found(&svg);
        // Each piece drawn is laid out with a font's glyph: a character no
        // font has is laid out with none (a box), or left out.
        for side in [Side::White, Side::Black] {
            let glyphs: BTreeSet<String> = drawn(&svg, side, Side::White)
                .0
                .into_iter()
                .map(|(_, glyph)| glyph)
                .collect();
            assert!(glyphs.len() >= 8, "{pieces:?}, {side:?}: {glyphs:?}");
            for glyph in glyphs {
                assert!(
                    found.iter().any(|(c, has)| *c == glyph && *has),
                    "{pieces:?}: no font here has {glyph}"
                );
            }
        }
    }
}

/// The rings of `svg` round a king in check: the hex of each.
fn check_rings(svg: &str, view: Side) -> Vec<Hex> {
    svg.split("<circle ")
        .skip(1)
        .filter(|c| c.contains("r=\"17\""))
        .map(|c| hex_at((attribute(c, "cx"), attribute(c, "cy")), view))
        .collect()
}

/// The real game of 2020-07-20 to its 16th move, Black's check:
/// `16. NE3-C7, DB10-D10+`.
fn checked() -> (Position, Marks) {
    let game = std::fs::read_to_string("corpus/real-2020-07-20.ctl-pgn").unwrap();
    let end = game.find("DB10-D10+").unwrap() + "DB10-D10+".len();
    final_of(format!("{}:\n*\n", &game[..end]).as_bytes())
}

#[test]
fn a_check_rings_the_king_of_the_side_to_move_in_red() {
    let (position, marks) = checked();
    assert!(marks.check, "the last move gives check");
    assert_eq!(position.turn(), Side::White);
    let king = position
        .pieces()
        .find(|(_, p)| p.side == Side::White && p.glyph.letter == b'K')
        .unwrap()
        .0;
    for view in [Side::White, Side::Black] {
        let d = Diagram::new(options(view));
        let svg = d.svg(&position, &marks);
        assert_eq!(check_rings(&svg, view), [king], "{view:?}'s view");
        let plain = d.svg(&position, &Marks::default());
        assert_eq!(check_rings(&plain, view), []);
        // Between the king's disc (radius 14) and the ring's edge (17).
        let (x, y) = d.pixel_of(king);
        let rim = (x - 15.5 * f64::from(d.options().size) / 524.0, y);
        assert_eq!(colour(&render(&svg), rim), "#e0301e");
        assert_eq!(
            colour(&render(&plain), rim),
            fill_of(&svg, colour_class(king))
        );
    }
}

// ───────────────────────── the command line ─────────────────────────

mod support;

/// Runs the binary with `args` then `--diagrams DIR` on `input`: its
/// status, stderr, and the files written in DIR, sorted by name.
fn diagrams(args: &[&str], input: &str) -> (Option<i32>, String, Vec<(String, String)>) {
    let dir = tempfile::tempdir().unwrap();
    let out = support::cmd()
        .args(args)
        .arg("--diagrams")
        .arg(dir.path())
        .write_stdin(input)
        .output()
        .unwrap();
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let text = std::fs::read_to_string(e.path()).unwrap();
            (e.file_name().into_string().unwrap(), text)
        })
        .collect();
    files.sort();
    let err = String::from_utf8(out.stderr).unwrap();
    (out.status.code(), err, files)
}

const TWO_GAMES: &str = "[Variant \"C'escacs\"]\n[Id \"Cescacs-X01-en\"]\n1. E7-E13, E21-E15:\n*\n\
    [Variant \"C'escacs\"]\n1. F8-F12:\n*\n";

#[test]
fn diagrams_are_named_after_the_id_or_the_number_in_the_input() {
    let (code, err, files) = diagrams(&["--check"], TWO_GAMES);
    assert_eq!(code, Some(0), "{err}");
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["Cescacs-X01-en.svg", "stdin-2.svg"]);
    // Each shows its game's final position, as --final-pdtl gives it.
    assert!(files[0].1.contains("<title>/28:v/27:dk/"));
    assert!(files[0].1.contains("/15:3p4/"), "{}", &files[0].1[..400]);
    assert!(files[1].1.contains("/12:3P3/"));
}

#[test]
fn a_name_given_twice_gets_a_number_after_it() {
    let (_, _, files) = diagrams(&["--verify"], &TWO_GAMES.repeat(2));
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "Cescacs-X01-en-2.svg",
            "Cescacs-X01-en.svg",
            "stdin-2.svg",
            "stdin-4.svg"
        ]
    );
}

#[test]
fn games_without_an_id_are_named_after_their_input_so_that_inputs_never_collide() {
    let dir = tempfile::tempdir().unwrap();
    let game = "[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
    for name in ["2023-09-11.ctl-pgn", "2023-09-17.pgn.gz"] {
        let path = dir.path().join(name);
        if name.ends_with(".gz") {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut gz, game.as_bytes()).unwrap();
            std::fs::write(&path, gz.finish().unwrap()).unwrap();
        } else {
            std::fs::write(&path, game).unwrap();
        }
    }
    let boards = dir.path().join("boards");
    let out = support::cmd()
        .current_dir(dir.path())
        .args([
            "--check",
            "--diagrams",
            "boards",
            "2023-09-11.ctl-pgn",
            "2023-09-17.pgn.gz",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(&boards)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["2023-09-11-1.svg", "2023-09-17-1.svg"]);
}

#[test]
fn an_incoherent_games_diagram_is_the_position_before_the_move_marked_red() {
    let game = "1. E7-E13, E21-E15\n2. G7-E13:\n";
    let (code, _, files) = diagrams(&["--check"], game);
    assert_eq!(code, Some(1));
    assert_eq!(files.len(), 1);
    let svg = &files[0].1;
    // After 1. E7-E13, E21-E15: White to move, the pawn still on G7.
    assert!(
        svg.contains(" w RKRrkr E15@17-19 0 2</title>"),
        "{}",
        &svg[..400]
    );
    let d = Diagram::new(DiagramOptions::default());
    let marked = Marks {
        fault: vec![hex("G7"), hex("E13")],
        ..Marks::default()
    };
    let before = final_of(b"1. E7-E13, E21-E15:\n").0;
    assert_eq!(*svg, d.svg(&before, &marked));
}

#[test]
fn split_variations_get_a_diagram_each() {
    let game = "[Variant \"C'escacs\"]\n[Id \"Cescacs-X01-en\"]\n\
        1. E7-E13, E21-E15 (1. ..., F20-F16) 2. F8-F12:\n*\n";
    let (code, err, files) = diagrams(&["--verify", "--split-variations"], game);
    assert_eq!(code, Some(0), "{err}");
    let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["Cescacs-X01-V-S:1-en.svg", "Cescacs-X01-en.svg"]);
}

#[test]
fn diagrams_inside_a_folder_read_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("g.ctl-pgn"), "1. E7-E13:\n").unwrap();
    let out = support::cmd()
        .args(["--check", "--diagrams"])
        .arg(dir.path().join("boards"))
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("a folder being read"), "{err}");
    assert!(!dir.path().join("boards").exists());
}

#[test]
fn diagram_writes_one_board_to_standard_output() {
    let pdtl = "/27:1k/1:1K/ w -- - 0 1";
    let (ok, out, err) = support::run(
        &[
            "--diagram",
            pdtl,
            "--view",
            "black",
            "--diagram-size",
            "240",
        ],
        "",
    );
    assert!(ok, "{err}");
    let d = Diagram::new(DiagramOptions {
        size: 240,
        ..options(Side::Black)
    });
    let position = Position::from_pdtl(&Pdtl::parse(pdtl).unwrap());
    assert_eq!(out, d.svg(&position, &Marks::default()));
}

#[test]
fn figurines_on_the_command_line_draw_figurines() {
    let pdtl = "/27:1k/1:1K/ w -- - 0 1";
    let (ok, out, err) = support::run(&["--diagram", pdtl, "--figurines"], "");
    assert!(ok, "{err}");
    let d = Diagram::new(DiagramOptions {
        pieces: PieceStyle::Figurines,
        ..DiagramOptions::default()
    });
    let position = Position::from_pdtl(&Pdtl::parse(pdtl).unwrap());
    assert_eq!(out, d.svg(&position, &Marks::default()));
    assert_eq!(
        drawn(&out, Side::White, Side::White).0,
        BTreeSet::from([("G1".to_string(), "♔".to_string())])
    );
}

#[test]
fn a_game_that_ends_in_check_has_its_king_ringed_in_its_diagram() {
    let game = std::fs::read_to_string("corpus/real-2020-07-20.ctl-pgn").unwrap();
    let end = game.find("DB10-D10+").unwrap() + "DB10-D10+".len();
    let (code, err, files) = diagrams(&["--check"], &format!("{}:\n*\n", &game[..end]));
    assert_eq!(code, Some(0), "{err}");
    let (position, marks) = checked();
    let d = Diagram::new(DiagramOptions::default());
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].1, d.svg(&position, &marks));
    assert_eq!(check_rings(&files[0].1, Side::White).len(), 1);
}
