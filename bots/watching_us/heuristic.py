"""The ``heuristic`` (player) and ``heuristic_gm`` (GM) reference bots for Watching Us.

Both read only their seat's observation (``State.observation``) and the legal list.

The player heuristic plays for the team:

* **dice odds**: :func:`hit_distribution` is the exact distribution of a roll's hits against a
  To Hit (every face's count divided by the smallest matching term, as the engine counts), with
  the roller's "roll as N higher" passives; a Proxy takes every hit, an Adversary at most one;
* **choose** the Character (and so the Items) with the best HP and passives (:func:`card_value`);
* **vote** the Location whose two words help rolls most (:func:`location_value`) and the weakest
  Adversary (:func:`adversary_cost`: the Rituals its HP and To Hit cost, the Proxies its types
  bring from the deck, its per-turn harm, Road Squid's table check);
* **act**: a Ritual, unless the Character is in danger of dying this round (its HP against the
  damage of the coming flip, triggers and the Night) and holds a healing Item; Travel when another
  Location on the table rolls clearly better; Investigate with HP to spare and few Items (an Item
  is a spare life: a dead Character inverts one when time passes);
* **Ritual picked**: the most expected Ritual Dice, a failure's pain weighted by the HP left (a
  Ritual a teammate judges always succeeds: teammates judge "succeeded");
* **target**: the Adversary first while it lives (its death stops new Proxies), a Proxy when the
  roll kills it or the Proxy hurts more; valued by the expected damage, the kill chance and the
  Monster's harm (:func:`monster_harm`); dice: an Adversary takes one damage a roll, so the
  fewest dice that hit it 90 % of the time (the rest wait for the next roll), a Proxy all of them;
* **give** an investigated Item to the teammate at the Location with the fewest Items (the
  weakest first); **revive** with the best Character among one's Items; **travel** (when made
  to) to the best Location, or swap the worse word of one's own.

The GM heuristic plays against the team: it puts on top the returned Monster that hurts most (a
Proxy of the Adversary's type: its HP and its harm; otherwise its Attack), and picks, for the
DM's choices, the Character a damage kills for good (no Item to invert), else one it kills, else
the fewest HP after armour (a Ritual Die loss: the most dice). The pending effect is not in the
observation: the GM infers it from the Monsters in play and the time (damage when any candidate
damages).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from engines.watching_us.data import CHARACTERS, DIFFICULTY, LOCATIONS, MONSTERS, RITUALS, Effect
from engines.watching_us.game import (
    ADJ_PICK,
    CHOOSE,
    GIVE,
    GM_PICK,
    GO_NEW,
    GO_TO,
    INVESTIGATE,
    JUDGE_OK,
    NO_ROLL,
    ORDER,
    PICK,
    REVIVE,
    RITUAL,
    ROLL,
    STAY_DEAD,
    SWAP_ADJ,
    SWAP_PLACE,
    TARGET,
    TIEBREAK,
    TO_HIT,
    TRAVEL,
    USE,
    VOTE,
)
from engines.watching_us.to_hit import ToHit

Obs = Mapping[str, Any]
NIGHT = 3

# -- dice ----------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _distribution(sizes: tuple[int, ...], k: int) -> tuple[float, ...]:
    """Return P(hits = h) for ``k`` fair dice, face f making ``count // sizes[f]`` hits (0: none)."""
    # dist[n][h]: n dice still to place on the remaining faces, h hits so far.
    dist: dict[tuple[int, int], float] = {(k, 0): 1.0}
    faces = len(sizes)
    for index, size in enumerate(sizes):
        left = faces - index
        nxt: dict[tuple[int, int], float] = {}
        for (n, h), p in dist.items():
            if left == 1:
                counts = [(n, 1.0)]
            else:
                q = 1.0 / left
                counts = [(c, math.comb(n, c) * q**c * (1 - q) ** (n - c)) for c in range(n + 1)]
            for c, pc in counts:
                key = (n - c, h + (c // size if size else 0))
                nxt[key] = nxt.get(key, 0.0) + p * pc
        dist = nxt
    top = max(h for _, h in dist)
    out = [0.0] * (top + 1)
    for (_, h), p in dist.items():
        out[h] += p
    return tuple(out)


def hit_distribution(to_hit: ToHit, bonus: int, k: int) -> tuple[float, ...]:
    """Return P(hits = h) for a roll of ``k`` Ritual Dice at ``to_hit``, each rolling as ``bonus`` higher."""
    sizes = []
    for face in range(1, 7):
        counts = [term.count for term in to_hit.terms if term.accepts(face + bonus)]
        sizes.append(min(counts) if counts else 0)
    return _distribution(tuple(sizes), max(0, k))


def p_hit(to_hit: ToHit, bonus: int, k: int) -> float:
    """Return the chance that a roll of ``k`` dice hits at least once."""
    dist = hit_distribution(to_hit, bonus, k)
    return 1.0 - dist[0] if dist else 0.0


# -- reading the observation -----------------------------------------------------------------


def chars(obs: Obs) -> list[Mapping[str, Any]]:
    return list(obs["characters"])


def passives(obs: Obs, p: int, kind: str, location: int | None = None) -> list[Effect]:
    """Return the passive effects of ``kind`` on seat ``p`` (at ``location``, default its own), as the engine."""
    cs = chars(obs)
    me = cs[p]
    loc = me["location"] if location is None else location
    out: list[Effect] = []
    if me["character"] >= 0:
        out += [e for e in CHARACTERS[me["character"]].character_effect if e.kind == kind]
    out += [e for card in me["items"] for e in CHARACTERS[card].item_passive if e.kind == kind]
    for q, other in enumerate(cs):
        if q != p and other["alive"] and other["location"] == loc:
            out += [
                e
                for card in other["items"]
                for e in CHARACTERS[card].item_passive
                if e.kind == kind and e.target == "here"
            ]
    out += location_effects(obs, loc, kind)
    for card, _ in obs["adversaries"]:
        out += [e for e in MONSTERS[card].adversary if e.trigger == "passive" and e.kind == kind]
    for card, _ in obs["proxies"]:
        out += [e for e in MONSTERS[card].proxy if e.trigger == "passive" and e.kind == kind]
    return out


def location_effects(obs: Obs, loc: int, kind: str) -> list[Effect]:
    locations = obs["locations"]
    if not 0 <= loc < len(locations):
        return []
    adj, place = locations[loc]
    return [e for e in LOCATIONS[adj].adjective_effect if e.kind == kind] + [
        e for e in LOCATIONS[place].place_effect if e.kind == kind
    ]


def amount(effects: list[Effect]) -> int:
    return sum(e.amount for e in effects)


def roll_bonus(obs: Obs, p: int, location: int | None = None) -> int:
    return amount(passives(obs, p, "roll_bonus", location))


def roll_limit(obs: Obs, p: int, location: int | None = None) -> int:
    return min([12, *(e.amount for e in passives(obs, p, "roll_limit", location))])


def monster_to_hit(obs: Obs, card: int, adversary: bool) -> ToHit:
    value = TO_HIT[card]
    return value.doubled() if adversary and obs["config"].get("double_or_nothing") else value


# -- values ----------------------------------------------------------------------------------

#: What a passive is worth to its holder, per unit (roll bonuses matter most: they turn misses into hits).
PASSIVE_WEIGHT = {
    "roll_bonus": 2.0,
    "extra_damage": 1.5,
    "ritual_bonus": 0.6,
    "armor": 1.0,
    "max_hp": 1.0,
    "immune": 0.4,
    "peek_start": 0.0,
}
ACTIVE_WEIGHT = {"heal": 0.6, "gain_dice": 0.5, "draw_item": 0.8, "travel": 0.1, "peek": 0.05}


def effects_value(effects: Sequence[Effect]) -> float:
    total = 0.0
    for e in effects:
        if e.kind == "roll_limit":
            total -= max(0, 5 - e.amount) * 0.6
        elif e.kind == "ritual_bonus":
            total += e.amount * (PASSIVE_WEIGHT["ritual_bonus"] * (2.5 if e.arg in ("any", "") else 1.0))
        else:
            total += e.amount * PASSIVE_WEIGHT.get(e.kind, 0.0) + (0.4 if e.kind == "immune" else 0.0)
    return total


def card_value(card: int, as_character: bool) -> float:
    """Return what a Character/Item card is worth as the Character or as an Item."""
    c = CHARACTERS[card]
    if as_character:
        return c.hp * 1.2 + effects_value(c.character_effect)
    active = sum(e.amount * ACTIVE_WEIGHT.get(e.kind, 0.0) for e in c.item_active)
    # An Item is also a spare life: inverted, it becomes a Character.
    return 1.0 + effects_value(c.item_passive) + active + 0.2 * c.hp


def location_value(adj: int, place: int) -> float:
    return effects_value(LOCATIONS[adj].adjective_effect) + effects_value(LOCATIONS[place].place_effect)


MEAN_ADJ = sum(effects_value(loc.adjective_effect) for loc in LOCATIONS) / len(LOCATIONS)
MEAN_PLACE = sum(effects_value(loc.place_effect) for loc in LOCATIONS) / len(LOCATIONS)


def effect_harm(e: Effect, players: int) -> float:
    """Return roughly how much one application of a Monster effect hurts the team."""
    spread = {"all": players, "location": max(1.0, players / 2)}.get(e.target, 1.0)
    if e.kind == "damage":
        return 2.0 * e.amount * spread
    if e.kind == "lose_dice":
        return 0.8 * e.amount * spread
    if e.kind == "monster_heal":
        return 1.5 * e.amount
    if e.kind == "roll_bonus":
        return -4.0 * e.amount
    if e.kind == "roll_limit":
        return max(0, 5 - e.amount) * 0.8
    if e.kind == "lose_unless":
        return 8.0
    if e.kind in ("heal", "gain_dice"):
        return -1.0 * e.amount * spread
    return 0.0


def monster_harm(card: int, adversary: bool, players: int) -> float:
    """Return a Monster's harm per turn in play (per-turn triggers in full, Night and Morning a quarter)."""
    effects = MONSTERS[card].adversary if adversary else MONSTERS[card].proxy
    total = 0.0
    for e in effects:
        rate = {"turn": 1.0, "night": 0.25, "morning": 0.25, "passive": 1.0, "death": 0.0}.get(e.trigger, 0.0)
        if e.kind == "lose_unless":
            rate = 1.0
        total += rate * effect_harm(e, players)
    return total


def sharing(card: int) -> int:
    """Return how many other Monsters share a type with ``card`` (the Proxies it would bring)."""
    kinds = set(MONSTERS[card].types)
    return sum(1 for i, m in enumerate(MONSTERS) if i != card and kinds & set(m.types))


def proxy_cost(card: int) -> float:
    """Return the mean cost of the Proxies ``card`` brings: HP and harm of the Monsters sharing its types."""
    kinds = set(MONSTERS[card].types)
    others = [i for i, m in enumerate(MONSTERS) if i != card and kinds & set(m.types)]
    if not others:
        return 0.0
    return sum(MONSTERS[i].hp / max(0.15, p_hit(TO_HIT[i], 0, 3)) for i in others) / len(others)


def adversary_cost(obs: Obs, card: int) -> float:
    """Return how hard an Adversary is to beat (lower is better for the players)."""
    players = int(obs["player_seats"])
    to_hit = monster_to_hit(obs, card, True)
    hp = MONSTERS[card].hp + int(obs["config"].get("adversary_hp_bonus", 0))
    if to_hit.immune:
        return 1e6
    chance = max(0.05, p_hit(to_hit, 0, 3))
    rituals = hp / chance
    proxies = sharing(card) / len(MONSTERS) * rituals  # new Proxies while it lives
    return rituals * 2.0 + proxies * proxy_cost(card) + monster_harm(card, True, players) * 1.5


# -- the player -------------------------------------------------------------------------------


def incoming_damage(obs: Obs, p: int) -> float:
    """Return the damage ``p`` may take before its next action (a rough upper view: triggers and the Night)."""
    players = int(obs["player_seats"])
    total = 0.0
    time_steps = players  # every player's action advances time about once
    night_soon = (NIGHT - int(obs["time"])) % 4 < time_steps
    morning_soon = (0 - int(obs["time"])) % 4 < time_steps
    for group, adversary in ((obs["adversaries"], True), (obs["proxies"], False)):
        for card, _ in group:
            m = MONSTERS[card]
            for e in m.adversary if adversary else m.proxy:
                if e.kind != "damage":
                    continue
                if e.trigger == "turn":
                    total += e.amount * (1.0 if e.target in ("all", "location", "gm") else 1.0 / players) * players
                elif (e.trigger == "night" and night_soon) or (e.trigger == "morning" and morning_soon):
                    total += e.amount
    armor = amount(passives(obs, p, "armor"))
    return max(0.0, total - armor * 0.5) + 0.5  # and a flip's Attack


def ritual_value(obs: Obs, p: int, ritual: int) -> float:
    """Return a Ritual's expected worth: its dice (and bonuses), less a failure's pain."""
    r = RITUALS[ritual]
    cs = chars(obs)
    judges = [q for q in [*range(p + 1, len(cs)), *range(p)] if cs[q]["alive"]]
    chance = 1.0 if r.judge == "next" and judges else DIFFICULTY[r.difficulty]
    bonus = amount([e for e in passives(obs, p, "ritual_bonus") if e.arg in ("any", r.element)])
    hp = cs[p]["hp"]
    value = chance * (r.success_dice + bonus) + (1 - chance) * r.failure_dice
    for effects, weight in ((r.success, chance), (r.failure, 1 - chance)):
        for e in effects:
            if e.kind == "damage":
                value -= weight * e.amount * (6.0 if hp <= e.amount else 2.0 / max(1, hp - 1))
            elif e.kind == "heal":
                value += weight * e.amount * 0.8
            elif e.kind == "lose_dice":
                value -= weight * e.amount
            elif e.kind == "draw_item":
                value += weight * 1.0
    return value


def target_value(obs: Obs, p: int, card: int, adversary: bool, hp: int, dice: int) -> float:
    """Return the worth of rolling all one may at this Monster: expected damage, kill chance, its harm."""
    players = int(obs["player_seats"])
    k = min(dice, roll_limit(obs, p))
    if k <= 0:
        return 0.0
    to_hit = monster_to_hit(obs, card, adversary)
    bonus = roll_bonus(obs, p)
    extra = amount(passives(obs, p, "extra_damage"))
    dist = hit_distribution(to_hit, bonus, k)
    expected, kill = 0.0, 0.0
    for hits, prob in enumerate(dist):
        damage = min(hits, 1) if adversary else hits
        if damage:
            damage += extra
        expected += prob * min(damage, hp)
        if damage >= hp:
            kill += prob
    harm = monster_harm(card, adversary, players)
    # The Adversary's death stops new Proxies: it is worth more than its harm alone.
    weight = 1.0 + max(0.0, harm) * 0.3 + (1.5 if adversary else 0.0)
    if adversary and any(e.kind == "lose_unless" for e in MONSTERS[card].adversary) and kill:
        weight -= 1.0  # Road Squid's death may lose the game: still needed, but not first
    return expected * weight + kill * (2.0 + max(0.0, harm))


def adversary_k(obs: Obs, p: int, card: int, legal: Sequence[int]) -> int:
    """Return the dice to roll at an Adversary: the fewest that hit it 90 % of the time, else all."""
    ks = sorted(a - ROLL + 1 for a in legal)
    to_hit = monster_to_hit(obs, card, True)
    bonus = roll_bonus(obs, p)
    for k in ks:
        if p_hit(to_hit, bonus, k) >= 0.9:
            return k
    return ks[-1]


def best_location_move(obs: Obs, p: int) -> tuple[int, float]:
    """Return the best other Location on the table for ``p`` and how much better it rolls than its own."""
    here = obs["characters"][p]["location"]
    best, gain = -1, 0.0
    own = location_score(obs, p, here)
    for i in range(len(obs["locations"])):
        if i != here:
            value = location_score(obs, p, i) - own
            if value > gain:
                best, gain = i, value
    return best, gain


def location_score(obs: Obs, p: int, loc: int) -> float:
    """Return how good Location ``loc`` is for ``p``'s rolls and safety."""
    value = 0.0
    for kind in ("roll_bonus", "extra_damage", "ritual_bonus", "armor", "max_hp", "immune"):
        value += effects_value(location_effects(obs, loc, kind))
    limit = min([12, *(e.amount for e in location_effects(obs, loc, "roll_limit"))])
    dice = obs["characters"][p]["dice"]
    if limit < dice:
        value -= (dice - limit) * 0.5
    return value


def decide_player(obs: Obs, legal: Sequence[int], memory: dict[str, Any]) -> int:
    step = obs["step"]
    p = int(obs["player"])
    cs = chars(obs)
    me = cs[p]
    if step == "choose":
        hand = list(obs.get("hand") or [])

        def choice(action: int) -> float:
            i = action - CHOOSE
            return card_value(hand[i], True) + sum(card_value(c, False) for j, c in enumerate(hand) if j != i)

        return max(legal, key=choice)
    if step in ("vote", "tiebreak"):
        base = VOTE if step == "vote" else TIEBREAK
        offer = list(obs["offer"])
        if len(offer) == 2 and not obs["locations"]:
            return max(legal, key=lambda a: location_value(offer[a - base], offer[1 - (a - base)]))
        return min(legal, key=lambda a: adversary_cost(obs, offer[a - base]))
    if step == "judge":
        return JUDGE_OK if JUDGE_OK in legal else legal[0]
    if step == "pick":
        offer = list(obs["offer"])
        return max(legal, key=lambda a: ritual_value(obs, p, offer[a - PICK]))
    if step == "target":
        options = [a for a in legal if a != NO_ROLL]
        if not options:
            return NO_ROLL
        hp = dict(obs["proxies"])
        adv = dict(obs["adversaries"])

        def value(action: int) -> float:
            card = action - TARGET
            adversary = card in adv
            return target_value(obs, p, card, adversary, adv[card] if adversary else hp.get(card, 1), me["dice"])

        best = max(options, key=value)
        memory["target"] = best - TARGET
        return best
    if step == "roll":
        card = memory.get("target", -1)
        if card in {c for c, _ in obs["adversaries"]} and not any(c == card for c, _ in obs["proxies"]):
            return ROLL + adversary_k(obs, p, card, legal) - 1
        return max(legal)
    if step == "give":
        return min(legal, key=lambda a: (len(cs[a - GIVE]["items"]), cs[a - GIVE]["hp"], a))
    if step == "revive":
        options = [a for a in legal if a != STAY_DEAD]
        if not options:
            return STAY_DEAD
        return max(options, key=lambda a: card_value(a - REVIVE, True))
    if step == "adj":
        offer = list(obs["offer"])
        return max(legal, key=lambda a: location_value(offer[a - ADJ_PICK], offer[1 - (a - ADJ_PICK)]))
    if step == "travel":
        return travel_choice(obs, p, legal)
    if step == "action":
        return action_choice(obs, p, legal)
    return legal[0]


def travel_choice(obs: Obs, p: int, legal: Sequence[int]) -> int:
    here = obs["characters"][p]["location"]
    own = location_score(obs, p, here)
    adj, place = obs["locations"][here]

    def value(action: int) -> float:
        if GO_TO <= action < GO_TO + 5:
            return location_score(obs, p, action - GO_TO)
        if action == GO_NEW:
            return MEAN_ADJ + MEAN_PLACE - 0.1
        if action == SWAP_ADJ:
            return own - effects_value(LOCATIONS[adj].adjective_effect) + MEAN_ADJ - 0.05
        if action == SWAP_PLACE:
            return own - effects_value(LOCATIONS[place].place_effect) + MEAN_PLACE - 0.05
        return -99.0

    return max(legal, key=value)


def action_choice(obs: Obs, p: int, legal: Sequence[int]) -> int:
    me = obs["characters"][p]
    items = [a for a in legal if a >= USE and a < USE + len(CHARACTERS)]
    hp = me["hp"]
    danger = incoming_damage(obs, p)
    heals = [a for a in items if any(e.kind == "heal" for e in CHARACTERS[a - USE].item_active)]
    if heals and hp <= danger:
        return max(heals, key=lambda a: sum(e.amount for e in CHARACTERS[a - USE].item_active if e.kind == "heal"))
    if TRAVEL in legal:
        _, gain = best_location_move(obs, p)
        if gain >= 2.5:
            return TRAVEL
    # A Ritual whose failure may kill: with one HP and no Item to come back with, Investigate instead.
    if hp <= 1 and not me["items"] and INVESTIGATE in legal:
        return INVESTIGATE
    return RITUAL if RITUAL in legal else legal[0]


class HeuristicPolicy:
    """The co-operative player heuristic (see the module's docstring)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self._memory: dict[str, Any] = {}

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return the heuristic's action for this observation."""
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        if observation.get("role") == "gm":
            action = decide_gm(observation, legal)
        else:
            action = decide_player(observation, legal, self._memory)
        return action if action in legal else legal[0]


# -- the GM ------------------------------------------------------------------------------------


def flip_harm(obs: Obs, card: int) -> float:
    """Return how much flipping ``card`` hurts the team: a Proxy's HP and harm, or its Attack."""
    players = int(obs["player_seats"])
    kinds = {t for adv, _ in obs["adversaries"] for t in MONSTERS[adv].types}
    if kinds & set(MONSTERS[card].types):
        return MONSTERS[card].hp * 2.0 / max(0.15, p_hit(TO_HIT[card], 0, 3)) + monster_harm(card, False, players) * 4
    return sum(effect_harm(e, players) for e in MONSTERS[card].attack)


def pending_kinds(obs: Obs) -> set[str]:
    """Return the kinds of the DM's-choice effects that may be pending now."""
    log = list(obs.get("log") or [])
    last_turn = max((i for i, line in enumerate(log) if line.startswith("turn ")), default=-1)
    last_time = max((i for i, line in enumerate(log) if line.startswith("time advances")), default=-1)
    triggers = {"turn"}
    if last_time > last_turn:
        triggers = {"night"} if int(obs["time"]) == NIGHT else {"morning"} if int(obs["time"]) == 0 else set()
    kinds = set()
    for group, adversary in ((obs["adversaries"], True), (obs["proxies"], False)):
        for card, _ in group:
            for e in MONSTERS[card].adversary if adversary else MONSTERS[card].proxy:
                if e.target == "gm" and e.trigger in triggers:
                    kinds.add(e.kind)
    return kinds or {"damage"}


def decide_gm(obs: Obs, legal: Sequence[int]) -> int:
    step = obs["step"]
    if step == "order":
        offer = list(obs["offer"])
        return max(legal, key=lambda a: (flip_harm(obs, offer[a - ORDER]), -a))
    if step == "gm_pick":
        cs = chars(obs)
        kinds = pending_kinds(obs)
        if "damage" in kinds:

            def damage_key(action: int) -> tuple[float, ...]:
                q = action - GM_PICK
                hurt = max(0, 1 - amount(passives(obs, q, "armor")))
                left = cs[q]["hp"] - hurt
                dies = left <= 0
                return (dies and not cs[q]["items"], dies, -left, cs[q]["dice"], -action)

            return max(legal, key=damage_key)
        if kinds & {"lose_dice"}:
            return max(legal, key=lambda a: (cs[a - GM_PICK]["dice"], -cs[a - GM_PICK]["hp"], -a))
        # A kind that helps its target (heal, dice, an Item): the one it helps least.
        return min(legal, key=lambda a: (-cs[a - GM_PICK]["hp"], a))
    return legal[0]


class HeuristicGMPolicy:
    """The adversarial GM heuristic (see the module's docstring); as a player it plays the player heuristic."""

    name = "heuristic_gm"

    def __init__(self, seed: int | None = None) -> None:
        self._player = HeuristicPolicy(seed)

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return the heuristic GM's action for this observation."""
        return self._player.choose(observation, legal_actions)


__all__ = ["HeuristicGMPolicy", "HeuristicPolicy", "decide_gm", "decide_player", "hit_distribution"]
