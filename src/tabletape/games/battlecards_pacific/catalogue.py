"""The BATTLECARDS Pacific rule catalogue: rule id -> rulebook section and our own paraphrase.

Sections are the rulebook's headings (seeds/002). Entries under "tabletape decision"
settle what the rulebook leaves open; each is a choice, recorded here once.
"""

from tabletape.engine import Rule
from tabletape.engine.versions import Pin, Rulebook

from .decks import reshuffled_1_1

DECISION = "tabletape decision"

RULES: dict[str, Rule] = {
    # TO SET UP THE GAME
    "bcp.setup.players": Rule("To Set Up the Game", "Two players take opposing sides, US and "
                              "Japan; each side has its own Arsenal deck and both share the "
                              "Conflict deck."),
    "bcp.setup.sides": Rule(DECISION, "The first player named takes the side given by the "
                            "option first_side (Japan unless changed); the other player takes "
                            "the remaining side. The option only seats the players: it does "
                            "not change who has the first turn (bcp.turn.order)."),
    "bcp.setup.battles-unique": Rule("To Set Up the Game", "When sets are combined, each "
                                     "BATTLECARD may be in the Conflict deck only once; "
                                     "duplicates are taken out before play."),
    "bcp.setup.battles-refused": Rule(DECISION, "A card file whose Conflict deck holds a "
                                      "BATTLECARD more than once is refused, naming the card, "
                                      "rather than trimmed when the game is set up: the log's "
                                      "header then lists exactly the deck that was played."),
    "bcp.setup.deal": Rule("To Set Up the Game", "After shuffling, each player draws six Arsenal "
                           "cards into a Reserve Hand."),
    "bcp.setup.deploy": Rule("To Set Up the Game", "From those six, each player puts exactly "
                             "three face down on their stacks before play starts, keeping the "
                             "rest in reserve."),
    "bcp.deploy.stack": Rule("To Set Up the Game", "The three stacks hold Ground, Air and Sea "
                             "units; a unit may only be placed on the stack of its own unit "
                             "type, though a stack may stay empty."),
    "bcp.deploy.in-hand": Rule("To Set Up the Game", "Deployed units come out of the deploying "
                               "player's own Reserve Hand."),
    "bcp.draw.in-deck": Rule("Playing the Game", "A drawn or turned card must be one still in its "
                             "deck; decks are shuffled multisets, so any card left may come."),
    # PLAYING THE GAME
    "bcp.turn.order": Rule("Playing the Game", "The Japanese player has the first turn and the "
                           "sides then take turns in alternation; only the player named by the "
                           "pending decision may act. Who starts does not depend on the order "
                           "of the sides in the card file, nor on the option first_side."),
    "bcp.turn.first-side": Rule(DECISION, "The card file names the side that starts "
                                "(rules.first_turn, Japan unless a file says otherwise, and it "
                                "must be one of its sides); the other sides follow in the "
                                "file's order."),
    "bcp.turn.step": Rule("Playing the Game", "Whatever the current card has set in motion "
                          "(draws, deployments, a battle) is completed before anything else."),
    "bcp.conflict.discard": Rule("Playing the Game", "Each turn the drawing player takes one "
                                 "Conflict card and carries it out; a card that is neither kept "
                                 "nor a BATTLECARD then goes to the Conflict discard pile."),
    "bcp.conflict.keep": Rule("Playing the Game", "A card telling its drawer to keep it stays "
                              "face down beside that player's stacks as a Kept Card."),
    "bcp.conflict.draw": Rule("Playing the Game", "Some Conflict cards add Arsenal cards to the "
                              "drawing player's Reserve Hand, one draw at a time."),
    "bcp.conflict.reveal": Rule("The Game Concept", "Some Conflict cards let the drawing "
                                "player learn about the opponent."),
    "bcp.conflict.reveal-recorded": Rule(DECISION, "Such a card (data: reveal) has the "
                                         "opponent show the drawer their Reserve Hand, Kept "
                                         "Cards or deployed stacks, and this is recorded as "
                                         "an event: "
                                         "who showed, to whom, what, and exactly the cards "
                                         "seen, checked against the table. The rulebook "
                                         "prints no card texts, so the bundled (reconstructed) "
                                         "deck holds no such card; a card file may give one."),
    "bcp.conflict.deploy": Rule(DECISION, "The deck's deployment cards let the drawing player "
                                "move up to the number printed from the Reserve Hand onto the "
                                "stacks, stopping early if they wish."),
    "bcp.deck.reshuffle": Rule("Firing a Unit", "Once every card of a deck (Conflict, or a side's "
                               "Arsenal) has been dealt with, its discard pile is turned over "
                               "and shuffled to become that deck again: the Conflict deck's "
                               "last card is shuffled in with the rest once it has been "
                               "carried out and discarded (a card kept, or a BATTLECARD still "
                               "being fought or won, stays out). A shot that needs a card "
                               "while that BATTLECARD is fought has the pile shuffled without "
                               "it."),
    "bcp.deck.exhausted": Rule(DECISION, "With a deck and its discards both empty, Arsenal draws "
                               "are skipped, a shot with no card to turn misses, and a turn that "
                               "cannot draw a Conflict card ends the game on VP."),
    # IF A BATTLECARD IS DRAWN
    "bcp.battle.prerequisites": Rule("If a BATTLECARD Is Drawn", "A BATTLECARD whose "
                                     "prerequisites (BATTLECARDS its aggressor must already "
                                     "hold) are not met is discarded and the drawer's turn ends."),
    "bcp.battle.decide": Rule("If a BATTLECARD Is Drawn", "The aggressor printed on the card "
                              "chooses whether to fight; if not, the card is discarded and "
                              "the turn ends."),
    "bcp.battle.aggressor-decides": Rule(DECISION, "When the card's aggressor is not the "
                                         "drawing player, it is still the aggressor's player "
                                         "who chooses whether to fight."),
    # FIGHTING A BATTLE
    "bcp.battle.forces": Rule("Fighting a Battle", "Each side brings every deployed unit of "
                              "the types the card calls; a side bringing none loses at once, "
                              "and if both bring none the card is discarded and the turn ends."),
    "bcp.battle.rounds": Rule("Game Phases", "A combat round is four firing phases, the "
                              "aggressor shooting before the defender in each, then a "
                              "withdrawal phase; rounds repeat until the battle ends."),
    "bcp.fire.phase": Rule("Game Phases", "A unit fires only in a phase printed on its card."),
    "bcp.fire.each-phase": Rule(DECISION, "A unit fires once in every phase it lists; it must "
                                "fire when it has a target it may attack, and is passed over "
                                "when it has none."),
    "bcp.fire.target": Rule("Firing a Unit", "The target is an enemy unit in the battle; the "
                            "shooter's attack against the target's type must exist and must "
                            "not be under the target's defence against the shooter."),
    "bcp.fire.equal": Rule(DECISION, "An attack equal to the target's defence may be used; "
                           "without a bonus it cannot destroy anything."),
    "bcp.fire.hit": Rule("Firing a Unit", "A Conflict card is turned for each shot; the target "
                         "falls if the Action Number is above its defence and no more than the "
                         "attack with bonuses. The event records the number and the result."),
    "bcp.fire.casualties": Rule(DECISION, "A destroyed unit leaves the battle at once, face up "
                                "on its side's Arsenal discard pile; later shots pick a live "
                                "target."),
    "bcp.fire.support": Rule(DECISION, "By default (option support=every-shot) a supporting "
                             "unit adds its bonus to every shot by the other units of the "
                             "types it supports on its side of the battle; no allocation is "
                             "recorded."),
    "bcp.fire.support-allocated": Rule(DECISION, "With the option support=allocated (Firing a "
                                       "Unit speaks of allocating support), the firing player "
                                       "names the supporters backing each shot; a supporter "
                                       "backs at most one shot of its side's volley in each "
                                       "firing phase, and only shots by units of a type it "
                                       "supports. They may be named in any order."),
    "bcp.fire.kept": Rule(DECISION, "A Kept Card may be played with one shot by a unit it "
                          "favours, adding its bonus; it is then discarded."),
    "bcp.withdraw.phase": Rule("Game Phases", "In the withdrawal phase the aggressor, then the "
                               "defender, may pull out some, all or none of their units in the "
                               "battle, one unit at a time."),
    "bcp.battle.end": Rule("Game Phases", "A battle is over when one side has no unit left in "
                           "it; the other side takes the BATTLECARD face up and scores its VP."),
    "bcp.battle.survivors": Rule(DECISION, "After a battle, the surviving and withdrawn units "
                                 "of both sides go back face down onto their own stacks."),
    "bcp.battle.special": Rule("Game Phases", "A BATTLECARD with a special condition (data: "
                               "special) is won by destroying the last enemy unit of that type "
                               "in the battle; the card says whether the loser's other units go "
                               "home or are discarded."),
    "bcp.stalemate": Rule("Stalemate", "When no unit of either side could destroy an enemy "
                          "whatever number is turned, the aggressor withdraws and the defender "
                          "wins the BATTLECARD."),
    "bcp.stalemate.test": Rule(DECISION, "Stalemate is tested as each combat round opens and "
                               "again after every shot and every unit withdrawn, so casualties "
                               "or a spent Kept Card end the battle at once; it counts every "
                               "supporter backing the unit and the best Kept Card its side "
                               "holds, against every Action Number the Conflict deck carries."),
    # EMERGENCY DEPLOYMENT
    "bcp.emergency.turn": Rule("Emergency Deployment", "At the start of a turn the player may "
                               "deploy the Reserve Hand instead of drawing a Conflict card, "
                               "which ends that turn."),
    "bcp.emergency.homeland": Rule("Emergency Deployment", "A player whose homeland is invaded "
                                   "(a BATTLECARD that would eliminate their side) may deploy "
                                   "the Reserve Hand before the forces are revealed."),
    "bcp.emergency.all": Rule("Emergency Deployment", "An emergency deployment puts the whole "
                              "Reserve Hand on the stacks, leaving the hand empty; the record "
                              "may list the hand's units in any order."),
    # WINNING THE WAR
    "bcp.victory.total": Rule("Winning the War", "Winning Invasion of Australia against the US, "
                              "or Invasion of Japan against Japan, eliminates that side; when "
                              "one side remains it has a Total Victory."),
    "bcp.victory.standard": Rule("Winning the War", "A player holding at least 40 VP (half the "
                                 "deck's VP) has a Standard Victory."),
    "bcp.victory.no-battles": Rule(DECISION, "When no BATTLECARD is left that could ever be "
                                   "fought, the game ends and the most VP wins; equal VP is a "
                                   "draw."),
}


# The rules versions: what changed, by rule id (`corpus check` names the changes since the
# version a log was recorded under). 1.0: the first rules.
CHANGELOG: dict[str, dict[str, str]] = {
    "1.0": {},
    "1.1": {
        "bcp.stalemate.test": "tested after every shot and withdrawal too, not only when a round opens",
        "bcp.turn.first-side": "new: the side the card data names (Japan) starts, whatever the order",
        "bcp.turn.order": "cited for a draw out of turn after an emergency deployment",
        "bcp.setup.battles-unique": "new: duplicate BATTLECARDS are refused",
        "bcp.setup.battles-refused": "new: a card file with duplicates is refused, not trimmed",
        "bcp.fire.support": "naming supporters is refused under the default reading",
        "bcp.fire.support-allocated": "new option support=allocated",
        "bcp.conflict.reveal": "new: cards that show the opponent's cards are recorded",
        "bcp.conflict.reveal-recorded": "new: what was shown, to whom, is an event",
    },
    "1.2": {
        "bcp.deck.reshuffle": "the Conflict deck is reshuffled once its last card has been "
                              "carried out and discarded, that card included (1.1 reshuffled "
                              "as it was drawn, and a last BATTLECARD sat out a whole cycle)",
        "bcp.emergency.all": "the Reserve Hand's units may be listed in any order (1.1: in "
                             "the hand's own order)",
        "bcp.conflict.reveal": "the cards shown may be listed in any order (1.1: in the "
                               "table's order)",
        "bcp.fire.support-allocated": "the supporters may be named in any order (1.1: in "
                                      "alphabetical order)",
    },
}

# The changes the rules read as switches: a flag on `Lookups` -> (version, rule id above).
# Under a version before the change the flag is off (engine.versions; docs/adding-a-game.md).
SWITCHES: dict[str, tuple[str, str]] = {
    "stalemate_every_shot": ("1.1", "bcp.stalemate.test"),
    "first_side_named": ("1.1", "bcp.turn.first-side"),
    "turn_order_cited": ("1.1", "bcp.turn.order"),
    "emergency_any_order": ("1.2", "bcp.emergency.all"),
    "reveal_any_order": ("1.2", "bcp.conflict.reveal"),
    "support_any_order": ("1.2", "bcp.fire.support-allocated"),
}

# The changes that are not yes/no, kept as the function that judged them: a function field
# of `Lookups` -> Pin(version, rule id above, the function before it).
PINS: dict[str, Pin] = {
    "reshuffled": Pin("1.2", "bcp.deck.reshuffle", reshuffled_1_1),
}

# The options a version added: `name` (set at all) or `name=value` -> (version, rule id). A
# log setting one is refused by an older version, naming the option (engine.versions).
OPTIONS_SINCE: dict[str, tuple[str, str]] = {
    "support=allocated": ("1.1", "bcp.fire.support-allocated"),
}

# The rules a version added: rule id -> (version, the id the versions before it cite, or
# None); and the rules a version restated: version -> {rule id: the rule as read before it}.
# A version's catalogue (`tabletape rules --rules`, explain) and citations are its own.
RULES_SINCE: dict[str, tuple[str, str | None]] = {
    "bcp.setup.battles-unique": ("1.1", None),
    "bcp.setup.battles-refused": ("1.1", None),
    "bcp.turn.first-side": ("1.1", None),
    "bcp.fire.support-allocated": ("1.1", None),
    "bcp.conflict.reveal": ("1.1", None),
    "bcp.conflict.reveal-recorded": ("1.1", None),
}
RULES_BEFORE: dict[str, dict[str, Rule]] = {
    "1.1": {  # as rules 1.0 stated them
        "bcp.stalemate.test": Rule(DECISION, "Stalemate is tested as each combat round opens, "
                                   "counting support and the best Kept Card a side holds, "
                                   "against every Action Number the Conflict deck carries."),
        "bcp.turn.order": Rule("Playing the Game", "The Japanese player has the first turn and "
                               "the sides then take turns in alternation; only the player "
                               "named by the pending decision may act."),
        "bcp.fire.support": Rule(DECISION, "A supporting unit adds its bonus to every shot by "
                                 "the other units of the types it supports on its side of the "
                                 "battle; no allocation is recorded."),
    },
    "1.2": {  # as rules 1.1 stated them
        "bcp.deck.reshuffle": Rule("Firing a Unit", "Once a deck (Conflict, or a side's "
                                   "Arsenal) is used up, its discard pile is shuffled to become "
                                   "that deck again."),
        "bcp.emergency.all": Rule("Emergency Deployment", "An emergency deployment puts the "
                                  "whole Reserve Hand on the stacks, leaving the hand empty."),
        "bcp.fire.support-allocated": Rule(DECISION, "With the option support=allocated (Firing a "
                                           "Unit speaks of allocating support), the firing player "
                                           "names the supporters backing each shot; a supporter "
                                           "backs at most one shot of its side's volley in each "
                                           "firing phase, and only shots by units of a type it "
                                           "supports."),
    },
}


# The rules and their history, as the game's class declares them (`rulebook = RULEBOOK`).
RULEBOOK = Rulebook(rules=RULES, changelog=CHANGELOG, switches=SWITCHES, pins=PINS,
                    options_since=OPTIONS_SINCE, rules_since=RULES_SINCE,
                    rules_before=RULES_BEFORE)
