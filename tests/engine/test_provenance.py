"""The trust issue, item 11: a ruling says which component values it rests on that are not
the rulebook's, and a card whose name alone is the rulebook's is labelled so."""

from __future__ import annotations

import glob
import json
import shutil

import msgspec
import pytest

from tabletape import engine
from tabletape.engine.provenance import UNKNOWN, Reliance, provenance_of, ruling_basis

KILL_LOG = "replays/cards-of-war/kill-dispute.jsonl"
RESTS = ("rests on values not from the rulebook: Anti-Tank Gun's kill (T; reconstructed), "
         "Torpedo Bomber's types (B; rulebook-name)")


def test_explain_says_the_disputed_kill_rests_on_reconstructed_card_values(run):
    # the bundled demo's KILL is decided by two cards' values the rulebook does not print
    r = run("explain", KILL_LOG, 21)
    assert r.exit_code == 0
    assert f"  {RESTS}" in r.stdout.splitlines()
    data = json.loads(run("explain", KILL_LOG, 21, "--json").stdout)
    assert data["rests_on"] == [
        {"entry": "Anti-Tank Gun", "field": "kill", "value": "T", "provenance": "reconstructed"},
        {"entry": "Torpedo Bomber", "field": "types", "value": "B",
         "provenance": "rulebook-name"}]
    assert data["disputes"][0]["rests_on"] == data["rests_on"]


def test_validate_rules_on_the_dispute_with_what_it_rests_on(run):
    r = run("validate", KILL_LOG)
    assert r.exit_code == 0
    lines = r.stdout.splitlines()  # under the table: the ruling, then what it rests on
    at = lines.index("seq 22, the ruling on seq 21:")
    assert lines[at + 1] == f"  {RESTS}"
    report = json.loads(run("validate", KILL_LOG, "--json").stdout)
    kill = next(d for d in report["disputes"] if d["about"] == 21)
    assert [(x["entry"], x["provenance"]) for x in kill["rests_on"]] == [
        ("Anti-Tank Gun", "reconstructed"), ("Torpedo Bomber", "rulebook-name")]


def test_note_dispute_prints_what_its_ruling_rests_on(run, tmp_path):
    path = tmp_path / "g.jsonl"
    shutil.copy(KILL_LOG, path)
    r = run("note", path, "was Flak allowed that?", "--about", 37, "--dispute", "--by", "bob")
    assert r.exit_code == 0
    assert "ruling on seq 37: legal" in r.stdout
    assert "  bob's score in battle 3 with Flak: Torpedo Bomber 5 + Flak 3 = 8" in r.stdout
    assert ("  rests on values not from the rulebook: Flak's kill (F/B; reconstructed), "
            "Torpedo Bomber's types (B; rulebook-name), Torpedo Bomber's value (5; "
            "rulebook-name), Flak's value (3; reconstructed)") in r.stdout.splitlines()


def test_a_ruling_on_rulebook_values_only_adds_no_line(run, tmp_path):
    # the same kill judged with a deck whose two cards' values are labelled `rulebook`
    path = tmp_path / "g.jsonl"
    lines = open(KILL_LOG, "rb").read().splitlines(keepends=True)
    header = json.loads(lines[0])
    for card in header["components"]["cards"]:
        if card["name"] in ("Anti-Tank Gun", "Torpedo Bomber"):
            card["provenance"] = "rulebook"
    from tabletape.tape import log
    rs = engine.get("cards-of-war")
    h = msgspec.json.decode(json.dumps(header), type=rs.Header)
    tail = log.create(str(path), h, rs.codec)
    events = [msgspec.json.decode(line, type=rs.union()) for line in lines[1:22]]
    log.append(str(path), events, rs.codec, expect=tail)
    r = run("explain", path, 21)
    assert "rests on" not in r.stdout
    assert json.loads(run("explain", path, 21, "--json").stdout)["rests_on"] == []


def test_a_ruling_whose_event_is_not_held_says_so():
    assert ruling_basis(None) == UNKNOWN
    assert ruling_basis([]) is None
    assert ruling_basis([Reliance("Spy\x1b[2K", "value", "2", "reconstructed")]) == (
        "rests on values not from the rulebook: Spy\\x1b[2K's value (2; reconstructed)")


def test_a_label_per_field_is_read_per_field():
    gd = engine.get("global-domination").default_components()
    logistics = gd.tracks.logistics
    assert provenance_of(logistics, "start") == "rulebook"
    assert provenance_of(logistics, "low") == "reconstructed"


# -- the labels: every game names the cards whose name alone is the rulebook's ------------

NAMED = {
    "cards-of-war": lambda c: {x.name for x in c.cards},
    "liberation": lambda c: {x.name for x in (*c.countries, *c.cards)},
    "global-domination": lambda c: {x.name for x in c.cards},
    "battlecards-pacific": lambda c: {x.name for x in c.conflict},
}


def _labelled(comp, label: str) -> set[str]:
    data = msgspec.to_builtins(comp)
    out = set()

    def walk(node):
        if isinstance(node, dict):
            if node.get("provenance") == label and "name" in node:
                out.add(node["name"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list | tuple):
            for v in node:
                walk(v)
    walk(data)
    return out


@pytest.mark.parametrize("game,expected", [
    ("cards-of-war", {"Fighters", "Dive Bomber", "Torpedo Bomber", "Long Range Bomber",
                      "Battleship", "Shore Bombardment", "Marines", "Amphib", "Paratroop",
                      "Gliders", "Radar"}),
    ("liberation", {"Iraq"}),
    ("battlecards-pacific", {"Invasion of Australia", "Invasion of Japan"}),
])
def test_each_game_labels_the_cards_the_rulebook_only_names(game, expected):
    comp = engine.get(game).default_components()
    assert _labelled(comp, "rulebook-name") == expected
    assert not _labelled(comp, "rulebook") & expected


def test_global_domination_labels_its_action_cards_by_name_only():
    comp = engine.get("global-domination").default_components()
    named = _labelled(comp, "rulebook-name")
    assert "Show of Force" in named and "Airborne Forces" in named
    assert _labelled(comp, "rulebook") >= {"Domination"}  # its points are printed
    assert {c.name for c in comp.cards} == named | {"Domination", "Fog of War"}


@pytest.mark.parametrize("game", sorted(NAMED))
def test_old_labels_still_decode(game):
    # a header written before `rulebook-name` labelled such cards `rulebook`
    rs = engine.get(game)
    data = msgspec.to_builtins(rs.default_components())
    text = json.dumps(data).replace('"provenance": "rulebook-name"', '"provenance": "rulebook"')
    assert '"provenance": "rulebook-name"' not in text
    msgspec.json.decode(text, type=rs.Components)


# -- every game's `consulted` on every bundled event: it names real entries and fields ----

@pytest.mark.parametrize("path", sorted(glob.glob("replays/*/*.jsonl")))
def test_every_bundled_event_names_the_values_its_rules_read(path):
    seen: list[Reliance] = []

    def visit(j: engine.Judged) -> None:
        if j.before is None or j.fold is None or j.seq in j.fold.core_seqs:
            return
        for name, entry, fields in j.fold.ruleset.consulted(j.before, j.event):
            assert isinstance(name, str) and fields
            for f in fields:
                assert hasattr(entry, f), (name, f)
        seen.extend(engine.rests_on(j.fold.ruleset, j.before, j.event))
    result = engine.replay(path, visit=visit)
    assert result.error is None
    assert all(r.provenance != "rulebook" for r in seen)
    assert seen  # every bundled game rests on some reconstructed value


class _Area(msgspec.Struct, frozen=True):
    name: str
    adjacent: tuple[str, ...]
    provenance: str = "reconstructed"


class _Tables(msgspec.Struct, frozen=True):
    areas: dict[str, _Area]
    adjacent: dict[str, frozenset[str]]  # tabulated from each area's `adjacent`


def test_a_lookup_in_a_table_the_game_declares_tabulated_is_a_read_of_its_field():
    # a game's `Extras.tabulated` says where a table came from: a lookup in it is then a read
    # of that entry's field; undeclared, the same lookup reads nothing
    from tabletape.engine.kit.contract import Tabulated
    from tabletape.engine.provenance import recording
    lk = _Tables(areas={"Alaska": _Area("Alaska", ("Yukon",))},
                 adjacent={"Alaska": frozenset({"Yukon"})})
    log: list = []
    _ = recording(lk, log, (Tabulated("adjacent", "areas", "adjacent"),)).adjacent["Alaska"]
    assert log == [("Alaska", lk.areas["Alaska"], "adjacent")]
    log.clear()
    _ = recording(lk, log).adjacent["Alaska"]
    assert log == []
    _ = recording(lk, log).areas["Alaska"].adjacent  # an entry read directly: recorded either way
    assert log == [("Alaska", lk.areas["Alaska"], "adjacent")]


def test_the_games_declare_their_tabulated_tables_as_extras():
    from tabletape.engine.playout import extras
    from tabletape.games.cards_of_war.components import TABULATED as COW
    from tabletape.games.global_domination.components import TABULATED as GD
    assert extras(engine.get("global-domination")).tabulated == GD
    assert extras(engine.get("cards-of-war")).tabulated == COW
    assert extras(engine.get("liberation")).tabulated == ()


def test_a_derivation_made_otherwise_reads_nothing():
    # the reads a derivation noted ride beside it, never encoded: one decoded has none
    from tabletape.engine.provenance import Derivation, Deriving
    d = Deriving()
    d.read("Alaska", _Area("Alaska", ()), "adjacent")
    done = d.done("needs 4", 4)
    assert [f for _, _, f in done.reads] == ["adjacent"]
    again = msgspec.json.decode(msgspec.json.encode(done), type=Derivation)
    assert again.reads == () and b"reads" not in msgspec.json.encode(done)
