"""The rulebook's gameplay example (Alice, Bob and Charlie against the "Police Detective"), replayed.

Seats: Alice 0 (her birthday is on Halloween: she goes first), Bob 1, Charlie 2 (the DM, the GM
seat). Every card the example quotes is played as quoted; the chance outcomes are the example's.
"""

from __future__ import annotations

from engines.watching_us.data import CHARACTERS, MONSTERS

ALICE, BOB, CHARLIE = 0, 1, 2
PD = [m.name for m in MONSTERS].index("Police Detective")


def setup(wu):
    state = wu.game.new_initial_state(seed=0)
    # "From their starting items, Alice picks the Arsonist and Bob picks the Teacher. They also each have two items."
    wu.play(
        state,
        "card 3 Arsonist",
        "card 4 Teacher",
        "card 2 Pastor",
        "card 5 Artist",
        "card 7 Nurse",
        "card 6 Hiker",
        "choose 0",
        "choose 0",
    )
    # "They then create the first Location, the Grimy Lake"
    wu.play(state, "location Grimy/Alleyway", "location Haunted/Lake", "vote 0", "vote 0")
    # "they reveal their Adversary, the "Police Detective""; the DM returns Boo and Charlie, Boo on top.
    wu.play(state, "monster Police Detective", "monster Boo", "monster Charlie", "vote 0", "vote 0")
    assert state.current_player() == CHARLIE
    assert state.step == "order"
    wu.play(state, "top 0")
    return state


def test_the_gameplay_example(wu) -> None:
    state = setup(wu)
    assert state.location_name(0) == "Grimy Lake"
    assert [CHARACTERS[c].character for c in state.character] == ["Arsonist", "Teacher"]
    assert [CHARACTERS[c].item for c in state.items[ALICE]] == ["Pastor's Cross", "Nurse's Kit"]
    assert [CHARACTERS[c].item for c in state.items[BOB]] == ["Artist's Camera", "Hiker's Flashlight"]
    # The DM knows the Monster he put on top; the players know only which two went back.
    assert state.observation(CHARLIE)["known_top"] == [[0, MONSTERS.index(_m("Charlie"))]]
    assert state.time == 0  # "The Time Tracker is put on Morning."
    # Turn 1. "It's Boo ... his Attack ... they both lose a Ritual Dice. But neither one of them has any"
    assert state.dice == [0, 0]
    assert "Boo attacks" in state.log
    # "her Pastor's Cross lets her look at the top card of the Monster deck": Charlie, seen by Alice.
    assert state.step == "action"
    assert state.current_player() == ALICE
    assert [card for _, card in state.observation(ALICE)["known_top"]] == [MONSTERS.index(_m("Charlie"))]
    assert state.observation(BOB)["known_top"] == []
    # "She draws two cards from the Ritual Deck, a Earth Ritual and a Water Ritual." She keeps the Earth one.
    wu.play(state, "ritual", "ritual 5", "ritual 6", "pick 0", "success")
    # "acquiring the bounty of four new Ritual Dice ... because Bob has the Hiker's Flashlight, she gets
    # *another* Ritual Dice, for a total of 5!"
    assert state.dice[ALICE] == 5
    # "She can only roll 4 Ritual Dice at the Lake": rolls of 1 to 4 dice are offered.
    wu.play(state, "target Police Detective")
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["roll 1", "roll 2", "roll 3", "roll 4"]
    # "she only rolls 2 of her dice, getting a 1 and 3 ... treated as if she rolled a 3 and a 5"
    wu.play(state, "roll 2", "die 1", "die 3")
    assert state.adversaries == [[PD, 1]]  # "she knocks a hit point off the "Police Detective""
    assert state.dice[ALICE] == 3  # "has 3 dice left to attack with later"
    # "Time advances. It's now Afternoon. It's Bob's turn." Charlie was on top: a Proxy, no chance.
    assert state.time == 1
    assert state.active == BOB
    assert state.proxies == [[MONSTERS.index(_m("Charlie")), 3]]
    # "He uses his Artist's Camera to give himself two Ritual Dice pain-free, and then his turn ends
    # without advancing the Time Tracker."
    wu.play(state, "use Artist's Camera")
    assert state.dice[BOB] == 2
    assert state.time == 1
    assert state.active == ALICE
    # "It's Road Squid ... causing Alice to Travel twice ... she switches the Adjective twice"
    wu.play(state, "monster Road Squid", "swap adjective", "location Bloodied/Apartment")
    assert state.location_name(0) == "Bloodied Lake"
    wu.play(state, "swap adjective", "location Burning/Church")
    assert state.location_name(0) == "Burning Lake"
    # "The other Locations, the ones with Grimy and Bloodied, go on the bottom of the Location deck."
    assert state.loc_bottom == [0, 1]
    # Her Pastor's Cross peeks again (a card nobody knows yet: a chance draw), then the Ritual.
    wu.play(state, "monster Whisper")
    # "She ends up drawing two Fire Rituals, both of which involve lighting a match ... the easiest one"
    wu.play(state, "ritual", "ritual 2", "ritual 4", "pick 0", "failure")
    # "her Character takes 1 damage. But that's fine, she still gets a Ritual Dice from it"
    assert state.hp[ALICE] == 2
    assert state.dice[ALICE] == 4
    # "she rolls all four of her Ritual Dice and gets a 1, a 1, a 2, and a 3." Burning: she needs a 4.
    wu.play(state, "target Police Detective", "roll 4", "die 1", "die 1", "die 2", "die 3")
    assert state.adversaries == [[PD, 1]]  # "just barely missed killing the Adversary"
    assert state.dice[ALICE] == 0  # "Now she's out of Ritual Dice"
    assert state.time == 2  # "The Time Tracker advances. It becomes Evening."
    assert not state.is_terminal()


def test_burning_lake_would_have_hit_on_a_four(wu) -> None:
    # "the penalty to her dice rolls means she needs to roll a 4 or higher now instead of a 3"
    state = setup(wu)
    wu.play(state, "ritual", "ritual 5", "ritual 6", "pick 0", "success", "no roll", "use Artist's Camera")
    wu.play(state, "monster Road Squid", "swap adjective", "location Bloodied/Apartment")
    wu.play(state, "swap adjective", "location Burning/Church", "monster Whisper")
    wu.play(state, "ritual", "ritual 2", "ritual 4", "pick 0", "success", "target Police Detective", "roll 1", "die 4")
    # The hit kills him; "the extra damage is a waste".
    assert state.adversaries == []
    assert "Police Detective dies" in state.log


def _m(name: str):
    return MONSTERS[[m.name for m in MONSTERS].index(name)]
