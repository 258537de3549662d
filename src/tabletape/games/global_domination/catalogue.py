"""The Global Domination rule catalogue: rule id -> rulebook section and our own paraphrase.

Sections are the rulebook's headings (seeds/003). Entries under "tabletape decision"
settle what the rulebook leaves open; each is a choice, recorded here once.
"""

from tabletape.engine import Rule
from tabletape.engine.versions import Rulebook

DECISION = "tabletape decision"

RULES: dict[str, Rule] = {
    # START OF THE GAME
    "gd.setup.players": Rule("Start of the Game: Domination Cards", "Six players at most, since "
                             "the 24 Domination cards give four each; the book names no minimum, "
                             "and a table is three or more unless gd.setup.two-players allows two."),
    "gd.setup.two-players": Rule(DECISION, "The rulebook never says how few may play, and no rule "
                                 "needs a third player (a chosen player, the Bio Weapons chain and "
                                 "Megastorm all work with one opponent). By default a table has at "
                                 "least three; option two_players=true allows a game of two."),
    "gd.setup.first": Rule("Start of the Game", "The First Player is picked at random before play "
                           "and recorded as an event; it does not change during the game."),
    "gd.setup.stacks": Rule("Start of the Game: Action Cards", "Ten of the 24 Action card types "
                            "are drawn at random, one event per type, each type different; only "
                            "those ten stacks exist in this game."),
    "gd.setup.tracks": Rule("Start of the Game", "Every Logistical marker begins on 4, every "
                            "Victory Point marker on 1, and the Turn marker on Start."),
    "gd.setup.deck": Rule("Start of the Game: Domination Cards", "Each player's own deck starts as "
                          "four Domination cards; the rest of that card type is unused."),
    "gd.components": Rule(DECISION, "A box must be coherent: unique names, mutual adjacency, "
                          "known Regions and Resources, one starting card type, enough Action types."),
    "gd.map.area": Rule("Game Terms", "Builds, Reductions and removals name an Area of the map."),
    # START OF EACH GAME TURN
    "gd.turn.advance": Rule("Start of Each Game Turn", "Each Game Turn opens by moving the Turn "
                            "marker one square; reaching End finishes the game at once, with no "
                            "draw and no further scoring."),
    "gd.draw.logistics": Rule("Start of Each Game Turn", "Each player, from the First Player "
                              "round the table, draws a number of cards equal to their "
                              "Logistical value."),
    "gd.draw.in-deck": Rule("Player Decks", "A drawn card comes from the player's own Draw Deck; "
                            "it is a shuffled multiset, so any card still in it may come."),
    "gd.draw.reshuffle": Rule("Player Decks", "A player who must draw from an empty Draw Deck "
                              "first shuffles their discard pile into a new one."),
    "gd.draw.exhausted": Rule("Player Decks", "With both the Draw Deck and the discard pile empty, "
                              "the draw simply does not happen."),
    "gd.hand.carry": Rule(DECISION, "The rulebook never empties hands, so unplayed cards stay in "
                          "hand into the next Game Turn. Option hands=discard puts them on the "
                          "discard pile after scoring instead."),
    # EACH GAME TURN
    "gd.play.order": Rule("Each Game Turn", "Turns go round the table to the left from the First "
                          "Player; only the player whose decision is pending may act."),
    "gd.play.step": Rule("Each Game Turn", "Whatever a card set in motion (Builds, Reductions, "
                         "choices, draws) is finished before anything else is recorded."),
    "gd.play.in-hand": Rule("Each Game Turn", "Only cards held in the player's hand may be "
                            "played or discarded."),
    "gd.play.pass": Rule("Each Game Turn", "A player may use any number of cards in a turn; one "
                         "who ends a turn without using any is out for the rest of the Game Turn."),
    "gd.play.end": Rule("Each Game Turn", "Once every player has passed, the Game Turn is over "
                        "and scoring follows."),
    "gd.use.build": Rule("Each Game Turn: Build", "A card used to Build gives as many Builds as "
                         "its Build points."),
    "gd.use.attack": Rule(DECISION, "The Attack use spends the card's Reduction points: each "
                          "point is one Reduction against an opposing Force (the book calls the "
                          "same number Attack value and Reduction points)."),
    "gd.use.text-none": Rule("Card Details", "Only a card with a text of its own can be played for "
                             "it; Domination has none, and the three area-restriction cards "
                             "(see gd.card.restriction-text) have none apart from their points."),
    "gd.use.zero": Rule(DECISION, "A card cannot be used for a value of zero: that would let a "
                        "player avoid passing without doing anything."),
    "gd.use.discard1": Rule("Each Game Turn: Discard 1", "Putting one card from hand on the "
                            "discard pile takes one card from a stack onto that discard pile."),
    "gd.use.discard2": Rule("Each Game Turn: Discard 2", "Putting two cards from hand on the "
                            "discard pile takes one card from a stack into the hand, where it can "
                            "be played this turn. Decision: the two cards may be listed in either "
                            "order; the order means nothing at the table, so it is no rule."),
    "gd.use.discard-turn": Rule(DECISION, "The Discard uses happen on the player's own turn and "
                                "count as using a card."),
    "gd.stack.in-use": Rule("Start of the Game: Action Cards", "Cards can only be taken from the "
                            "ten stacks in use."),
    "gd.stack.empty": Rule(DECISION, "A stack holds a fixed number of cards (see the components); "
                           "an empty stack cannot be taken from."),
    "gd.cost.logistics": Rule("The Cards: Show of Force, Tactical Nukes", "Acquiring a card with a "
                              "Logistical cost moves the taker's marker that many squares left; "
                              "at the track's left end it cannot be taken."),
    "gd.card.discard": Rule("Player Decks", "A card used in any way goes to its player's own "
                            "discard pile, unless its text sends it elsewhere."),
    # GAME TERMS
    "gd.build.empty": Rule("Game Terms: Build", "A new Force is placed Struggling, and only in an "
                           "Area holding no Force at all: one Force per Area."),
    "gd.build.supply": Rule("Game Terms: Reduction, Remove", "Each player's Forces are tokens "
                            "of their own colour set (Start of the Game), so placing a new Force "
                            "takes a token from the player's supply and is impossible with none "
                            "left; a Force taken off the map in any way gives its token back to "
                            "its owner's supply."),
    "gd.build.tokens": Rule(DECISION, "The book gives no token count: tracks.force_tokens in the "
                            "components says how many Force tokens each player has besides the "
                            "two track markers (20 in the default box, reconstructed). A Force is "
                            "one token whether Full or Struggling, so upgrades and Struggles take "
                            "or give none; Insurgents need a token unless the Force taken is the "
                            "player's own."),
    "gd.build.upgrade": Rule("Game Terms: Build", "A Build can instead turn one of the player's own "
                             "Struggling Forces Full; a Full Force cannot be built further."),
    "gd.reduce.effect": Rule("Game Terms: Reduction", "A Reduction turns a Full Force Struggling, "
                             "or takes a Struggling Force off the map."),
    "gd.reduce.opposing": Rule("Each Game Turn: Attack", "Reductions fall on other players' "
                               "Forces, never the player's own (except where a card says so)."),
    "gd.step.forgo": Rule(DECISION, "Points from Build, Attack and 'up to' texts may be left "
                          "unused; Reductions a card says are performed (Bio Weapons, "
                          "Megastorm) and Global Disruption's removals may not."),
    "gd.step.lapse": Rule(DECISION, "An owed step with nothing left that it could do lapses by "
                          "itself, so no empty event has to be recorded."),
    # END OF EACH GAME TURN
    "gd.score.forces": Rule("End of Each Game Turn", "At each Game Turn's end every player scores "
                            "2 VP per Full and 1 per Struggling Land Force, 4 per Full and 2 per "
                            "Struggling Sea Force."),
    "gd.score.region": Rule(DECISION, "A Land Region monopoly (6 VP) means the player's Forces "
                            "stand in all three Land Areas of that Region; it is distinct from "
                            "a Resource monopoly, which spans three Areas of one Resource."),
    "gd.score.resource": Rule(DECISION, "Each Resource monopoly held at a scoring moves the "
                              "Logistical marker one square right, at every scoring. Option "
                              "resource_gain=once rewards each Resource only the first time."),
    "gd.score.logistics-cap": Rule(DECISION, "The Logistical marker never moves past the track's "
                                   "right end (10 in the default box)."),
    "gd.score.window": Rule(DECISION, "Before scoring, each player in seat order from the First "
                            "Player is asked in turn: they may play scoring-step cards (Fog of "
                            "War) for their text, then pass; any player may play Airborne "
                            "Forces then too. A player holding no such card is asked too and "
                            "passes, as one who keeps a card does, so the step never tells the "
                            "table who holds one (rules 1.2; until 1.1 such players were "
                            "skipped). Until everyone has been asked nothing else is recorded."),
    # END OF THE GAME
    "gd.end.winner": Rule("End of the Game", "When the game ends the player with the most VP "
                          "wins."),
    "gd.end.tie": Rule(DECISION, "Players tied for the most VP share the win. Option ties=logistics "
                       "breaks the tie by Logistical value first."),
    # THE CARDS
    "gd.card.resource-vp": Rule("The Cards: the six Control cards", "Each Control card gives 1 VP "
                                "per Area of its Resource the player controls when it is played."),
    "gd.card.airborne": Rule("The Cards: Airborne Forces", "Its text gives up to six points, each "
                             "a Build or a Reduction in a Land Area, mixed freely."),
    "gd.card.airborne.timing": Rule(DECISION, "'At any time' is read as: at any turn-level "
                                    "decision (anyone's turn, between card uses) and in the "
                                    "scoring step, by any player, even one who passed; never in "
                                    "the middle of another card's effect or a draw. Played out of "
                                    "turn it does not count as the current player's use."),
    "gd.card.amphibious": Rule("The Cards: Amphibious Assault", "Its Builds and Reductions go only "
                               "into Land Areas next to a Sea Area the player controls."),
    "gd.card.helicopters": Rule("The Cards: Attack Helicopters", "Its Builds and Reductions go "
                                "only into Land Areas next to a Land Area held by the player."),
    "gd.card.carrier": Rule("The Cards: Carrier Task Forces", "Its Builds and Reductions go only "
                            "into Sea Areas."),
    "gd.card.restriction-text": Rule(DECISION, "The texts of Amphibious Assault, Attack "
                                     "Helicopters and Carrier Task Forces only say where the "
                                     "card's own Build or Attack points land; they are not a "
                                     "separate text use."),
    "gd.card.target": Rule(DECISION, "'Select one player' (Bad Leadership, Out of Supply) means "
                           "another player, chosen in its own event after the card is played."),
    "gd.card.bad-leadership": Rule("The Cards: Bad Leadership", "Every Full Force of the chosen "
                                   "player becomes Struggling."),
    "gd.card.bio-weapons": Rule("The Cards: Bio Weapons", "The player performs 2 Reductions; the "
                                "next player to the left may do 2 more or decline, and so on "
                                "round the table until someone declines."),
    "gd.card.bio-weapons.chain": Rule(DECISION, "Joining needs an opposing Force to Reduce, so "
                                      "the chain always ends; it may come round to the player who "
                                      "played the card. The card stays in that player's discard "
                                      "pile."),
    "gd.card.fog": Rule("The Cards: Fog of War", "In the scoring step it stops every other player "
                        "from scoring Region monopolies this time, and goes back to its stack "
                        "instead of the discard pile."),
    "gd.card.fog.timing": Rule("The Cards: Fog of War", "Its text can only be played in the End "
                               "of Game Turn scoring step (its Build and Attack values work "
                               "normally on a turn)."),
    "gd.card.global-disruption": Rule("The Cards: Global Disruption", "The player removes one "
                                      "Land Force, of any owner, in every Region that has one. "
                                      "Decision: Regions hold only Land Areas, so seas are never hit."),
    "gd.card.insurgents": Rule("The Cards: Insurgents", "Up to five times, a Struggling Land Force "
                               "(any owner) is removed and replaced by a Full Force of the player."),
    "gd.card.megastorm": Rule("The Cards: Megastorm", "Each player, the card's player included, "
                              "suffers Reductions equal to half the Forces they had when it was "
                              "played; the card's player picks which of that player's Forces."),
    "gd.card.megastorm.rounding": Rule(DECISION, "Half is rounded down; option "
                                       "megastorm_rounding=up rounds it up."),
    "gd.card.military-base": Rule("The Cards: Military Base", "Its text gives up to 14 Builds, in "
                                  "Land and Sea Areas alike."),
    "gd.card.nuclear-winter": Rule("The Cards: Nuclear Winter", "Every Struggling Force on the "
                                   "map is removed, whoever owns it."),
    "gd.card.out-of-supply": Rule("The Cards: Out of Supply", "The chosen player loses every "
                                  "Force with no other Force of theirs in a bordering Area."),
    "gd.card.propaganda": Rule("The Cards: Propaganda War", "1 VP for each Region where the player "
                               "has a Full Land Force."),
    "gd.card.show-of-force": Rule("The Cards: Show of Force", "Its text gives 2 Reductions for each "
                                  "Full Force the player has when it is played."),
    "gd.card.supply-depots": Rule("The Cards: Supply Depots", "Every Struggling Force of the "
                                  "player becomes Full. Decision: all of them, since upgrading "
                                  "never hurts."),
    "gd.card.surrender": Rule("The Cards: Surrender", "In each Region where the player has a Full "
                              "Force, they may remove one Force in that Region (whose: see "
                              "gd.card.surrender.own)."),
    "gd.card.surrender.own": Rule(DECISION, "The card does not say whose Force goes. By default "
                                  "only opposing Forces may be removed, as a surrender is made "
                                  "to the player; option surrender_own=true lets the player "
                                  "remove one of their own instead."),
    "gd.card.tactical-nukes": Rule("The Cards: Tactical Nukes", "Every Full Force on the map, the "
                                   "player's own included, becomes Struggling."),
    "gd.card.strategic-bombers": Rule(DECISION, "The Discard 1 example names a Strategic Bombers "
                                      "card that is not among the 24 types; it is treated as a "
                                      "stray and no such card exists in the default box."),
}


# The rules versions: what changed, by rule id (`corpus check` names the changes since the
# version a log was recorded under). 1.0: the first rules.
CHANGELOG: dict[str, dict[str, str]] = {
    "1.0": {},
    "1.1": {
        "gd.build.supply": "new: a Force needs a token from its player's supply",
        "gd.build.tokens": "new: 20 tokens a player unless the box says otherwise",
        "gd.use.discard2": "the two cards may be named in either order",
        "gd.card.surrender.own": "new: cited when Surrender would remove one's own Force",
        "gd.setup.two-players": "new option two_players",
    },
    "1.2": {
        "gd.score.window": "every player is asked in the scoring step, in seat order, and "
                           "passes (or plays a card playable then) whatever they hold; 1.1 "
                           "skipped the players holding no such card, which told the table "
                           "who held one",
    },
}

# The changes the rules read as switches: a flag on `Lookups` -> (version, rule id above).
# Under a version before the change the flag is off (engine.versions; docs/adding-a-game.md).
SWITCHES: dict[str, tuple[str, str]] = {
    "token_supply": ("1.1", "gd.build.supply"),
    "discard_any_order": ("1.1", "gd.use.discard2"),
    "surrender_own_cited": ("1.1", "gd.card.surrender.own"),
    "ask_every_scorer": ("1.2", "gd.score.window"),
}

# The options a version added: `name` (set at all) or `name=value` -> (version, rule id). A
# log setting one is refused by an older version, naming the option (engine.versions).
OPTIONS_SINCE: dict[str, tuple[str, str]] = {
    "two_players": ("1.1", "gd.setup.two-players"),
}

# The rules a version added: rule id -> (version, the id the versions before it cite, or
# None); and the rules a version restated: version -> {rule id: the rule as read before it}.
# A version's catalogue (`tabletape rules --rules`, explain) and citations are its own.
RULES_SINCE: dict[str, tuple[str, str | None]] = {
    "gd.build.supply": ("1.1", None),
    "gd.build.tokens": ("1.1", None),
    "gd.card.surrender.own": ("1.1", "gd.card.surrender"),
    "gd.setup.two-players": ("1.1", None),
}
RULES_BEFORE: dict[str, dict[str, Rule]] = {
    "1.2": {  # as rules 1.1 stated them
        "gd.score.window": Rule(DECISION, "Before scoring, each player in seat order from the "
                                "First Player may play scoring-step cards (Fog of War) for "
                                "their text, then passes; any player may play Airborne Forces "
                                "then too. Players holding no such card are skipped."),
    },
    "1.1": {  # as rules 1.0 stated them
        "gd.use.discard2": Rule("Each Game Turn: Discard 2", "Putting two cards from hand on "
                                "the discard pile takes one card from a stack into the hand, "
                                "where it can be played this turn. Decision: the two cards "
                                "are written in alphabetical order so that each discard has "
                                "one spelling."),
        "gd.setup.players": Rule("Start of the Game", "Three to six players; the 24 starting "
                                 "cards are enough for four each."),
        "gd.card.surrender": Rule("The Cards: Surrender", "In each Region where the player "
                                  "has a Full Force, they may remove one opposing Force "
                                  "(option surrender_own lets them take their own)."),
    },
}

# The rules and their history, as the game's class declares them (`rulebook = RULEBOOK`).
RULEBOOK = Rulebook(rules=RULES, changelog=CHANGELOG, switches=SWITCHES,
                    options_since=OPTIONS_SINCE, rules_since=RULES_SINCE,
                    rules_before=RULES_BEFORE)
