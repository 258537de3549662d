"""What a new reader trips on (issue 25, its last bullet): each reproduction, as a story."""

from __future__ import annotations

from tabletape.app.record import RecordSession
from tests.conftest import lines

# -- the recorder's speakers -------------------------------------------------------------


def test_a_speaker_close_to_a_player_is_refused_with_the_player_it_may_mean(game):
    # Given a session on alice and bob's game
    before = lines(game)
    s = RecordSession(str(game))
    # When the scribe mistypes bob as @bobb in a note, or in a dispute
    for entry in ("note @bobb tea break", "undo @bobb", "dispute 2 @bobb bob's card was seen"):
        reply = s.handle(entry)
        # Then nothing is written, and the recorder asks whether bob was meant
        assert reply.refused and not reply.recorded, entry
        assert "did you mean @bob?" in reply.message, reply.message
    assert lines(game) == before
    # A player, and a speaker who is no one's typo (an umpire), are taken as they are
    assert s.handle("note @bob tea break").recorded[0][1].by == "bob"
    assert s.handle("note @umpire play on").recorded[0][1].by == "umpire"
    # and a speaker of this log is known from then on
    assert s.handle("note @umpir typo of a speaker").message.endswith("nothing was written")
