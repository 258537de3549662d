"""The Cards of War rule catalogue: rule id -> rulebook section and our own paraphrase.

Sections are the rulebook's headings (seeds/004). Entries under "tabletape decision"
settle what the rulebook leaves open; each is a choice, recorded here once.
"""

from tabletape.engine import Rule
from tabletape.engine.versions import Rulebook

from .upcast import UPCASTERS

DECISION = "tabletape decision"

RULES: dict[str, Rule] = {
    # SETUP
    "cow.setup.players": Rule("Introduction", "The game is for exactly two players."),
    "cow.setup.opening": Rule("Setup", "Before the first round each player turns up one card; "
                              "the higher score value plays first."),
    "cow.setup.opening-tie": Rule(DECISION, "If the opening cards score the same, both players "
                                  "turn up a new card, until one is higher."),
    "cow.setup.opening-return": Rule(DECISION, "Opening cards only decide who starts: they go "
                                     "back into the deck before the deal, which leaves it unchanged."),
    "cow.setup.deal": Rule("Setup", "Each player starts with a hand of eight cards."),
    "cow.setup.options": Rule("Optional Rules", "Strategic Exhaustion replaces Tactical Advantage "
                              "and is played only in the long game."),
    # PLAYING A ROUND
    "cow.turn.order": Rule("Playing a Round", "Players alternate, one deployment each; the first "
                           "player of a round opens it. Only the player named by the pending "
                           "decision may act."),
    "cow.turn.step": Rule("Playing a Round", "What a deployment sets in motion (a draw, a recon "
                          "answer, a second deployment) is settled before anything else happens."),
    "cow.turn.empty-hand": Rule(DECISION, "A player with no cards in hand and nothing left to draw "
                                "passes; the other player keeps deploying."),
    "cow.deploy.in-hand": Rule("Playing a Round", "A deployed card comes from the deployer's hand "
                               "and is placed face up on one of their three battle piles."),
    "cow.deploy.open-battle": Rule("Winning a Battle", "A battle that has been won takes no more "
                                   "cards this round."),
    "cow.draw.refill": Rule("Playing a Round", "After deploying, a player draws back up to their "
                            "hand size (eight unless an option changes it)."),
    "cow.draw.in-deck": Rule("Playing a Round", "A drawn card must be one that is still in the "
                             "draw pile; the deck is a shuffled multiset, so any card in it may come."),
    "cow.deck.common": Rule("Playing a Round", "Both players draw from one deck and discard to one "
                            "discard pile."),
    "cow.deck.reshuffle": Rule("Playing a Round", "When the draw pile is down to its last card, "
                               "that card and the discard pile become the new draw pile. Decision: "
                               "this also happens whenever the pile holds one card or none and "
                               "discards have arrived since."),
    "cow.deck.exhausted": Rule(DECISION, "With no card in the draw pile or the discards, draws are "
                               "skipped and hands stay short."),
    "cow.hand.over-size": Rule(DECISION, "A player holding more cards than their hand size keeps "
                               "them and simply draws nothing until below it (as when the "
                               "nine-card hand of Tactical Advantage ends; Strategic Exhaustion "
                               "differs, see cow.opt.exhaustion.discard)."),
    # SPECIAL ABILITIES
    "cow.kill.ability": Rule("Special Abilities 1 (KILL)", "Only a card with the KILL ability can "
                             "kill."),
    "cow.kill.top-only": Rule("Special Abilities 1 (KILL)", "A KILL removes the opponent's top "
                              "card in the very battle the killer is deployed into; nothing "
                              "underneath can be reached."),
    "cow.kill.type-match": Rule("Special Abilities 1 (KILL)", "The killer's target symbols must "
                                "include a type symbol of the victim; the victim is discarded at "
                                "once. Radar carries every type symbol, so every killer can hit it."),
    "cow.kill.multi-type": Rule(DECISION, "A victim with several type symbols is hit when any one "
                                "of them is among the killer's targets."),
    "cow.kill.target": Rule(DECISION, "A KILL names its victim in the deployment event, and "
                            "only a KILL names one. A named card that is not the opponent's top "
                            "card in the killer's battle (lower in that pile, or in another "
                            "battle) breaks the top-card rule (cow.kill.top-only); a top card of "
                            "the wrong type breaks the type rule (cow.kill.type-match)."),
    "cow.kill.optional": Rule(DECISION, "The section can be read two ways. By default a KILL is "
                              "announced in the deployment event, and a player may deploy a "
                              "killer without using it; the option automatic_kill plays the "
                              "other reading (cow.kill.automatic)."),
    "cow.kill.automatic": Rule(DECISION, "With the option automatic_kill (Special Abilities 1, "
                               "read as: a match kills): a killer deployed where the opponent's "
                               "top card carries one of its target symbols always kills it, so "
                               "the deployment must announce that KILL."),
    "cow.reinforce.draw": Rule("Special Abilities 2 (REINFORCE)", "After deploying a reinforce "
                               "card the player draws one extra card, then deploys again from "
                               "their hand; that second card's own ability works too."),
    "cow.recon.report": Rule("Special Abilities 3 (RECON)", "When a recon card is deployed, the "
                             "opponent states truthfully how many cards of each theatre they hold."),
    "cow.ability.round-end": Rule("Special Abilities 3 (RECON)", "A card keeps its abilities "
                                  "when its deployment ends the round: the section puts no "
                                  "condition on RECON, nothing in Winning a Battle or Winning a "
                                  "Round takes an ability away, and hands carry into the next "
                                  "round, so the opponent still answers the recon, at once, "
                                  "before that round's discards and refills. When the round's "
                                  "end also ends the game, its abilities end with it."),
    "cow.reinforce.round-end": Rule(DECISION, "A REINFORCE card that ends the round cannot be "
                                    "followed by a second deployment (no battle of the round is "
                                    "left), so the reinforcement lapses, its extra draw too: the "
                                    "next round's refill fills the hand to the same size. The "
                                    "option reinforce_draw_at_round_end plays the other reading: "
                                    "the extra card is drawn at once, before the next round's "
                                    "refills, and kept. A joint partner still owed lapses too."),
    # WINNING
    "cow.battle.score": Rule("Winning a Battle", "A pile scores the values of its cards still on "
                             "the table (killed cards are gone)."),
    "cow.battle.win": Rule("Winning a Battle", "The first player whose pile in a battle reaches 15 "
                           "points wins it; the loser's cards there are discarded and the "
                           "winner's are turned face down until the round ends."),
    "cow.battle.stalemate": Rule(DECISION, "If neither player can deploy (both hands empty "
                                 "with nothing to draw, or under Theatres of War no card that "
                                 "fits), each open battle goes to the higher pile; equal piles "
                                 "win nothing."),
    "cow.round.win": Rule("Winning a Round", "A round ends when all three battles are settled; "
                          "whoever won at least two of them wins the round."),
    "cow.round.drawn": Rule(DECISION, "A round goes to whoever won more battles: normally two of "
                            "three, but after a stalemate with drawn battles one can be enough. "
                            "With equal counts the round is drawn and the player who did not "
                            "open it opens the next."),
    "cow.round.next": Rule("Winning a Round", "Between rounds hands are kept, face-down cards go "
                           "to the discards without a reshuffle, and the round's winner opens "
                           "the next one."),
    "cow.round.reshuffle": Rule(DECISION, "Winning a Round forbids reshuffling the discards "
                                "when a round ends; this can be read two ways. By default it "
                                "forbids only an extra shuffle into a draw "
                                "pile that still holds cards: a pile down to one card or none "
                                "is rebuilt at once (cow.deck.reshuffle), between rounds too. "
                                "The option no_reshuffle_between_rounds plays the other reading "
                                "(cow.round.no-reshuffle)."),
    "cow.round.no-reshuffle": Rule(DECISION, "With the option no_reshuffle_between_rounds: "
                                   "between rounds nothing is shuffled in, even into a draw pile "
                                   "of one card or none; the refills that open the round draw "
                                   "what the pile holds (hands may start short), and the pile is "
                                   "rebuilt as usual once the round's first card is deployed."),
    "cow.game.short": Rule("Winning the Game", "Short game: one round decides it."),
    "cow.game.normal": Rule("Winning the Game", "Normal game: up to three rounds; two round wins "
                            "take the game. Decision: play stops as soon as a player has two; "
                            "after three rounds with drawn rounds, more wins takes it, equal is a draw."),
    "cow.game.long": Rule("Winning the Game", "Long game: rounds go on until one player has won "
                          "three more than the other."),
    # OPTIONAL RULES
    "cow.opt.alt-reinforce": Rule("Optional Rules: Alternative Reinforce", "The second deployment "
                                  "of a reinforce must be either the card just drawn or the top "
                                  "of the discard pile; taking the discard sends the drawn card "
                                  "to the discards."),
    "cow.opt.alt-reinforce.off": Rule("Optional Rules: Alternative Reinforce", "Only that second "
                                      "deployment, and only with the option, may take a card "
                                      "from the discard pile."),
    "cow.opt.alt-reinforce.joint": Rule(DECISION, "The Alternative Reinforce deployment cannot "
                                        "start a joint deployment (its card is fixed)."),
    "cow.opt.theatres": Rule("Optional Rules: Theatres of War", "Whoever deploys first into a "
                             "battle names its theatre; only cards of that theatre score there, "
                             "though any card may go there to kill."),
    "cow.opt.theatres.off-theatre": Rule("Optional Rules: Theatres of War", "A card of another "
                                         "theatre enters a battle only to use its KILL there: "
                                         "the deployment must announce a kill (and it scores "
                                         "nothing there). So an off-theatre card never opens a "
                                         "battle, where there is nothing to kill."),
    "cow.opt.theatres.no-fit": Rule(DECISION, "Under Theatres of War a player whose every "
                                    "card is off-theatre for every open battle, with no KILL "
                                    "target there, cannot deploy: they pass, as with an empty "
                                    "hand (a reinforcement with no such card is skipped)."),
    "cow.opt.theatres.choose": Rule("Optional Rules: Theatres of War", "A theatre is named exactly "
                                    "when a battle is opened under the option, never otherwise. "
                                    "Decision: as the opening card cannot be off-theatre, the "
                                    "theatre named is the opening card's own; two battles may "
                                    "share one."),
    "cow.opt.tactical": Rule("Optional Rules: Tactical Advantage", "Winning all three battles of "
                             "a round gives a nine-card hand for the next round."),
    "cow.opt.exhaustion": Rule("Optional Rules: Strategic Exhaustion", "In the long game, losing "
                               "all three battles of a round costs one card of hand size for good; "
                               "cutting the opponent down to three cards wins the game."),
    "cow.opt.exhaustion.discard": Rule(DECISION, "Strategic Exhaustion cuts the hand itself, "
                                       "not only its refill: before the next round's refills "
                                       "the loser discards cards of their choice, one event "
                                       "each, face up onto the discard pile, until they hold no "
                                       "more than the new hand size. Only this owes a discard."),
    "cow.opt.joint": Rule("Optional Rules: Joint Deployment", "A pair held together may be "
                          "deployed at once into neighbouring battles (with Theatres of War: any "
                          "two battles of the pair's theatre); the hand is refilled by two."),
    "cow.opt.joint.off": Rule("Optional Rules: Joint Deployment", "Without the option no joint "
                              "deployment may be announced."),
    "cow.opt.joint.pair": Rule("Optional Rules: Joint Deployment", "The pairs are Paratroop with "
                               "Gliders, Marines with Amphib, Fighters with one bomber, and "
                               "Battleship with Shore Bombardment (as listed in the components); "
                               "both must be in hand."),
    "cow.opt.joint.partner": Rule("Optional Rules: Joint Deployment", "After the first card of a "
                                  "pair, the next deployment is its partner, into a neighbouring "
                                  "battle (or a battle of the pair's theatre)."),
    "cow.opt.joint.abilities": Rule(DECISION, "Both cards of a pair keep their abilities: the "
                                    "partner is placed first, then the partner's abilities "
                                    "resolve, then the first card's."),
    "cow.opt.two-decks": Rule("2 Deck Version", "Each player draws from their own deck and "
                              "discards to their own pile; a card always returns to its owner's."),
}


# The rules versions: what changed, by rule id (`corpus check` names the changes since the
# version a log was recorded under). 1.0: the first rules.
CHANGELOG: dict[str, dict[str, str]] = {
    "1.0": {},
    "1.1": {
        "cow.round.reshuffle": "new: the decision that a pile of one card or none is rebuilt between rounds too, as 1.0 played it",
        "cow.opt.theatres.off-theatre": "a card of another theatre goes into a theatre's battle only to KILL there",
        "cow.opt.theatres.choose": "the theatre named on opening a battle is the opening card's own",
        "cow.opt.theatres.no-fit": "new: a player with no card that fits an open battle passes",
        "cow.battle.stalemate": "also when neither player can deploy under Theatres of War",
        "cow.kill.target": "new: a KILL names the card it kills",
        "cow.kill.top-only": "a KILL naming a card below the top is refused under this rule",
        "cow.kill.automatic": "new option automatic_kill: a matching KILL must be made",
        "cow.round.no-reshuffle": "new option no_reshuffle_between_rounds",
        "cow.opt.exhaustion.discard": "new: the loser of a round under Strategic Exhaustion discards down to the new hand size",
    },
    "1.2": {
        "cow.ability.round-end": "new: a card whose deployment ends the round keeps its abilities (a RECON is still answered); 1.1 dropped them",
        "cow.reinforce.round-end": "new: the decision that a REINFORCE ending the round lapses (as 1.1 played it); new option reinforce_draw_at_round_end draws its extra card at once",
    },
}

# The changes the rules read as switches: a flag on `Lookups` -> (version, rule id above).
# Under a version before the change the flag is off (engine.versions; docs/adding-a-game.md).
SWITCHES: dict[str, tuple[str, str]] = {
    "kill_target": ("1.1", "cow.kill.target"),
    "off_theatre": ("1.1", "cow.opt.theatres.off-theatre"),
    "no_fit": ("1.1", "cow.opt.theatres.no-fit"),
    "exhaustion_discard": ("1.1", "cow.opt.exhaustion.discard"),
    "round_end_abilities": ("1.2", "cow.ability.round-end"),
}

# The options a version added: `name` (set at all) or `name=value` -> (version, rule id). A
# log setting one is refused by an older version, naming the option (engine.versions).
OPTIONS_SINCE: dict[str, tuple[str, str]] = {
    "automatic_kill": ("1.1", "cow.kill.automatic"),
    "no_reshuffle_between_rounds": ("1.1", "cow.round.no-reshuffle"),
    "reinforce_draw_at_round_end": ("1.2", "cow.reinforce.round-end"),
}

# The rules a version added: rule id -> (version, the id the versions before it cite, or
# None); and the rules a version restated: version -> {rule id: the rule as read before it}.
# A version's catalogue (`tabletape rules --rules`, explain) and citations are its own.
RULES_SINCE: dict[str, tuple[str, str | None]] = {
    "cow.opt.theatres.no-fit": ("1.1", None),
    "cow.kill.target": ("1.1", None),
    "cow.kill.automatic": ("1.1", None),
    "cow.round.no-reshuffle": ("1.1", None),
    "cow.round.reshuffle": ("1.1", None),
    "cow.opt.exhaustion.discard": ("1.1", None),
    "cow.ability.round-end": ("1.2", None),
    "cow.reinforce.round-end": ("1.2", None),
}
RULES_BEFORE: dict[str, dict[str, Rule]] = {
    "1.1": {  # as rules 1.0 stated them
        "cow.opt.theatres.off-theatre": Rule(DECISION, "Under Theatres of War a card of "
                                             "another theatre may be deployed into a battle "
                                             "even without killing; it simply scores nothing "
                                             "there."),
        "cow.opt.theatres.choose": Rule("Optional Rules: Theatres of War", "A theatre is "
                                        "named exactly when a battle is opened under the "
                                        "option, never otherwise. Decision: any theatre may "
                                        "be named, and two battles may share one."),
        "cow.battle.stalemate": Rule(DECISION, "If both hands are empty with nothing to "
                                     "draw, each open battle goes to the higher pile; equal "
                                     "piles win nothing."),
        "cow.hand.over-size": Rule(DECISION, "A player holding more cards than their hand "
                                   "size keeps them and simply draws nothing until below it."),
        "cow.kill.optional": Rule(DECISION, "A KILL is announced in the deployment event; a "
                                  "player may deploy a killer without using it."),
    },
}

# The rules and their history, as the game's class declares them (`rulebook = RULEBOOK`).
RULEBOOK = Rulebook(rules=RULES, changelog=CHANGELOG, switches=SWITCHES,
                    upcasters=UPCASTERS, options_since=OPTIONS_SINCE, rules_since=RULES_SINCE,
                    rules_before=RULES_BEFORE)
