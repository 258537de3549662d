"""The fold's parts (engine.fold_parts): each kept by what changes it, read through the fold's
properties, which no one writes through (issue 36: Fold carried about 20 attributes)."""

from __future__ import annotations

import pytest

from tabletape import engine
from tabletape.games.cards_of_war.events import CardDrawn, OpeningCardDrawn, Options
from tabletape.tape.events import Note, Undone
from tests.conftest import COW
from tests.narrow import present


def _fold() -> engine.Fold:
    return engine.Fold(COW, COW.start(("alice", "bob"), Options(), COW.default_components()))


def test_an_illegal_event_undone_moves_from_the_verdicts_in_effect_to_the_corrected():
    fold = _fold()
    # seq 1: alice draws before the opening cards are drawn: refused, and it blocks
    bad = present(fold.feed(1, CardDrawn(player="alice", card="Tank")))
    assert fold.at.blocked == 1 and fold.verdicts.illegal == {1: bad}
    assert fold.verdicts.refused[1][0] is fold.at.state  # judged in the state it left as is
    # seq 2: not judged while seq 1 stands
    assert fold.feed(2, OpeningCardDrawn(player="alice", card="Battleship")) is None
    assert 2 in fold.verdicts.unjudged
    # seqs 3, 4: both undone; the refusal is history, the ledger says who took each back
    fold.feed(3, Undone(target=2))
    fold.feed(4, Undone(target=1))
    assert fold.at.blocked == 0 and not fold.verdicts.illegal and fold.verdicts.corrected == {1: bad}
    assert dict(fold.lines.retracted) == {2: 3, 1: 4} and {3, 4} <= set(fold.lines.core_seqs)
    assert fold.at.seq == 4 and fold.last_seq == 4 and fold.illegal is fold.verdicts.illegal
    # seq 5: a dispute about seq 1 is ruled on as the judge found it
    fold.feed(5, Note(text="was that legal?", about=1, dispute=True, by="bob"))
    assert [r.verdict for r in fold.verdicts.disputes] == ["illegal"]


def test_the_fold_is_read_through_its_properties_never_written():
    fold = _fold()
    for name in ("state", "stack", "blocked", "illegal", "disputes", "retracted", "partial"):
        with pytest.raises(AttributeError):
            setattr(fold, name, None)
    with pytest.raises(AttributeError):  # slotted: no attribute is added by accident
        fold.later = []  # type: ignore[attr-defined]
