"""The Liberation rule catalogue: rule id -> rulebook section and our own paraphrase.

Sections are the rulebook's headings (seeds/001). Entries under "tabletape decision"
settle what the rulebook leaves open or contradicts; each is a choice, made here once.
"""

from tabletape.engine import Rule
from tabletape.engine.versions import Rulebook

DECISION = "tabletape decision"

RULES: dict[str, Rule] = {
    # SET UP
    "lib.setup.players": Rule(DECISION, "The text mentions a four-player table but gives no "
                              "range; we support two to six players."),
    "lib.setup.components": Rule("Set Up", "Ten country cards form their own deck; everything "
                                 "else is the force deck. Both are shuffled, so a draw may be "
                                 "any card still in the deck."),
    "lib.setup.first": Rule(DECISION, "The first seat of the header counts as the eldest "
                            "player: it turns the first country and deals for it."),
    "lib.card.types": Rule("Card Types", "Force cards come in five types: Aircraft, Commando, "
                           "Ground, Propaganda and Ship; types matter only through abilities "
                           "and country instructions."),
    # HOW TO PLAY
    "lib.country.turn": Rule("How to Play", "The dealer turns up a country from the country "
                             "deck; it must be a country still in that deck."),
    "lib.deal.count": Rule("How to Play", "For each country every player gets as many new force "
                           "cards as its victory points, one card at a time, starting at the "
                           "dealer's left with the dealer last."),
    "lib.draw.in-deck": Rule("Set Up", "A dealt or drawn force card must be one still in the "
                             "force deck."),
    "lib.turn.order": Rule("How to Play", "Play goes clockwise from the leader; only the player "
                           "named by the pending decision may act."),
    "lib.turn.step": Rule("Further Explanations", "What a card sets in motion (a target to "
                          "choose, a card to draw, an answer to a turn-over) is settled before "
                          "anything else happens."),
    "lib.turn.lead-first": Rule("How to Play", "For the first country the player who turned it "
                                "makes the first play. Decision: the text later says the "
                                "dealer's left leads; we read that as applying from the second "
                                "country on."),
    "lib.turn.lead-next": Rule("How to Play", "From the second country on, the player on the "
                               "dealer's left leads every round of that country."),
    "lib.round.count": Rule("How to Play", "A country is fought over for as many rounds as its "
                            "victory points; in each round every player gets one turn."),
    "lib.play.in-hand": Rule("How to Play", "A played force card comes from the player's own "
                             "hand and is laid face up in front of them."),
    "lib.play.pass": Rule("How to Play", "Instead of playing, a player may pass; the turn is "
                          "used up all the same, and a player with no cards passes."),
    "lib.liberate.highest": Rule("How to Play", "After the last round the player with the most "
                                 "face-up force points wins (liberates) the country."),
    "lib.tie.extra-round": Rule("How to Play", "On a tie for the most points, only the tied "
                                "players take one more round, each able to play one more card."),
    "lib.tie.contenders": Rule(DECISION, "After the extra round only the players who were tied "
                               "can take the country; the others are out of the count."),
    "lib.tie.draw": Rule("How to Play", "Still tied: each tied player draws a force card and the "
                         "highest force points wins; players tied again draw again."),
    "lib.tie.no-effect": Rule("How to Play", "Tie-break cards only compare printed force points "
                              "(no country bonus); they stay aside and are discarded with the "
                              "table."),
    "lib.tie.failed": Rule(DECISION, "The text says both that draws repeat until someone wins "
                           "and that a liberation can fail on a tie. We repeat the draws; the "
                           "country fails only when no card is left to draw (deck and discards "
                           "empty). Nobody gets it and the same dealer turns the next country."),
    "lib.country.discard": Rule("How to Play", "When a country is decided, every force card on "
                                "the table, face up or down, goes to the discards."),
    "lib.country.next": Rule("How to Play", "The liberator keeps the country card, turns up the "
                             "next one and deals for it."),
    "lib.hand.keep": Rule("Further Explanations", "Cards left in hand carry over to the next "
                          "country in full, on top of the new deal; there is no hand limit."),
    "lib.deck.refresh": Rule("Further Explanations", "When the force deck is empty and a card is "
                             "owed, the discards are shuffled to form a new deck."),
    "lib.deck.exhausted": Rule(DECISION, "With no card in the deck or the discards, a deal or "
                               "bonus draw is skipped."),
    # HOW TO WIN
    "lib.win.points": Rule("How to Win", "Reaching 10 victory points of liberated countries (9 "
                           "at a four-player table) wins at once; checked after each "
                           "liberation. The victory_points option overrides the target."),
    "lib.win.deck-out": Rule(DECISION, "If the country deck is used up first, the game ends "
                             "after the last country; the most victory points win and equal "
                             "leaders share the win."),
    # FURTHER EXPLANATIONS: abilities
    "lib.ability.order": Rule(DECISION, "A played card's effects resolve in this order: its own "
                              "ability, the first-card draw, the country's instruction; then the "
                              "turn ends (or a second card may follow in Yemen)."),
    "lib.ability.no-target": Rule(DECISION, "An ability with nothing it could act on lapses; "
                                  "the card still counts its points."),
    "lib.ability.turn-over": Rule("Further Explanations", "A turn-over card may turn a face-up "
                                  "card another player has played face down; it never turns "
                                  "down a card of the player who plays it."),
    "lib.ability.face-down": Rule("Further Explanations", "A face-down played card adds nothing "
                                  "to its owner's total while it stays face down."),
    "lib.ability.turn-up": Rule("Further Explanations", "A turn-over card may instead turn a "
                                "face-down played card back face up, so its points count again; "
                                "the same card may go down and up any number of times in a "
                                "round. Decision: the face-down card may be anyone's, the "
                                "player's own included."),
    "lib.ability.turn-up.cards": Rule(DECISION, "The rulebook has no card that only turns "
                                      "cards up: turning up is part of what turn-over cards do. "
                                      "The two invented cards that did (AWACS, Coalition "
                                      "Support) are gone from the default deck; their turn_up "
                                      "ability stays in the card model, marked as not from the "
                                      "book, only so that logs and card data made with them "
                                      "still replay."),
    "lib.ability.turn-over.count": Rule("Further Explanations", "A turn-over card turns one or "
                                        "more cards: as many as the turns of its card data, each "
                                        "a different card. Decision: the text gives no card's "
                                        "number, so turns defaults to 1 and the default deck's "
                                        "two-turn card is reconstructed; a turn stopped by a "
                                        "prevent card is used up all the same."),
    "lib.ability.turn-over.compulsory": Rule(DECISION, "By default every turn of a turn-over "
                                             "card must be made while some card can be turned "
                                             "(with nothing to turn it lapses). The text only "
                                             "says such cards allow turning; option turn_over="
                                             "optional reads that as a choice."),
    "lib.opt.turn-over-optional": Rule("Further Explanations", "With option turn_over=optional "
                                       "the player of a turn-over card may stop before any of "
                                       "its turns, giving up the rest. Decision: a country's "
                                       "own turn-over instruction stays compulsory."),
    "lib.ability.all-turn-down": Rule("Further Explanations", "Every other player picks one of "
                                      "their own face-up played cards and turns it face down; "
                                      "the player of the card is spared."),
    "lib.ability.protected": Rule("Further Explanations", "A card marked as unturnable can never "
                                  "be turned face down by any effect."),
    "lib.ability.prevent": Rule("Further Explanations", "A player whose face-up card is being "
                                "turned face down may discard a prevent card from hand to stop "
                                "it; this costs no turn (turning a card back up is not "
                                "answered). A prevent card may also be played normally."),
    "lib.ability.prevent.asked": Rule(DECISION, "From rules 1.2 the owner of a card being "
                                      "turned face down is always asked, whether or not they "
                                      "hold a prevent card, and answers by discarding one or by "
                                      "letting the turn stand: at a table, holding none looks "
                                      "the same as choosing not to use one. Rules 1.0 and 1.1 "
                                      "asked only a holder, so the question told the table "
                                      "what the owner held."),
    "lib.ability.prevent.forced": Rule(DECISION, "A prevent card may also be discarded instead "
                                       "of turning down one's own card when another player's "
                                       "card forces everyone to."),
    "lib.ability.first-draw": Rule("Further Explanations", "A first-draw card draws one card if "
                                   "it is the first card its player puts on the table for this "
                                   "country."),
    "lib.ability.trade-card": Rule("Further Explanations", "A trade card takes a face-up card "
                                   "of another player into the trader's hand and is laid face "
                                   "up in that card's place, in that player's row; an unturnable "
                                   "card may be taken too."),
    "lib.ability.trade-card.no-target": Rule(DECISION, "A trade card with no face-up card of "
                                             "another player to take is laid in its player's "
                                             "own row like any card."),
    "lib.ability.trade-hands": Rule("Further Explanations", "A trade-hands card is laid face up "
                                    "and its player swaps whole hands, unseen, with a player of "
                                    "their choice; this ends the turn."),
    "lib.ability.draw-two": Rule("Further Explanations", "A player who liberates a country "
                                 "draws two cards for each draw-two card of theirs still face up "
                                 "in front of them. Decision: if that liberation wins the game "
                                 "the draws are not made."),
    # FURTHER EXPLANATIONS: country instructions
    "lib.country.trigger": Rule("Further Explanations", "A country's instruction applies only "
                                "while that country is being fought over, each time its trigger "
                                "happens."),
    "lib.country.turn-over-type": Rule("Further Explanations", "Iraq-style: each card of the "
                                       "named type played also turns one face-up card of another "
                                       "player face down (never one back up), whenever one can "
                                       "be."),
    "lib.country.double-play": Rule("Further Explanations", "Yemen-style: a player may play a "
                                    "second card in the same turn, but need not."),
    "lib.country.double-play.second": Rule(DECISION, "The second card comes after the first "
                                           "card's effects are settled; a trade-hands card "
                                           "allows no second card."),
    "lib.tie.double-play": Rule(DECISION, "The text gives the tied players one more card in "
                                "the extra round and lets everyone play two cards at once in "
                                "Yemen's round. By default a double-play country keeps its two "
                                "cards in its extra round too; option double_play_tie=one_card "
                                "takes the other reading."),
    "lib.opt.tie-one-card": Rule("How to Play", "With option double_play_tie=one_card each tied "
                                 "player may play only one card in a double-play country's extra "
                                 "round, as the extra round allows one more card."),
    "lib.country.bonus-type": Rule(DECISION, "Reconstructed instruction: face-up cards of the "
                                   "named type count extra points."),
    "lib.country.draw-type": Rule(DECISION, "Reconstructed instruction: each card of the named "
                                  "type played draws one card."),
    "lib.country.forbid-type": Rule(DECISION, "Reconstructed instruction: cards of the named "
                                    "type cannot be played."),
}


# The rules versions: what changed, by rule id (`corpus check` names the changes since the
# version a log was recorded under). 1.0: the first rules.
CHANGELOG: dict[str, dict[str, str]] = {
    "1.0": {},
    "1.1": {
        "lib.tie.double-play": "new: the decision that a double-play country keeps its two cards in its extra round, as 1.0 played it",
        "lib.ability.turn-over": "a turn-over may turn a face-down card back up",
        "lib.ability.turn-up": "part of turn-over cards; the invented turn-up cards left the deck",
        "lib.ability.prevent": "prevents a card being turned down, not up",
        "lib.country.turn-over-type": "Iraq's instruction turns cards face down only",
        "lib.ability.turn-up.cards": "new: whose face-down card may be turned up",
        "lib.ability.turn-over.count": "new: a turn-over card turns one or more cards",
        "lib.ability.turn-over.compulsory": "new: the default reading, turn-overs are compulsory",
        "lib.opt.turn-over-optional": "new option turn_over=optional",
        "lib.opt.tie-one-card": "new option double_play_tie=one_card",
    },
    "1.2": {
        "lib.ability.prevent": "the owner of a card being turned face down is always asked, "
                               "whatever they hold; 1.1 asked only a holder of a prevent card",
        "lib.ability.prevent.asked": "new: why the owner is asked whatever they hold",
    },
}

# The changes the rules read as switches: a flag on `Lookups` -> (version, rule id above).
# Under a version before the change the flag is off (engine.versions; docs/adding-a-game.md).
SWITCHES: dict[str, tuple[str, str]] = {
    "turn_back_up": ("1.1", "lib.ability.turn-over"),
    "turn_count": ("1.1", "lib.ability.turn-over.count"),
    "prevent_asked": ("1.2", "lib.ability.prevent"),
}

# The options a version added: `name` (set at all) or `name=value` -> (version, rule id). A
# log setting one is refused by an older version, naming the option (engine.versions).
OPTIONS_SINCE: dict[str, tuple[str, str]] = {
    "turn_over=optional": ("1.1", "lib.opt.turn-over-optional"),
    "double_play_tie=one_card": ("1.1", "lib.opt.tie-one-card"),
}

# The rules a version added: rule id -> (version, the id the versions before it cite, or
# None); and the rules a version restated: version -> {rule id: the rule as read before it}.
# A version's catalogue (`tabletape rules --rules`, explain) and citations are its own.
RULES_SINCE: dict[str, tuple[str, str | None]] = {
    "lib.ability.turn-up.cards": ("1.1", None),
    "lib.ability.turn-over.count": ("1.1", None),
    "lib.ability.turn-over.compulsory": ("1.1", None),
    "lib.opt.turn-over-optional": ("1.1", None),
    "lib.opt.tie-one-card": ("1.1", None),
    "lib.tie.double-play": ("1.1", None),
    "lib.ability.prevent.asked": ("1.2", None),
}
RULES_BEFORE: dict[str, dict[str, Rule]] = {
    "1.1": {  # as rules 1.0 stated them
        "lib.ability.turn-over": Rule("Further Explanations", "A turn-over card turns one of "
                                      "another player's face-up played cards face down; "
                                      "never the player's own."),
        "lib.ability.turn-up": Rule("Further Explanations", "Some cards turn a face-down "
                                    "played card back face up, so its points count again. "
                                    "Decision: any player's face-down card may be chosen."),
        "lib.ability.prevent": Rule("Further Explanations", "A player whose face-up card is "
                                    "being turned over may discard a prevent card from hand "
                                    "to stop it; this costs no turn. A prevent card may also "
                                    "be played normally."),
        "lib.country.turn-over-type": Rule("Further Explanations", "Iraq-style: each card of "
                                           "the named type played also turns over one "
                                           "face-up card of another player."),
    },
}

# The rules and their history, as the game's class declares them (`rulebook = RULEBOOK`).
RULEBOOK = Rulebook(rules=RULES, changelog=CHANGELOG, switches=SWITCHES,
                    options_since=OPTIONS_SINCE, rules_since=RULES_SINCE,
                    rules_before=RULES_BEFORE)
