//! The reading API: a visitor of your own sees each game's items, in
//! order, as the canonical output writes them.
//!
//! The tests read what a visitor sees through one helper, [`log`] (and
//! its [`Log`]): a change of the `Visitor` API changes that helper only.

mod support;

use ctlpgn_filter::read::{GameEnd, MoveRead, Skip, Source, TagRead, Visitor};
use ctlpgn_filter::{read_games, Context, Filter, FilterBuilder, Format, Pdtl};

/// Everything a visitor is handed, one line an item: `begin`, `tag N=V`,
/// `setup PDTL`, `move DEPTH NUMBER MOVE` (in standard letters), `comment
/// TEXT`, `variation (` (`variation ( $[N]` labelled), `variation )`, `end
/// RESULT line N` (` rejected`), then the game's diagnostics,
/// `diagnostic SEVERITY LINE:COLUMN MESSAGE`.
#[derive(Default)]
struct Log {
    comments: bool,
    variations: bool,
    comment: String,
    items: Vec<String>,
}

impl Visitor for Log {
    type Output = ();

    fn begin_game(&mut self, _cx: &mut Context) {
        self.items.push("begin".into());
    }
    fn tag(&mut self, t: &TagRead<'_>, _cx: &mut Context) {
        self.items
            .push(format!("tag {}={}", t.tag.name, t.tag.value));
    }
    fn setup(&mut self, pdtl: &mut Pdtl, _src: Source<'_>, _cx: &mut Context) {
        self.items.push(format!("setup {pdtl}"));
    }
    fn half_move(&mut self, m: &MoveRead<'_>, cx: &mut Context) {
        let mut text = Vec::new();
        m.standard(cx).write_move(&mut text);
        let text = String::from_utf8(text).unwrap();
        self.items
            .push(format!("move {} {} {text}", m.depth, m.number()));
    }
    fn begin_comment(&mut self, _: u32, _: bool, _: Source<'_>, _: &mut Context) -> Skip {
        self.comment.clear();
        Skip(!self.comments)
    }
    fn comment(&mut self, text: &[u8], _cx: &mut Context) {
        self.comment.push_str(&String::from_utf8_lossy(text));
    }
    fn end_comment(&mut self, _cx: &mut Context) {
        self.items.push(format!("comment {}", self.comment.trim()));
    }
    fn begin_variation(
        &mut self,
        _depth: u32,
        label: Option<u32>,
        _: Source<'_>,
        _: &mut Context,
    ) -> Skip {
        if self.variations {
            self.items.push(match label {
                None => "variation (".to_string(),
                Some(n) => format!("variation ( $[{n}]"),
            });
        }
        Skip(!self.variations)
    }
    fn end_variation(&mut self, _depth: u32, _cx: &mut Context) {
        self.items.push("variation )".into());
    }
    fn end_game(&mut self, end: &mut GameEnd<'_>, cx: &mut Context) {
        let rejected = if cx.has_error() { " rejected" } else { "" };
        let line = end.start_line_column().0;
        self.items
            .push(format!("end {} line {line}{rejected}", end.result.as_str()));
        for d in cx.diagnostics() {
            let severity = format!("{:?}", d.severity).to_lowercase();
            self.items.push(format!(
                "diagnostic {severity} {}:{} {}",
                d.line, d.column, d.message
            ));
        }
    }
}

/// What a visitor sees of `input`, one line an item (see [`Log`]), kept
/// comments and variations when asked for, and how many games it read.
fn seen(input: &[u8], comments: bool, variations: bool) -> (Vec<String>, usize) {
    let log = Log {
        comments,
        variations,
        ..Log::default()
    };
    let (log, games) = read_games(input, log).unwrap();
    (log.items, games.len())
}

fn log(input: &str) -> Vec<String> {
    seen(input.as_bytes(), false, false).0
}

/// The half-moves of `items` at `depth`, as written, without their numbers.
fn moves_at(items: &[String], depth: u32) -> Vec<&str> {
    let prefix = format!("move {depth} ");
    items
        .iter()
        .filter_map(|i| i.strip_prefix(&prefix))
        .map(|i| i.split_once(' ').unwrap().1)
        .collect()
}

/// Each game's main line, as a visitor sees it: its half-moves at depth 0.
fn main_lines(items: &[String]) -> Vec<Vec<&str>> {
    let mut games: Vec<Vec<&str>> = Vec::new();
    for item in items {
        if item == "begin" {
            games.push(Vec::new());
        } else if let Some(mv) = item.strip_prefix("move 0 ") {
            games
                .last_mut()
                .unwrap()
                .push(mv.split_once(' ').unwrap().1);
        }
    }
    games
}

/// Each game's main line in canonical output: the half-moves of its move
/// lines (`N. WHITE, BLACK`, `...` for a missing one, `:` after the last).
fn written_main_lines(output: &str) -> Vec<Vec<&str>> {
    let mut games: Vec<Vec<&str>> = Vec::new();
    for line in output.lines() {
        if line.starts_with("[Variant ") {
            games.push(Vec::new());
        }
        let Some((number, moves)) = line.split_once(". ") else {
            continue;
        };
        if number.bytes().all(|b| b.is_ascii_digit()) {
            let game = games.last_mut().unwrap();
            game.extend(
                moves
                    .split(", ")
                    .filter(|m| *m != "...")
                    .map(|m| m.trim_end_matches(':')),
            );
        }
    }
    games
}

const GAME: &str = "[Variant \"C'escacs\"]\n";

#[test]
fn items_come_in_input_order_and_moves_in_standard_letters_as_the_output_writes_them() {
    let input = format!(
        "{GAME}[Redefine \"A@J\"]\n[Event \"E\"]\n1. AF2-D8 ?!, E21‐E15\n2. E13×F16:\n3-0\n"
    );
    assert_eq!(
        log(&input),
        [
            "begin",
            "tag Variant=C'escacs",
            "tag Redefine=A@J",
            "tag Event=E",
            "move 0 1 JF2-D8",
            "move 0 1 E21-E15",
            "move 0 2 E13*F16",
            "end 3-0 line 1",
        ]
    );
}

#[test]
fn comments_and_variations_are_skipped_unless_wanted() {
    let input = format!("{GAME}1. E7-E13 {{ a note }} (1. F8-F12) 1. ..., E21-E15:\n*\n");
    let plain = log(&input);
    assert!(plain
        .iter()
        .all(|i| !i.starts_with("comment") && !i.starts_with("variation")));
    assert!(plain.iter().all(|i| !i.contains("F8-F12")), "{plain:?}");
    let all = seen(input.as_bytes(), true, true).0;
    let middle: Vec<_> = all.iter().map(String::as_str).skip(3).take(4).collect();
    assert_eq!(
        middle,
        [
            "comment a note",
            "variation (",
            "move 1 1 F8-F12",
            "variation )"
        ]
    );
}

#[test]
fn the_pdtl_comes_as_the_setup() {
    let input = format!("{GAME}[PDTL \"/27:1K/1:Dk/ w - - 0 1\"]\n1. DE1-E3:\n*\n");
    let items = log(&input);
    assert!(items[2].starts_with("setup /27:1K/"), "{items:?}");
    assert!(
        items.iter().all(|i| !i.starts_with("tag PDTL")),
        "{items:?}"
    );
}

#[test]
fn a_game_with_an_error_ends_rejected_and_its_diagnostics_follow() {
    let input = format!("{GAME}1. E7-E13 2. Q9-Q10:\n*\n{GAME}1. E7-E13:\n*\n");
    let items = log(&input);
    let end = items.iter().position(|i| i.starts_with("end")).unwrap();
    assert!(items[end].ends_with("rejected"), "{items:?}");
    assert!(
        items[end + 1].starts_with("diagnostic error 2:"),
        "{items:?}"
    );
    assert_eq!(items.last().unwrap(), "end * line 4");
}

/// The seven real games, and the reviewed output of each.
const REAL_GAMES: [&str; 7] = [
    "2020-07-20",
    "2022-08-14.1",
    "2022-08-14.2",
    "2023-09-08",
    "2023-09-11",
    "2023-09-17",
    "2023-09-18",
];

#[test]
fn the_moves_read_are_those_the_filter_writes_on_the_real_games() {
    let mut half_moves = Vec::new();
    for game in REAL_GAMES {
        let input = std::fs::read(format!("corpus/real-{game}.ctl-pgn")).unwrap();
        let expected =
            std::fs::read_to_string(format!("tests/real-games-expected/real-{game}.ctl-pgn"))
                .unwrap();
        let (items, read) = seen(&input, false, false);
        let report = Filter::default().filter_bytes(&input).2;
        assert_eq!(read as u64, report.games_read, "{game}");
        assert!(items.iter().all(|i| !i.ends_with("rejected")), "{game}");
        // Each half-move whole, in order, as the reviewed output has it.
        let lines = main_lines(&items);
        assert_eq!(lines, written_main_lines(&expected), "{game}");
        assert_eq!(lines.len(), 1, "{game}: one game");
        half_moves.push(lines[0].len());
    }
    assert_eq!(half_moves, [69, 100, 69, 86, 113, 122, 133]);
}

/// Each game's result line in canonical output (comments not kept): the
/// last line of each game's text.
fn written_results(output: &str) -> Vec<&str> {
    output
        .split("[Variant \"C'escacs\"]\n")
        .skip(1)
        .map(|game| game.trim_end().rsplit('\n').next().unwrap())
        .collect()
}

#[test]
fn the_result_line_ndjson_and_the_visitor_give_one_result_on_every_corpus_file() {
    let (mut mates, mut compared) = (0, 0);
    for file in support::corpus_files() {
        let input = std::fs::read(&file).unwrap();
        let (out, _, report) = Filter::default().filter_bytes(&input);
        let out = String::from_utf8(out).unwrap();
        let written = written_results(&out);
        let (json, _, _) = FilterBuilder::new()
            .format(Format::Ndjson)
            .build()
            .filter_bytes(&input);
        let ndjson: Vec<String> = String::from_utf8(json)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["result"].to_string())
            .map(|r| r.trim_matches('"').to_string())
            .collect();
        assert_eq!(written, ndjson, "{}", file.display());
        let (items, _) = seen(&input, false, false);
        let visited: Vec<&str> = (items.iter())
            .filter_map(|i| i.strip_prefix("end "))
            .filter(|i| !i.ends_with(" rejected"))
            .map(|i| i.split(' ').next().unwrap())
            .collect();
        // Where the passes reject no game the reader reads whole, the
        // games the visitor reads whole are those written.
        if visited.len() as u64 == report.games_written {
            assert_eq!(written, visited, "{}", file.display());
            compared += 1;
        }
        // Games whose result comes from their mate, no result line read.
        mates += out.matches("#\n3-0\n").count() + out.matches("#\n0-3\n").count();
    }
    assert!(mates >= 6, "{mates} games end with a mate");
    assert!(compared >= 100, "{compared} files compared");
}

#[test]
fn a_game_without_a_result_line_is_written_with_its_mate_or_its_tag() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13#\n\
                 [Variant \"C'escacs\"]\n[Result \"1-1\"]\n1. E7-E13:\n\n\
                 [Variant \"C'escacs\"]\n1. E7-E13, E21-E15#\n[Variant \"C'escacs\"]\n1. E7-E13:\n";
    let ends: Vec<String> = log(input)
        .into_iter()
        .filter(|i| i.starts_with("end "))
        .collect();
    assert_eq!(
        ends,
        [
            "end 3-0 line 1",
            "end 1-1 line 3",
            "end 0-3 line 7",
            "end * line 9"
        ]
    );
}

#[test]
fn fan_figurines_under_redefine_fan_come_as_the_standard_letters() {
    let input = format!(
        "{GAME}[Redefine \"FAN\"]\n1. E7-E13, E21-E15\n2. ☖E5-E11, 🩓G25-L17\n\
         3. ♗F6×♞C15, ♝F24×♗C15\n4. B22-B24=♕+, ♛E27×♕B24\n5. ♔G1-H2:\n*\n"
    );
    let items = log(&input);
    assert_eq!(
        moves_at(&items, 0),
        [
            "E7-E13",
            "E21-E15",
            "EE5-E11",
            "GG25-L17",
            "JF6*NC15",
            "JF24*JC15",
            "B22-B24=D+",
            "DE27*DB24",
            "KG1-H2"
        ]
    );
    // The game has nothing wrong.
    assert_eq!(items.last().unwrap(), "end * line 1");
}

#[test]
fn variations_nested_two_and_three_deep_come_at_their_depths_between_their_edges() {
    let input = format!(
        "{GAME}1. E7-E13, E21-E15\n(1. ..., D22-D16 2. D6-D12 (2. G7-G13, I23-I19 \
         (2. ..., C23-C17 3. H6-H12 (3. I5-I9))) 2. ..., C23-C17)\n2. F8-F12:\n*\n"
    );
    let items = seen(input.as_bytes(), false, true).0;
    let moves_and_edges: Vec<&str> = items
        .iter()
        .map(String::as_str)
        .filter(|i| i.starts_with("move") || i.starts_with("variation"))
        .collect();
    assert_eq!(
        moves_and_edges,
        [
            "move 0 1 E7-E13",
            "move 0 1 E21-E15",
            "variation (",
            "move 1 1 D22-D16",
            "move 1 2 D6-D12",
            "variation (",
            "move 2 2 G7-G13",
            "move 2 2 I23-I19",
            "variation (",
            "move 3 2 C23-C17",
            "move 3 3 H6-H12",
            "variation (",
            "move 4 3 I5-I9",
            "variation )",
            "variation )",
            "variation )",
            "move 1 2 C23-C17",
            "variation )",
            "move 0 2 F8-F12",
        ]
    );
}

#[test]
fn a_variations_label_comes_with_its_opening() {
    let input = format!(
        "{GAME}1. E7-E13, E21-E15\n($[1] 1. ..., F20-F16)\n($[2] 1. ..., D22-D16)\n\
         2. F8-F12\n(2. G7-G13):\n*\n"
    );
    let items = seen(input.as_bytes(), false, true).0;
    let opened: Vec<&str> = items
        .iter()
        .map(String::as_str)
        .filter(|i| i.starts_with("variation ("))
        .collect();
    assert_eq!(
        opened,
        ["variation ( $[1]", "variation ( $[2]", "variation ("]
    );
    assert_eq!(moves_at(&items, 1), ["F20-F16", "D22-D16", "G7-G13"]);
}

#[test]
fn a_written_game_with_a_warning_ends_not_rejected_and_its_warning_follows() {
    // A last move without its end marker: written, with a warning.
    let input = format!("{GAME}1. E7-E13, E21-E15\n*\n");
    let items = log(&input);
    assert_eq!(
        items[items.len() - 2..],
        [
            "end * line 1",
            "diagnostic warning 2:12 the last move has no end marker (: or #)"
        ]
    );
    let (_, _, report) = Filter::default().filter_bytes(input.as_bytes());
    assert_eq!((report.games_written, report.games_rejected), (1, 0));
}
