// Feeds CTL-PGN, as this filter writes it, to the notation author's reader
// (his TypeScript program's Game: loadPDTL, then applyMoveSq) and prints
// one tab-separated row per game. Run by scripts/authors-reader.sh, which
// bundles the author's engine (never part of this repository) into ENGINE.
//
//   node authors-reader.mjs ENGINE.mjs games LABEL FINALS DEFAULT TYPOGRAPHIC
//   node authors-reader.mjs ENGINE.mjs case NAME EXPECTED DEFAULT TYPOGRAPHIC
//
// games: FINALS holds this filter's final PDTL of each game, one a line, in
// the order of the games of DEFAULT and TYPOGRAPHIC (its outputs, with
// --verify, of the same input). case: EXPECTED is a conformance case's
// `expected` file. A file that is missing or empty is fed nothing.
import { readFileSync, existsSync } from "node:fs";

const [engine, mode, name, reference, defaultFile, typographicFile] = process.argv.slice(2);
const { Game } = await import(engine);

/// The games of a canonical CTL-PGN text: each its PDTL (or null) and its
/// move lines, the lines that start with a move number.
function games(path) {
  if (!path || !existsSync(path)) return [];
  const text = readFileSync(path, "utf8");
  const found = [];
  for (const chunk of text.split(/^(?=\[Variant )/m)) {
    if (!chunk.startsWith("[Variant ")) continue;
    const pdtl = chunk.match(/^\[PDTL "([^"]*)"\]$/m);
    const moves = chunk.split("\n").filter((l) => /^\d+[.?] /.test(l));
    found.push({ pdtl: pdtl ? pdtl[1] : null, moves: moves.join("\n") });
  }
  return found;
}

/// What the author's reader makes of a game: accepted or the error it
/// throws, the half-moves it applied, its final PDTL.
function read(game) {
  const log = console.log;
  console.log = () => {}; // applyMoveSq logs each error it throws
  const g = new Game();
  let error = null;
  try {
    if (game.pdtl !== null) g.loadPDTL(game.pdtl);
    g.applyMoveSq(game.moves);
  } catch (e) {
    error = `${e?.name ?? "Error"}: ${e?.message ?? e}`.replace(/\s+/g, " ").slice(0, 90);
  } finally {
    console.log = log;
  }
  let halfMoves = 0;
  try {
    halfMoves = g.moves(0).filter((m) => m.move !== "\u2026").length;
  } catch {}
  let pdtl = "";
  try {
    pdtl = g.valuePDTL;
  } catch {}
  return { error, halfMoves, pdtl };
}

/// Board and turn: the fields of a PDTL both programs spell alike.
const position = (pdtl) => pdtl.split(" ").slice(0, 2).join(" ");

const shown = (r) => (r === null ? "-" : r.error === null ? "ok" : r.error);

if (mode === "games") {
  const finals = readFileSync(reference, "utf8").split("\n").filter((l) => l);
  const plain = games(defaultFile);
  const typo = games(typographicFile);
  for (let i = 0; i < plain.length; i++) {
    const d = read(plain[i]);
    const t = typo[i] ? read(typo[i]) : null;
    const accepted = [d, t].find((r) => r && r.error === null);
    const final = accepted ? (position(accepted.pdtl) === position(finals[i] ?? "") ? "same" : "differs") : "-";
    console.log([`${name}#${i + 1}`, shown(d), shown(t), final].join("\t"));
  }
} else if (mode === "case") {
  // The answer starts at its verdict line, after the rule and the lines it
  // stands on (spec, practice, note).
  const all = readFileSync(reference, "utf8").split("\n");
  const lines = all.slice(all.findIndex((l) => l === "coherent" || l === "error"));
  const verdict = lines[0];
  const halfMoves = Number(lines[1].replace("half-moves: ", ""));
  const final = (lines[2] ?? "").replace("final: ", "");
  const judge = (games) => {
    if (games.length === 0) return ["-", "nothing to feed"];
    const r = read(games[0]);
    const gave = `${r.error === null ? "coherent" : "error"} ${r.halfMoves}`;
    const same =
      gave === `${verdict} ${halfMoves}` && (verdict !== "coherent" || position(r.pdtl) === position(final));
    return [same ? "pass" : "FAIL", r.error === null ? gave : `${gave} (${r.error})`];
  };
  const [dPass, dGave] = judge(games(defaultFile));
  const [tPass, tGave] = judge(games(typographicFile));
  console.log([name, `${verdict} ${halfMoves}`, dPass, tPass, dGave, tGave].join("\t"));
} else {
  console.error("usage: see the head of this file");
  process.exit(2);
}
