"""Commands for signed heads: keygen, sign, and the report `verify --keys` prints.

app.making signs (`tabletape.tape.signing`, and with it `cryptography`, imported only
then, never at start-up).
"""

from __future__ import annotations

from typing import Any

import click

from tabletape.app import making
from tabletape.cli.group import echo, emit_json, report_appended


@click.command()
@click.argument("name")
@click.option("--dir", "directory", default=".", show_default=True, type=click.Path(file_okay=False),
              help="Where to write NAME.key (private, mode 0600) and NAME.pub (public); made if missing.")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
def keygen(name: str, directory: str, as_json: bool) -> None:
    """Make an Ed25519 key pair for signing logs; never overwrites an existing key.

    NAME.key is the private key (PKCS#8 PEM, readable by you only): keep it secret.
    NAME.pub is the public key (one OpenSSH line): give it to the other players,
    who put it in the folder they pass to `verify --keys`.

    \b
    Example:
      tabletape keygen alice --dir keys
    """
    keys = making.keygen(name, directory)
    if as_json:
        return emit_json(keys)
    echo(f"wrote {keys.private} (private: keep it secret) and {keys.public} (public: share it)")
    echo(f"fingerprint {keys.fingerprint}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--key", "key_path", required=True, type=click.Path(dir_okay=False),
              help="Your private key (NAME.key from `tabletape keygen`, or an OpenSSH Ed25519 key).")
@click.option("--by", "player", help="The signer's name, as others' NAME.pub "
              "(default: the key file's name, alice.key → alice).")
@click.option("--json", "as_json", is_flag=True, help="Print what was appended as JSON.")
def sign(file: str, key_path: str, player: str | None, as_json: bool) -> None:
    """Seal the log as it stands: append a `signed` event over the current head.

    The signature (Ed25519) covers every line so far; `verify --keys DIR` checks it.

    \b
    Example:
      tabletape sign game.jsonl --key keys/alice.key
    """
    done = making.sign(file, key_path, player)
    report_appended(done.result, [done.event], done.seq, as_json)


# -- verify --keys -------------------------------------------------------------------------

def print_report(report: Any, header: Any) -> None:
    """Prints who signed what, and what each player has not signed."""
    from rich.table import Table
    from rich.text import Text

    from tabletape.cli.render import console, safe
    if not report.seals:
        console.print("no signatures: a rewrite of the whole file with a recomputed chain "
                      "would not be caught")
    else:
        table = Table(title="signatures", title_justify="left")
        for col in ("player", "seq", "head signed", "covers", "status"):
            table.add_column(col)
        for s in report.seals:
            style = "green" if s.status == "valid" else "red"
            table.add_row(safe(s.player), str(s.seq), s.head[:16] + "…", f"seq 0-{s.seq - 1}",
                          Text(s.status, style=style))
        console.print(table)
    from tabletape.app.reading import signers
    for row in signers(report, header):
        p, gap = row.player, row.unsigned
        if gap is None:
            console.print(Text(safe(f"{p}: signed every event")))
        else:
            seqs = (f"seq {gap.first}" if gap.events == 1
                    else f"seq {gap.first}-{gap.to} ({gap.events} events)")
            console.print(Text(safe(f"{p}: {seqs} not signed by {p}")))
