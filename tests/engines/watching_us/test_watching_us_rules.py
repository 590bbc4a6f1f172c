"""Watching Us: a test per implemented rule sentence (RULES.md names them)."""

from __future__ import annotations

import pytest

from engines.watching_us.data import CHARACTERS, MONSTERS, Effect
from engines.watching_us.game import (
    NIGHT_NEVER_ENDED,
    PLAYERS_LOST,
    PLAYERS_WON,
    seat_roles,
)

ID = {m.name: i for i, m in enumerate(MONSTERS)}


def dealt(wu, num_players=3, config=None):
    """Deal the first cards of the deck and choose slot 0 each: past the character choice."""
    state = wu.game.new_initial_state(seed=0, num_players=num_players, config=config)
    while state.step == "char":
        state.apply_action(state.legal_actions()[0])
    while state.step == "choose":
        state.apply_action(state.legal_actions()[0])
    return state


def adversary(wu, name="Police Detective", others=("Boo", "Charlie"), num_players=3, config=None):
    state = dealt(wu, num_players, config)
    wu.play(state, "location Grimy/Alleyway", "location Haunted/Lake")
    for _p in range(state.P):
        wu.play(state, "vote 0")
    wu.play(state, f"monster {name}", *(f"monster {o}" for o in others))
    for _p in range(state.P):
        wu.play(state, "vote 0")
    if state.step == "order":
        wu.play(state, "top 0")
    return state


def test_three_cards_are_dealt_to_each_player_counterclockwise(wu) -> None:
    # "En la dirección contraria a las agujas del reloj, reparte tres Personajes a cada Jugador."
    state = wu.game.new_initial_state(seed=0, num_players=4)
    seats = []
    for _ in range(9):
        dest = state.need[3]
        seats.append(dest[1])
        state.apply_action(state.legal_actions()[0])
    assert seats == [0, 2, 1] * 3


def test_one_card_is_the_character_the_others_items(wu) -> None:
    # "Cada uno elige uno como su Personaje Jugador, e invierten las otras dos como su inventario inicial."
    state = dealt(wu)
    assert state.character[0] >= 0
    assert len(state.items[0]) == 2
    assert state.character[0] not in state.items[0]


def test_restricted_opening_items(wu) -> None:
    # "only draw two Item cards to pick from ... or have them discard the unused Items"
    state = dealt(wu, config={"opening_cards": 2, "discard_unused": True})
    assert state.items == [[], []]
    assert len(state.char_discard) == 2


def test_the_location_vote_picks_which_card_gives_the_adjective(wu) -> None:
    # "Los jugadores votan una como Adjetiva, y la otra como el Lugar."
    state = dealt(wu)
    wu.play(state, "location Grimy/Alleyway", "location Haunted/Lake", "vote 1", "vote 1")
    assert state.location_name(0) == "Haunted Alleyway"


def test_a_tied_vote_goes_to_the_first_players_vote(wu) -> None:
    state = dealt(wu)
    wu.play(state, "location Grimy/Alleyway", "location Haunted/Lake", "vote 1", "vote 0")
    assert state.location_name(0) == "Haunted Alleyway"


def test_a_tie_without_the_first_players_option_is_settled_by_the_first_player(wu) -> None:
    # Completion: "ties: the first player decides".
    state = dealt(wu, num_players=6)
    wu.play(state, "location Grimy/Alleyway", "location Haunted/Lake", *["vote 0"] * 5)
    wu.play(state, "monster Police Detective", "monster Boo", "monster Charlie")
    wu.play(state, "vote 0", "vote 1", "vote 1", "vote 2", "vote 2")
    assert state.step == "tiebreak"
    assert state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["tiebreak 1", "tiebreak 2"]
    wu.play(state, "tiebreak 2")
    assert state.adversaries[0][0] == ID["Charlie"]


def test_the_dm_returns_the_other_two_monsters_on_top_in_the_order_he_chooses(wu) -> None:
    # "Los jugadores votan uno para que sea el Adversario. El DM pone las otras dos sobre el mazo."
    state = adversary(wu)
    assert state.adversaries == [[ID["Police Detective"], 2]]
    assert [e[0] for e in state.mon_top] in ([ID["Charlie"]], [ID["Boo"], ID["Charlie"]])
    assert state.returned == sorted([ID["Boo"], ID["Charlie"]]) or state.returned == [ID["Charlie"]]


def test_the_builtin_gm_orders_the_returned_monsters_itself(wu) -> None:
    state = adversary(wu, num_players=2, config={"gm": "builtin"})
    assert state.gm_seat is None
    assert state.turn == 1


def test_a_monster_sharing_a_type_becomes_a_proxy(wu) -> None:
    # "Si comparte un tipo con el Adversario, se convierte en un Poseído"
    state = adversary(wu, others=("Charlie", "Boo"))
    assert [card for card, _ in state.proxies] == [ID["Charlie"]]


def test_otherwise_it_attacks_and_is_discarded(wu) -> None:
    # "De otro modo, se convierte en un Ataque se usa su Acción de ataque, y se descarta."
    state = adversary(wu, others=("The Stray", "Boo"))
    assert state.mon_discard == [ID["The Stray"]]
    assert state.hp[0] == CHARACTERS[state.character[0]].hp - 1


def test_investigate_advances_time_and_draws_an_item(wu) -> None:
    # "La investigación avanza el Contador de Tiempo un paso, y permite al jugador robar un ítem"
    state = adversary(wu, others=("Boo", "Charlie"))
    before = len(state.items[0]) + len(state.items[1])
    wu.play(state, "investigate", "card 30 Twin")
    if state.step == "give":
        wu.play(state, "give P1")
    assert len(state.items[0]) + len(state.items[1]) == before + 1
    assert state.time == 1


def test_a_ritual_draws_two_keeps_one_and_discards_the_other(wu) -> None:
    # "Roba las dos cartas superiores del Mazo de Rituales y elige un Ritual para hacer, descartando el otro"
    state = adversary(wu)
    wu.play(state, "ritual", "ritual 9", "ritual 10", "pick 1")
    assert state.ritual == 9
    assert 8 in state.rit_discard


def test_the_next_player_judges_a_ritual_that_gives_the_choice_to_a_seat(wu) -> None:
    # "if the person you give the portrait to doesn't rip it up, the Ritual fails."
    state = adversary(wu)
    wu.play(state, "ritual", "ritual 1", "ritual 10", "pick 0")
    assert state.step == "judge"
    assert state.current_player() == 1
    wu.play(state, "ritual failed")
    assert state.dice[0] == 1


def test_using_an_item_discards_it_and_does_not_advance_time(wu) -> None:
    # "Usar un item hace que tengas que descartar ese Item para un efecto."
    state = adversary(wu)
    item = state.items[0][0]
    wu.play(state, f"use {CHARACTERS[item].item}")
    assert item not in state.items[0]
    assert item in state.char_discard
    assert state.time == 0


def test_travel_to_a_new_location_is_capped_at_one_per_player(wu) -> None:
    # "Hay un máximo de una Localización por Jugador."
    state = adversary(wu)
    wu.play(state, "travel", "new location", "location Flooded/Basement", "location Quiet/Library", "adjective 1")
    assert state.location_name(1) == "Quiet Basement"
    assert state.loc[0] == 1
    assert "new location" not in [state.action_to_string(a) for a in state._travel_options(1)]


def test_every_proxy_and_the_adversary_dead_is_a_win(wu) -> None:
    # "Al final del turno, si el Adversario y todos los Poseídos están muertos, ¡tú ganas!"
    state = adversary(wu, others=("Boo", "The Stray"))
    state.dice[0] = 3
    wu.play(state, "ritual", "ritual 9", "ritual 10", "pick 0", "success", "target Police Detective", "roll 2")
    wu.play(state, "die 6", "die 6")
    assert state.adversaries[0][1] == 1  # one damage per Ritual for an Adversary
    state.dice[1] = 1
    wu.play(state, "ritual", "ritual 11", "ritual 12", "pick 0", "success", "target Police Detective", "roll 4")
    wu.play(state, "die 6", "die 6", "die 6", "die 6")
    outcome = state.outcome()
    assert outcome.reason == PLAYERS_WON
    assert outcome.winners == (0, 1)
    assert outcome.returns == (1.0, 1.0, -1.0)
    assert outcome.stats[2]["role"] == "gm"
    assert outcome.stats[0]["won"]


def test_every_character_dead_is_a_loss(wu) -> None:
    # "Si todos los Personajes están muertos al final del turno, tú pierdes."
    state = adversary(wu, others=("Boo", "The Stray"))
    state.hp, state.alive = [0, 1], [False, True]  # Alice has just died; Bob has 1 HP
    wu.play(state, "use Arsonist's Lighter")  # Bob's turn: The Stray attacks him for 1 damage
    assert state.is_terminal()
    assert state.outcome().reason == PLAYERS_LOST
    assert state.outcome().winners == (2,)
    assert state.outcome().returns == (-1.0, -1.0, 1.0)


def test_a_dead_player_may_invert_an_item_at_the_end_of_the_time_stage(wu) -> None:
    # "Al final de la etapa temporal, si ese Jugador tiene ítems, puede descartarlos todos menos uno"
    state = adversary(wu)
    state.alive[1], state.hp[1] = False, 0
    item = state.items[1][0]
    wu.play(state, "investigate", "card 30 Twin")
    assert state.step == "revive"
    assert state.current_player() == 1
    wu.play(state, f"invert {CHARACTERS[item].item}")
    assert state.alive[1]
    assert state.character[1] == item
    assert state.items[1] == []


def test_the_turn_cap_is_a_gm_win(wu) -> None:
    state = wu.random_game(1, config={"max_turns": 3})
    if state.outcome().reason == NIGHT_NEVER_ENDED:
        assert state.outcome().winners == (2,)
        assert state.turn == 3


def test_the_builtin_gm_loss_has_no_winner(wu) -> None:
    for seed in range(20):
        state = wu.random_game(seed, num_players=2, config={"gm": "builtin", "max_turns": 5})
        if state.outcome().reason != PLAYERS_WON:
            assert state.outcome().winners == ()
            assert state.outcome().returns == (-1.0, -1.0)
            return
    pytest.fail("no loss in 20 games")


def test_buffed_adversaries_and_double_or_nothing(wu) -> None:
    state = adversary(wu, config={"adversary_hp_bonus": 2, "double_or_nothing": True})
    assert state.adversaries[0][1] == 4
    assert state.to_hit(ID["Police Detective"], True).text() == "2x5+"


def test_simultaneous_adversaries_vote_twice(wu) -> None:
    state = dealt(wu, config={"adversaries": 2})
    wu.play(state, "location Grimy/Alleyway", "location Haunted/Lake", "vote 0", "vote 0")
    wu.play(state, "monster Police Detective", "monster Boo", "monster Charlie", "vote 0", "vote 0", "vote 0", "vote 0")
    assert [c for c, _ in state.adversaries] == [ID["Police Detective"], ID["Boo"]]


def test_seat_roles() -> None:
    assert seat_roles(3, {}) == ("player", "player", "gm")
    assert seat_roles(5, {"gm": "builtin"}) == ("player",) * 5


# -- more sentences: a table built card by card ------------------------------------------------------
CHAR = {c.character: c for c in CHARACTERS}


def table(
    wu,
    alice=("Arsonist", "Student", "Artist"),
    bob=("Teacher", "Hiker", "Nurse"),
    adversary="Police Detective",
    others=("Boo", "Charlie"),
    place="Windy/Rooftop",
    config=None,
):
    """Alice (seat 0) plays alice[0] with the other two as Items, Bob (seat 1) bob[0]; Charlie is the GM
    (seat 2). The Location is the Grimy <place>; ``others[0]`` goes back on top and is flipped on turn 1.
    """
    state = wu.game.new_initial_state(seed=0, num_players=3, config=config)
    for a, b in zip(alice, bob, strict=True):
        wu.play(state, f"card {CHAR[a].number} {a}", f"card {CHAR[b].number} {b}")
    wu.play(state, "choose 0", "choose 0", "location Grimy/Alleyway", f"location {place}", "vote 0", "vote 0")
    wu.play(state, f"monster {adversary}", *(f"monster {o}" for o in others), "vote 0", "vote 0")
    if config and config.get("adversaries") == 2:
        wu.play(state, "vote 0", "vote 0")
    if state.step == "order":
        wu.play(state, "top 0")
    return state


def legal(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_the_four_decks_are_shuffled_each_draw_uniform(wu) -> None:
    # "Comienza barajando todos los mazos: Personajes, Lozalizaciones, Monstruos y Rituales."
    from engines.watching_us.data import LOCATIONS, RITUALS

    assert (len(MONSTERS), len(RITUALS), len(CHARACTERS), len(LOCATIONS)) == (60, 30, 30, 20)
    state = wu.game.new_initial_state(seed=0)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 30
    assert {p for _, p in outcomes} == {1 / 30}


def test_the_game_starts_in_the_morning_with_the_first_seat(wu) -> None:
    # "Pon el Contador de Tiempo por la "Mañana". El juego comienza."
    state = table(wu)
    assert (state.time, state.turn, state.active) == (0, 1, 0)
    assert state.observation(0)["time_name"] == "Morning"
    assert state.step == "action"


def test_the_time_tracker_goes_round_from_night_to_morning(wu) -> None:
    # "(Mañana -> Mediodía -> Tarde -> Noche -> Mañana)"
    state = table(wu)
    state.time = 3
    wu.play(state, "investigate", "card 30 Twin", "give P0")
    assert state.time == 0


def test_the_adversary_effect_acts_every_turn(wu) -> None:
    # "The ADVERSARY EFFECT is the effect that is active as long as this Monster is your Adversary"
    # Boo as the Adversary: each turn the active Character loses a Ritual Die.
    state = table(wu, adversary="Boo", others=("Police Detective", "The Stray"))
    state.dice[1] = 3
    wu.play(state, "use Artist's Camera")  # Bob's turn: The Stray attacks him, then Boo's turn effect
    assert state.active == 1
    assert state.dice[1] == 2
    assert state.hp[1] == 3  # the Teacher's 4 HP less The Stray's 1


def test_a_proxy_stays_in_play_and_acts_when_its_trigger_comes(wu) -> None:
    # "Ésta permanece en el juego y se activará cuando sea necesario." Charlie's Proxy effect: at Night,
    # 1 damage to everyone at the active Location ("It's not Late Night, so his effect doesn't activate yet").
    state = table(wu, others=("Charlie", "Boo"))
    assert [card for card, _ in state.proxies] == [ID["Charlie"]]
    state.time = 2
    hp = list(state.hp)
    wu.play(state, "investigate", "card 30 Twin")
    assert state.hp == hp  # not yet Night
    wu.play(state, "give P0")
    assert state.time == 3
    wu.play(state, "pick P1")  # first the Adversary's Night effect: 1 damage to a Character of the DM's choice
    assert state.hp == [hp[0] - 1, hp[1] - 2]  # then Charlie's: 1 damage to everyone at the Location
    assert [card for card, _ in state.proxies] == [ID["Charlie"]]


def test_the_investigated_item_goes_to_a_player_at_the_same_location(wu) -> None:
    # "permite al jugador robar un ítem para sí Mismo u otro jugador en la misma Localización"
    state = table(wu, others=("Boo", "Whisper"))
    wu.play(state, "investigate", "card 30 Twin")
    assert legal(state) == ["give P0", "give P1"]
    wu.play(state, "give P1")
    assert 29 in state.items[1]
    # Alone at a Location: no choice, the Item is the investigator's.
    wu.play(state, "travel", "new location", "location Quiet/Library", "location Abandoned/Hospital", "adjective 0")
    wu.play(state, "monster The Stray", "investigate", "card 10 Streamer")
    assert state.step != "give"
    assert 9 in state.items[0]


def test_a_ritual_success_gives_its_dice_a_failure_its_failure_effect(wu) -> None:
    # "Si no puedes hacer el Ritual, se acciona el efecto de Fallo. Si puedes hacer el Ritual, se acciona el
    # efecto de Éxito, y ganas una cantidad de Dados de Ritual."
    state = table(wu, others=("Boo", "Whisper"))
    wu.play(state, "ritual", "ritual 14", "ritual 9", "pick 0", "success")  # Water: 2 dice
    assert state.dice[0] == 2
    assert state.hp[0] == 3
    wu.play(state, "no roll")
    assert state.time == 1
    wu.play(state, "use Nurse's Kit", "monster The Stray")  # Bob's turn (Whisper: everyone loses a die)
    assert state.dice[0] == 1
    wu.play(state, "ritual", "ritual 10", "ritual 15", "pick 0", "failure")  # Fire: 1 die and 1 damage
    assert state.dice[0] == 2
    assert state.hp[0] == 1  # The Stray's attack and the failure


def test_any_number_of_dice_may_be_rolled_at_the_end_of_a_ritual(wu) -> None:
    # "Al final de tu Ritual, puedes Tirar cualquier cantidad de tus Dados de Ritual para intentar dañar al
    # Monstruo."
    state = table(wu)
    state.dice[0] = 5
    wu.play(state, "ritual", "ritual 14", "ritual 9", "pick 0", "success")
    assert legal(state) == ["target Police Detective", "no roll"]
    wu.play(state, "target Police Detective")
    assert legal(state) == [f"roll {k}" for k in range(1, 8)]


def test_using_an_item_gives_no_roll(wu) -> None:
    # "because Bob didn't actually perform a Ritual, he can't attack."
    state = table(wu, others=("Boo", "The Stray"))
    wu.play(state, "use Artist's Camera")
    assert state.dice[0] == 2
    assert state.active == 1
    assert state.step == "action"


def test_travel_moves_to_an_existing_location(wu) -> None:
    # "Puedes entrar en una nueva Localización ..., moviéndote a una Lozalización existente"
    state = table(wu, others=("Boo", "Whisper"))
    assert "go to 0" not in legal(state)
    assert "travel" in legal(state)
    wu.play(state, "travel")
    assert legal(state) == ["new location", "swap adjective", "swap place", "swap both"]
    wu.play(state, "new location", "location Quiet/Library", "location Abandoned/Hospital", "adjective 0")
    wu.play(state, "travel")  # Bob
    assert legal(state) == ["go to 1", "swap adjective", "swap place", "swap both"]
    wu.play(state, "go to 1")
    assert state.loc == [1, 1]
    assert state.location_name(1) == "Quiet Hospital"


def test_travel_may_change_the_adjective_and_the_place_at_once(wu) -> None:
    # "cambiando el Adjetivo y/o Lugar de la Localización en la que estás con otra del Mazo de Localizaciones"
    state = table(wu, others=("Boo", "Whisper"))
    wu.play(state, "travel", "swap both", "location Flooded/Basement", "location Quiet/Library")
    assert state.location_name(0) == "Flooded Library"
    assert state.loc_bottom == [0, 10]  # Grimy and Rooftop go to the bottom of the Location deck
    assert state.time == 0  # Travel does not advance time


def test_a_location_effect_acts_only_at_that_location(wu) -> None:
    # "The PLACE EFFECT is the passive effect that Location provides, usually but not always to Characters
    # only in that Location at that moment"
    state = table(wu, place="Haunted/Lake", others=("Boo", "Whisper"))
    assert state.roll_limit(0) == state.roll_limit(1) == 4  # "She can only roll 4 Ritual Dice at the Lake"
    wu.play(state, "travel", "new location", "location Quiet/Library", "location Abandoned/Hospital", "adjective 0")
    assert state.roll_limit(0) == 12
    assert state.roll_limit(1) == 4


def test_the_turn_passes_clockwise_to_the_next_living_character(wu) -> None:
    # "El Juego continúa con el nuevo Jugador, en el sentido de las agujas del reloj."
    state = adversary(wu, num_players=4, others=("Boo", "Whisper"))
    state.alive[1], state.hp[1] = False, 0
    wu.play(state, f"use {CHARACTERS[state.items[0][0]].item}")
    assert (state.active, state.turn) == (2, 2)
    state.alive[1], state.hp[1] = True, 3
    wu.play(state, f"use {CHARACTERS[state.items[2][0]].item}", "monster The Stray")
    assert (state.active, state.turn) == (0, 3)


def test_a_character_without_hp_dies(wu) -> None:
    # "Si un Personaje se queda sin vida, muere."
    state = table(wu, others=("Boo", "The Stray"))
    state.hp[1] = 1
    wu.play(state, "use Artist's Camera")  # Bob's turn: The Stray's attack kills him
    assert (state.alive[1], state.hp[1]) == (False, 0)
    assert "P1 (Teacher) dies" in state.log
    assert state.active == 0  # his turn is over; the dead get no action
    assert not state.is_terminal()


def test_a_revived_character_rises_where_the_old_one_died(wu) -> None:
    # "It becomes a Character for you to play as at the same Location your Character died in."
    state = table(wu, others=("Boo", "Whisper"))
    wu.play(state, "travel", "new location", "location Quiet/Library", "location Abandoned/Hospital", "adjective 0")
    wu.play(state, "investigate", "card 10 Streamer")  # Bob, alone at the Grimy Rooftop: a third Item
    state.alive[1], state.hp[1] = False, 0  # Bob's Teacher dies at the Grimy Rooftop
    wu.play(state, "monster Rat King", "use Artist's Camera")  # Alice; then Bob's turn passes him by
    assert (state.active, state.turn) == (0, 4)
    wu.play(state, "monster The Stray", "investigate", "card 30 Twin")  # time advances: the end of a stage
    assert state.step == "revive"
    assert state.current_player() == 1
    assert legal(state) == [
        "invert Hiker's Flashlight",
        "invert Nurse's Kit",
        "invert Streamer's Ring Light",
        "stay dead",
    ]
    wu.play(state, "invert Nurse's Kit")
    assert state.alive[1]
    assert state.loc[1] == 0
    assert state.loc[0] == 1
    assert state.hp[1] == 4
    assert state.dice[1] == 0
    assert state.items[1] == []  # "discard all but one of your Items"
    assert {5, 9} <= set(state.char_discard)


def test_an_attack_comes_from_the_flipped_monster_and_the_upside_down_side_does_nothing(wu) -> None:
    # "This is considered an Attack "from Boo" ... like the Pastor, who can't be damaged by attacks from
    # Religious Monsters." and "When you have a Character/Item card, the upside-down side has no effect"
    state = table(wu, alice=("Pastor", "Student", "Artist"), others=("Mother of Flies", "Boo"))
    assert "Mother of Flies attacks" in state.log
    assert state.hp[0] == 3  # the Pastor: no damage from the Animal/Religious Mother of Flies
    assert state.observation(0)["known_top"] == []  # the Pastor's Cross (the upside-down side) does not peek


def test_a_proxy_takes_one_damage_per_matching_die_an_adversary_one(wu) -> None:
    # "An Adversary can only take 1 damage per Ritual ..., while A Proxy takes 1 damage per matching roll"
    state = table(wu, others=("Charlie", "Boo"))
    state.dice[0] = 1
    wu.play(state, "ritual", "ritual 14", "ritual 9", "pick 0", "success", "target Charlie", "roll 3")
    wu.play(state, "die 4", "die 5", "die 6")  # Charlie: 3 HP, To Hit 4+
    assert state.proxies == []
    assert ID["Charlie"] in state.slain
    state.dice[1] = 1
    wu.play(state, "ritual", "ritual 16", "ritual 10", "pick 0", "success", "target Police Detective")
    wu.play(state, "roll 3", "die 6", "die 6", "die 6")
    assert state.adversaries == [[ID["Police Detective"], 1]]


def test_a_monster_with_n_a_cannot_be_aimed_at(wu) -> None:
    # "N/A means that this Monster cannot be damaged by ordinary means."
    state = table(wu, adversary="The Shape", others=("Boo", "Charlie"))
    wu.play(state, "ritual", "ritual 14", "ritual 9", "pick 0", "success")
    assert state.dice[0] == 2
    assert state.step != "target"
    assert state.time == 1


def test_the_dm_chooses_the_character_an_effect_names(wu) -> None:
    # The "Police Detective" Adversary: at Night a Character of the DM's choice takes 1 damage.
    state = table(wu, others=("Boo", "Whisper"))
    state.time = 2
    wu.play(state, "investigate", "card 30 Twin", "give P0")
    assert state.step == "gm_pick"
    assert state.current_player() == 2
    assert legal(state) == ["pick P0", "pick P1"]
    wu.play(state, "pick P1")
    assert state.hp == [3, 3]


@pytest.mark.parametrize(("table_has", "reason"), [("table has it", PLAYERS_WON), ("table lacks it", PLAYERS_LOST)])
def test_road_squid_needs_a_living_cephalopod_at_the_table(wu, table_has: str, reason: str) -> None:
    # "If the players do not have a living cephalopod/gastropod before Road Squid dies, they lose."
    state = table(wu, adversary="Road Squid", others=("Boo", "Charlie"))
    state.adversaries[0][1] = 1
    wu.play(state, "ritual", "ritual 14", "ritual 9", "pick 0", "success", "target Road Squid", "roll 1", "die 6")
    wu.play(state, table_has)
    assert state.outcome().reason == reason


def test_a_dead_adversary_is_replaced_also_one_of_two_simultaneous(wu) -> None:
    # "Multiple Adversaries! When an Adversary dies, have another one take its place."
    state = table(wu, others=("Boo", "Whisper"), config={"extra_adversaries": 1})
    state.adversaries[0][1] = 1
    state.dice[0] = 1
    wu.play(state, "ritual", "ritual 14", "ritual 9", "pick 0", "success", "target Police Detective", "roll 1")
    wu.play(state, "die 6")  # the top Monster (Whisper, returned there by the DM) takes his place
    assert [card for card, _ in state.adversaries] == [ID["Whisper"]]
    assert state.chain_left == 0
    assert not state.is_terminal()
    both = table(wu, others=("Boo", "Whisper"), config={"extra_adversaries": 1, "adversaries": 2})
    assert [card for card, _ in both.adversaries] == [ID["Police Detective"], ID["Boo"]]
    both.adversaries[0][1] = 1
    both.dice[0] = 1
    wu.play(both, "ritual", "ritual 14", "ritual 9", "pick 0", "success", "target Police Detective", "roll 1")
    wu.play(both, "die 6", "monster The Stray")
    assert [card for card, _ in both.adversaries] == [ID["Boo"], ID["The Stray"]]


def test_the_card_tables_follow_the_anatomy(wu) -> None:
    # The anatomy sections: every Monster has a name, at least one type, HP, a To Hit, three effects and a
    # card number; Rituals have no names, four elements and two non-Elemental ones; every success gives dice.
    from engines.watching_us.data import BASELINE_HP, LOCATIONS, RITUALS, TYPES
    from engines.watching_us.to_hit import parse

    assert [m.number for m in MONSTERS] == list(range(1, 61))
    assert all(m.types and set(m.types) <= set(TYPES) and m.hp >= 1 for m in MONSTERS)
    assert all(parse(m.to_hit) is not None for m in MONSTERS)
    detective = MONSTERS[ID["Police Detective"]]
    assert (detective.types, detective.hp, detective.to_hit, BASELINE_HP) == (("Humanoid",), 2, "5+", 3)
    assert MONSTERS[ID["Road Squid"]].number == 43
    assert MONSTERS[ID["Road Squid"]].types == ("Eldritch",)
    assert [r.number for r in RITUALS] == list(range(1, 31))
    assert not hasattr(RITUALS[0], "name")
    assert {r.element for r in RITUALS} == {"fire", "water", "earth", "wind", "none"}
    assert [r.element for r in RITUALS].count("none") == 2
    assert all(r.success_dice >= 1 for r in RITUALS)
    assert sum(r.failure_dice < r.success_dice for r in RITUALS) > len(RITUALS) / 2  # "Most Failures"
    assert all(any(e.kind == "damage" for e in r.failure) for r in RITUALS if r.element == "fire")
    assert [c.number for c in CHARACTERS] == list(range(1, 31))
    assert all(c.character and c.item and c.item_active for c in CHARACTERS)
    assert [loc.number for loc in LOCATIONS] == list(range(1, 21))
    assert all(loc.adjective and loc.place for loc in LOCATIONS)


def test_a_proxy_no_dice_can_damage_is_banished_with_the_last_adversary(wu) -> None:
    # "N/A means that this Monster cannot be damaged by ordinary means." Completion: the Adversary's
    # death is the extraordinary means, so a game with The Shape as a Proxy stays winnable. Set up
    # directly: The Shape in play as a Proxy, the Adversary on its last HP.
    state = table(wu)
    state.adversaries[0][1] = 1
    state.proxies.append([ID["The Shape"], 6])
    wu.play(state, "ritual", "ritual 14", "ritual 9", "pick 0", "success", "target Police Detective")
    wu.play(state, "roll 1", "die 6")
    assert state.is_terminal()
    assert state.outcome().reason == PLAYERS_WON
    assert any("The Shape cannot be damaged by ordinary means" in line for line in state.log)


def monster_cards(state) -> list[int]:
    """Return every Monster card in play or in a pile once the game has begun (the offer is then empty)."""
    return sorted(
        state.mon_deck
        + [card for card, _ in state.mon_top]
        + state.mon_discard
        + [card for card, _ in state.adversaries + state.proxies]
        + state.slain
        + state.banished
    )


def test_a_banished_proxy_goes_to_the_banished_pile_and_the_sixty_monsters_add_up(wu) -> None:
    # "Monstruos (60)": every Monster card stays somewhere, the banished N/A Proxy too.
    state = table(wu)
    assert monster_cards(state) == list(range(60))
    state.adversaries[0][1] = 1
    state.mon_deck.remove(ID["The Shape"])
    state.proxies.append([ID["The Shape"], 6])
    wu.play(state, "ritual", "ritual 14", "ritual 9", "pick 0", "success", "target Police Detective")
    wu.play(state, "roll 1", "die 6")
    assert state.outcome().reason == PLAYERS_WON
    assert (state.slain, state.banished) == ([ID["Police Detective"]], [ID["The Shape"]])
    assert state.observation(0)["banished"] == [ID["The Shape"]]
    assert monster_cards(state) == list(range(60))


@pytest.mark.parametrize("seed", range(4))
def test_the_sixty_monsters_add_up_and_hp_stays_within_its_maximum_over_random_play(wu, seed: int) -> None:
    checked = []

    def check(state) -> bool:
        if state.turn >= 1:
            assert monster_cards(state) == list(range(60))
            for p in state.living():
                assert 1 <= state.hp[p] <= state.max_hp(p)
            checked.append(state.turn)
        return False

    config = {"extra_adversaries": 2, "adversaries": 2} if seed % 2 else None
    state = wu.random_game(seed, num_players=4, config=config, until=check)
    check(state)
    assert state.is_terminal()
    assert checked


def test_hp_comes_down_to_the_new_maximum_when_a_max_hp_bonus_ends_and_a_heal_does_not_lower_it(wu) -> None:
    # "Twin: ... Locket: 1 more HP (holder)": using the Locket discards it, and the bonus ends with it.
    state = table(wu, alice=("Arsonist", "Twin", "Nurse"), bob=("Teacher", "Hiker", "Artist"))
    assert (state.hp[0], state.max_hp(0)) == (4, 4)
    wu.play(state, "use Twin's Locket", "card 1 Detective")
    assert (state.hp[0], state.max_hp(0)) == (3, 3)
    wu.play(state, "use Artist's Camera", "monster Local 58")  # Bob's turn; Alice's next turn starts
    assert (state.active, state.hp[0]) == (0, 3)
    wu.play(state, "use Nurse's Kit")  # "Kit: heal 2": up to the maximum, which she has
    assert (state.hp[0], state.max_hp(0)) == (3, 3)


def test_a_heal_never_lowers_hp(wu) -> None:
    state = table(wu)
    state.hp[0] = state.max_hp(0) + 1  # above the maximum, as a bonus that has just ended leaves it
    state._t_apply(Effect("now", "heal", 2, "self", ""), -1, [0])
    assert state.hp[0] == state.max_hp(0) + 1


def test_a_proxy_no_dice_can_damage_stays_while_an_adversary_lives(wu) -> None:
    state = table(wu)
    state.proxies.append([ID["The Shape"], 6])
    wu.play(state, "investigate", "card 30 Twin", "give P0")
    assert ID["The Shape"] in [card for card, _ in state.proxies]
    assert not state.is_terminal()
