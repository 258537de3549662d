"""Signed heads: keygen, sign, verify --keys; what signatures catch that the chain cannot."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import msgspec
import pytest

from tabletape import engine
from tabletape.tape import log, signing
from tabletape.tape.events import Note, Signed, Undone
from tests.conftest import COW, DRAW_ALICE, lines, write

DRAW = '{"type":"card_drawn","player":"alice","card":"Tank"}'


@pytest.fixture
def keys(tmp_path, run):
    """A folder with key pairs for alice and bob."""
    folder = tmp_path / "keys"
    folder.mkdir()
    for name in ("alice", "bob"):
        assert run("keygen", name, "--dir", folder).exit_code == 0
    return folder


def sign(run, game, keys, name="alice", *more):
    r = run("sign", game, "--key", keys / f"{name}.key", *more)
    assert r.exit_code == 0, r.stderr
    return r


def verify(run, game, keys, *more):
    return run("verify", game, "--keys", keys, *more)


def rechain(path) -> None:
    """Rewrites the whole file with every prev recomputed: what a forger with an editor does."""
    out, head = [], None
    for raw in lines(path):
        event = COW.codec.decoder.decode(raw[:-1])
        body = COW.codec.encode(msgspec.structs.replace(event, prev=head))
        out.append(body + b"\n")
        head = log.digest(body)
    write(path, b"".join(out))


def forge_bobs_opening(path) -> None:
    """Changes bob's opening card (line 3) and recomputes the chain over the whole file."""
    ls = lines(path)
    assert b'"Spy"' in ls[2]
    ls[2] = ls[2].replace(b'"Spy"', b'"Radar"')
    write(path, b"".join(ls))
    rechain(path)


# -- keygen --------------------------------------------------------------------------------
def test_keygen_writes_a_private_pem_readable_by_its_owner_only_and_an_openssh_public_key(run, tmp_path):
    r = run("keygen", "alice", "--dir", tmp_path)
    assert r.exit_code == 0 and "fingerprint SHA256:" in r.stdout
    key, pub = tmp_path / "alice.key", tmp_path / "alice.pub"
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    assert key.read_text().startswith("-----BEGIN PRIVATE KEY-----")
    kind, blob, name = pub.read_text().split()
    assert kind == "ssh-ed25519" and name == "alice" and blob
    assert signing.fingerprint(signing.load_public(str(pub))) in r.stdout


@pytest.mark.parametrize("existing", ["alice.key", "alice.pub"])
def test_keygen_never_overwrites_a_key_and_writes_nothing(run, tmp_path, existing):
    (tmp_path / existing).write_text("mine")
    r = run("keygen", "alice", "--dir", tmp_path)
    assert r.exit_code == 2 and "already exists" in r.stderr and "Traceback" not in r.output
    assert sorted(os.listdir(tmp_path)) == [existing]
    assert (tmp_path / existing).read_text() == "mine"


@pytest.mark.parametrize("name", ["../alice", "", "a b", ".hidden", "x" * 65])
def test_keygen_refuses_a_name_that_cannot_name_a_file(run, tmp_path, name):
    r = run("keygen", name, "--dir", tmp_path)
    assert r.exit_code == 2 and "cannot name a key" in r.stderr
    assert os.listdir(tmp_path) == []


def test_keygen_makes_its_directory_but_refuses_a_file_in_the_way(run, tmp_path):
    assert run("keygen", "alice", "--dir", tmp_path / "new" / "keys").exit_code == 0
    assert (tmp_path / "new" / "keys" / "alice.pub").exists()
    write(tmp_path / "file", b"")
    r = run("keygen", "alice", "--dir", tmp_path / "file")
    assert r.exit_code == 2 and "is a file" in r.stderr and "Traceback" not in r.output


# -- sign and verify -----------------------------------------------------------------------
def test_sign_then_verify_round_trip(run, game, keys):
    head = log.digest(lines(game)[-1][:-1])
    r = sign(run, game, keys)
    assert f"seq 3: alice signed the log at head {head[:12]}" in r.stdout
    sign(run, game, keys, "bob")
    r = verify(run, game, keys)
    assert r.exit_code == 0, r.output
    assert "alice: signed every event" not in r.stdout  # bob's signing line came after hers
    assert "bob: signed every event" in r.stdout
    report = json.loads(verify(run, game, keys, "--json").stdout)
    assert report["ok"] and report["signatures_ok"]
    assert [(s["player"], s["seq"], s["status"]) for s in report["signatures"]] == [
        ("alice", 3, "valid"), ("bob", 4, "valid")]
    assert report["signatures"][0]["head"] == head and report["signatures"][0]["covers"] == [0, 2]


def test_the_signed_event_signs_the_domain_separated_head_before_it(run, game, keys):
    sign(run, game, keys)
    ls = lines(game)
    event = COW.codec.decoder.decode(ls[-1][:-1])
    assert isinstance(event, Signed) and event.player == "alice"
    assert event.prev == log.digest(ls[-2][:-1])
    public = signing.load_public(str(keys / "alice.pub"))
    public.verify(bytes.fromhex(event.signature),
                  b"tabletape-head-v1:" + event.prev.encode())  # raises if it is not that
    assert signing.message(event.prev) == b"tabletape-head-v1:" + event.prev.encode()


def test_sign_by_names_the_signer_and_verify_looks_for_that_name(run, game, keys):
    sign(run, game, keys, "alice", "--by", "bob")  # alice's key, claiming to be bob
    r = verify(run, game, keys)
    assert r.exit_code == 1 and "invalid" in r.stdout


def test_log_and_describe_render_a_signature_as_a_sentence(run, game, keys):
    sign(run, game, keys)
    out = [json.loads(line) for line in run("log", game, "--json").stdout.splitlines()]
    assert out[3]["type"] == "signed"
    assert out[3]["text"].startswith("alice signed the log at head ")
    assert "alice signed the log at head" in run("log", game).stdout


def test_a_tampered_event_before_a_signature_breaks_the_chain(run, game, keys):
    sign(run, game, keys)
    ls = lines(game)
    ls[2] = ls[2].replace(b'"Spy"', b'"Radar"')
    write(game, b"".join(ls))
    r = verify(run, game, keys)
    assert r.exit_code == 1 and "BROKEN" in r.stdout and ":4 (seq 3" in r.stdout


def test_a_full_rewrite_with_a_recomputed_chain_is_caught_only_by_signatures(run, game, keys,
                                                                            tmp_path):
    # the same game twice, one sealed by alice; then both are forged the same way
    unsigned = tmp_path / "unsigned.jsonl"
    unsigned.write_bytes(game.read_bytes())
    sign(run, game, keys)
    for path in (game, unsigned):
        forge_bobs_opening(path)
        assert b'"Radar"' in lines(path)[2]
        assert run("verify", path).exit_code == 0  # the chain alone cannot tell
    # with a signature: caught
    r = verify(run, game, keys)
    assert r.exit_code == 1 and "invalid" in r.stdout
    assert json.loads(verify(run, game, keys, "--json").stdout)["signatures"][0]["status"] == "invalid"
    # without one: NOT caught, even with the keys at hand
    r = verify(run, unsigned, keys)
    assert r.exit_code == 0 and "no signatures" in r.stdout


def test_a_signature_checked_with_the_wrong_key_is_invalid(run, game, keys, tmp_path):
    sign(run, game, keys)
    other = tmp_path / "other"
    other.mkdir()
    run("keygen", "alice", "--dir", other)  # another key under the same name
    r = verify(run, game, other)
    assert r.exit_code == 1 and "invalid" in r.stdout


def test_an_unknown_signer_fails_verification(run, game, keys):
    sign(run, game, keys, "bob")
    os.remove(keys / "bob.pub")
    r = verify(run, game, keys)
    assert r.exit_code == 1 and "unknown key" in r.stdout
    report = json.loads(verify(run, game, keys, "--json").stdout)
    assert not report["ok"] and report["signatures"][0]["status"] == "unknown key"
    assert run("verify", game).exit_code == 0  # without --keys, verify is as it was


def test_a_signature_over_a_different_head_is_invalid(run, game, keys):
    # alice's genuine signature over the head at seq 1, replayed later at seq 3
    key = signing.load_private(str(keys / "alice.key"))
    old = signing.sign(key, log.digest(lines(game)[1][:-1]), "alice")
    tail = log.Tail(2, log.digest(lines(game)[-1][:-1]))
    log.append(str(game), [old], COW.codec, expect=tail)
    assert run("verify", game).exit_code == 0
    r = verify(run, game, keys)
    assert r.exit_code == 1 and "invalid" in r.stdout


def test_events_after_a_players_last_signature_are_reported_unsigned_by_them(run, game, keys):
    sign(run, game, keys)
    run("append", game, DRAW)
    run("append", game, DRAW.replace("Tank", "Spy"))
    r = verify(run, game, keys)
    assert r.exit_code == 0  # an unsigned tail is information, not an error
    assert "alice: seq 4-5 (2 events) not signed by alice" in r.stdout
    assert "bob: seq 0-5 (6 events) not signed by bob" in r.stdout
    players = {p["player"]: p for p in json.loads(verify(run, game, keys, "--json").stdout)["players"]}
    assert players["alice"]["signed_through"] == 2
    assert players["alice"]["unsigned"] == {"from": 4, "to": 5, "events": 2}
    assert players["bob"]["signed_through"] is None


def test_sign_appends_through_the_core_path_refusing_a_torn_log(run, game, keys):
    with open(game, "ab") as f:
        f.write(b'{"type":"no')
    before = game.read_bytes()
    r = run("sign", game, "--key", keys / "alice.key")
    assert r.exit_code == 1 and "torn" in r.stderr and game.read_bytes() == before


def test_a_log_blocked_by_an_illegal_event_can_still_be_signed(run, game, keys):
    assert run("append", game, DRAW.replace("alice", "bob"), "--force").exit_code == 0
    r = sign(run, game, keys)
    assert "seq 4: alice signed" in r.stdout
    assert verify(run, game, keys).exit_code == 0


# -- the engine: a signature is a core event ------------------------------------------------
def _fold(events):
    header = COW.codec.decoder.decode(COW.codec.encode(
        COW.start(("alice", "bob"), COW.Options(length="short"), COW.default_components())))
    fold = engine.Fold(COW, header)
    from tabletape.games.cards_of_war.events import OpeningCardDrawn
    opening = [OpeningCardDrawn(player="alice", card="Battleship"),
               OpeningCardDrawn(player="bob", card="Spy")]
    errors = [fold.feed(seq, ev) for seq, ev in enumerate([*opening, *events], 1)]
    return fold, errors


SEAL = Signed(player="alice", signature="0" * 128, prev="0" * 64)


def test_a_signature_changes_no_state_and_is_never_judged():
    fold, errors = _fold([DRAW_ALICE])
    sealed, errors = _fold([DRAW_ALICE, SEAL])
    assert sealed.state == fold.state and errors[-1] is None
    assert 4 in sealed.core_seqs


def test_a_signature_cannot_be_undone():
    _, errors = _fold([DRAW_ALICE, SEAL, Undone(target=4)])
    assert errors[-1] is not None and errors[-1].rule == "core.sign.final"
    assert "core.sign.final" in engine.CORE_RULES


def test_undo_after_a_signature_retracts_the_game_event_before_it(run, game, keys):
    run("append", game, DRAW)
    sign(run, game, keys)
    r = run("undo", game)
    assert r.exit_code == 0 and "undoes seq 3" in r.stdout


def test_a_dispute_about_a_signature_is_not_a_game_event():
    fold, _ = _fold([SEAL, Note(text="?", about=3, dispute=True)])
    assert fold.disputes[0].verdict == "not a game event"


# -- key file errors: exit 2, a message naming the file, no traceback ------------------------
def _encrypted_key(path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    key = Ed25519PrivateKey.generate()
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.BestAvailableEncryption(b"pw")))


def _ec_key(path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    key = ec.generate_private_key(ec.SECP256R1())
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))


@pytest.mark.parametrize("make, words", [
    (None, "no such key file"),
    (lambda p: p.write_text("not a key\n"), "is not a private key"),
    (lambda p: p.write_bytes(b"\xff\xfe-----BEGIN"), "is not a private key"),
    (lambda p: p.write_text(""), "is not a private key"),
    (_encrypted_key, "is encrypted"),
    (_ec_key, "Ed25519 only"),
])
def test_a_bad_private_key_file_is_a_usage_error(run, game, tmp_path, make, words):
    path = tmp_path / "alice.key"
    if make:
        make(path)
    before = game.read_bytes()
    r = run("sign", game, "--key", path)
    assert r.exit_code == 2 and words in r.stderr and str(path) in r.stderr
    assert "Traceback" not in r.output and game.read_bytes() == before


def test_a_public_key_given_as_the_private_key_is_refused(run, game, keys):
    r = run("sign", game, "--key", keys / "alice.pub")
    assert r.exit_code == 2 and "is not a private key" in r.stderr


def test_an_openssh_private_key_is_accepted(run, game, tmp_path, keys):
    from cryptography.hazmat.primitives import serialization
    key = signing.load_private(str(keys / "alice.key"))
    ssh = tmp_path / "id_ed25519"
    ssh.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                      serialization.PrivateFormat.OpenSSH,
                                      serialization.NoEncryption()))
    r = run("sign", game, "--key", ssh, "--by", "alice")
    assert r.exit_code == 0, r.stderr
    assert verify(run, game, keys).exit_code == 0


@pytest.mark.parametrize("content, words", [
    ("ssh-ed25519 AAAA-garbage alice\n", "is not a public key"),
    ("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQ== alice\n", "public key"),
    ("-----BEGIN PUBLIC KEY-----\nxx\n-----END PUBLIC KEY-----\n", "is not a public key"),
])
def test_a_malformed_public_key_in_the_keys_folder_is_a_usage_error(run, game, keys, content,
                                                                    words):
    (keys / "carol.pub").write_text(content)
    r = verify(run, game, keys)
    assert r.exit_code == 2 and words in r.stderr and "carol.pub" in r.stderr
    assert "Traceback" not in r.output


def test_a_missing_keys_folder_is_a_usage_error(run, game, tmp_path):
    r = run("verify", game, "--keys", tmp_path / "nope")
    assert r.exit_code == 2 and "no such keys directory" in r.stderr
    write(tmp_path / "file", b"")
    r = run("verify", game, "--keys", tmp_path / "file")
    assert r.exit_code == 2 and "directory" in r.stderr


def test_append_does_not_import_cryptography(game):
    # cryptography loads only where a key is used: append's start-up stays light
    code = ("import sys; from click.testing import CliRunner; from tabletape.cli.group import main; "
            f"r = CliRunner().invoke(main, ['append', {str(game)!r}, {DRAW!r}]); "
            "assert r.exit_code == 0, r.output; print('cryptography' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_sign_is_refused_when_the_log_moves_on_while_it_signs(run, game, keys, monkeypatch):
    # another writer appends between sign's read of the head and its append
    real = signing.sign

    def sign_while_another_writes(key, head, player, at=None):
        tail = log.Tail(2, log.digest(lines(game)[-1][:-1]))
        log.append(str(game), [Note(text="meanwhile")], COW.codec, expect=tail)
        return real(key, head, player, at)

    monkeypatch.setattr(signing, "sign", sign_while_another_writes)
    r = run("sign", game, "--key", keys / "alice.key")
    assert r.exit_code == 1 and "moved on" in r.stderr
    assert len(lines(game)) == 4 and b'"signed"' not in game.read_bytes()
