"""Whole games of ぱんつぁーへくせん, vectorized over games (axis 0), in chunks.

The sampling laws: the set-up draws, per game and independently, the seats' witches (a uniform
ordered sample without replacement; seat 0's may be fixed), a uniform shuffle of the ネウロイ, of
the policies and of the remaining cards (``decks = "mixed"``). That is the **setup** stream. The
players' random choices (``random`` player, rollout playouts) come from a second, **play**
stream. Both are children of the caller's ``rng`` (``rng.spawn(2)``), so changing a player never
moves the set-ups: two cells with the same seed deal the same games (common random numbers).

One round (``panzer_hexen_rules_ja.txt``): every seat chooses an action; actions resolve in
number order 0..5, within one in 優先順値 order (:class:`.rules.PanzerParams` ``collision``,
``priority_order``), the first performer taking the 第一実行者ボーナス of 休息/整備, 訓練, 会議
and 通信; then the 未実行イベント of 休息/整備 and 通信 for the last action player; then counters
grow; the game ends when a seat has ``end_cards`` executed policies + destroyed ネウロイ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.batching import chunk_spans
from gamesim.core.registry import ParamError
from gamesim.core.samplers import row_permutations
from gamesim.core.validate import Instance, Int, ParamTypeError, Rng, Unchecked, check_choice, validate_params

from .data import BUILTIN_DATA, CardSet, DataError, load_cards
from .engine import Batch, Tables, tables_for
from .policies import POLICY_NAMES, choose_action, choose_card, choose_deck, choose_target, rollout_choice
from .rules import BONUS_ACTIONS, Action, PanzerParams

__all__ = ["simulate", "check_setup", "MAX_GAMES"]

I64 = npt.NDArray[np.int64]
MAX_GAMES = 10**7
CHUNK_SIZE = 4096


def check_setup(p: PanzerParams, cards: CardSet) -> None:
    """Refuse a set-up the card set cannot deal (ParamError naming the parameter)."""
    P = p.n_players
    if P > len(cards.witches):
        raise ParamError("n_players", P, f"at most the {len(cards.witches)} witches of {cards.source}")
    if P * p.start_neuroi > len(cards.neuroi):
        raise ParamError("start_neuroi", p.start_neuroi, f"at most {len(cards.neuroi)} // n_players ネウロイ")
    if P * p.start_charge + p.start_open > len(cards.all_policies):
        raise ParamError("start_charge", p.start_charge, f"such that n_players * start_charge + start_open <= "
                         f"{len(cards.all_policies)} policies")


def _by_kind(fn: Any, b: Batch, gi: I64, s: I64, kinds: I64, names: Sequence[str], rng: np.random.Generator) -> I64:
    # kinds[s] indexes POLICY_NAMES; the rollout player makes its in-action choices greedily
    out = np.full(gi.size, -1, np.int64)
    k = kinds[s]
    for j in np.unique(k):
        m = k == j
        name = POLICY_NAMES[j] if POLICY_NAMES[j] != "rollout" else "greedy"
        out[m] = fn(b, gi[m], s[m], name, rng)
    return out


def play_rounds(b: Batch, names: Sequence[str], rng: np.random.Generator, *, rounds: int,
                over: npt.NDArray[np.bool_] | None = None, first_choice: I64 | None = None,
                rollout: tuple[int, int] = (4, 3)) -> dict[str, Any]:
    """Play up to ``rounds`` rounds of every game of ``b`` not yet ``over`` (in place).

    ``names[s]`` is seat s's player; ``first_choice`` (G, P) with -1 = choose, fixes the actions
    of the first round (used by the rollout player). Returns per-game counters.
    """
    p, G, P = b.p, b.G, b.P
    kinds = np.array([list(POLICY_NAMES).index(n) for n in names])
    over = np.zeros(G, bool) if over is None else over
    n_rounds = np.zeros(G, np.int64)
    acts = np.zeros((G, P, 6), np.int64)
    bonuses = np.zeros((G, P), np.int64)
    lost = np.zeros((G, P), np.int64)
    order = np.argsort(-b.prio if p.priority_order == "high_first" else b.prio, axis=1, kind="stable")
    allg = np.arange(G)
    for rnd in range(rounds):
        live = np.flatnonzero(~over)
        if live.size == 0:
            break
        choice = np.full((G, P), -1, np.int64)
        for seat in range(P):
            ss = np.full(live.size, seat)
            if names[seat] == "rollout" and not (rnd == 0 and first_choice is not None):
                choice[live, seat] = rollout_choice(b, live, seat, play_rounds, rng, *rollout)
            else:
                choice[live, seat] = choose_action(b, live, ss, "greedy" if names[seat] == "rollout" else names[seat],
                                                   rng)
        if rnd == 0 and first_choice is not None:
            fixed = first_choice >= 0
            choice[fixed] = first_choice[fixed]
        lap = np.full(G, -1, np.int64)
        done_any = np.zeros((G, 6), bool)
        for a in range(6):
            first = np.ones(G, bool)
            for r in range(P):
                seat = order[:, r]
                act = ~over & (choice[allg, seat] == a)
                if p.collision == "first_only":
                    lo = act & ~first
                    lost[lo, seat[lo]] += 1
                    act &= first
                gi = np.flatnonzero(act)
                if gi.size == 0:
                    continue
                s = seat[gi]
                bonus = first[gi] & (p.bonus and a in BONUS_ACTIONS)
                if a == Action.POLICY:
                    b.do_policy(gi, s, _by_kind(choose_card, b, gi, s, kinds, names, rng))
                elif a == Action.REST:
                    b.do_rest(gi, s, bonus)
                elif a == Action.SORTIE:
                    b.do_sortie(gi, s, _by_kind(choose_target, b, gi, s, kinds, names, rng))
                elif a == Action.TRAINING:
                    b.do_training(gi, s, bonus)
                elif a == Action.MEETING:
                    b.do_meeting(gi, s, bonus)
                else:
                    b.do_comms(gi, s, _by_kind(choose_deck, b, gi, s, kinds, names, rng), bonus)
                acts[gi, s, a] += 1
                bonuses[gi, s] += bonus
                first[gi] = False
                lap[gi] = s
            done_any[:, a] = ~first
        if p.unexecuted_events:
            gi = live[~done_any[live, Action.REST]]
            b.event_rest(gi, lap[gi])
            gi = live[~done_any[live, Action.COMMS]]
            b.event_comms(gi, lap[gi], _by_kind(choose_deck, b, gi, lap[gi], kinds, names, rng))
        b.end_of_round(live)
        n_rounds[live] += 1
        over[live] |= (b.n_done[live] >= p.end_cards).any(axis=1)
    return {"rounds": n_rounds, "over": over, "actions": acts, "bonuses": bonuses, "lost": lost}


def _setup(p: PanzerParams, t: Tables, n: int, rng: np.random.Generator, seat0: int) -> Batch:
    NW, NN, NP, P = t.w_att.size, t.n_neuroi, t.n_policies, p.n_players
    key = rng.random((n, NW))
    if seat0 >= 0:
        key[:, seat0] = -1.0
    witch = np.argsort(key, axis=1)[:, :P]
    n_perm = row_permutations(n, NN, rng=rng)
    p_perm = row_permutations(n, NP, rng=rng)
    R = NN + NP - P * p.start_neuroi - P * p.start_charge - p.start_open
    mix = row_permutations(n, R, rng=rng)
    return Batch(p, t, witch, n_perm, p_perm, mix)


@validate_params(params=Instance(PanzerParams, "a PanzerParams"), n_games=Int(1, MAX_GAMES), rng=Rng(),
                 cards=Unchecked("a CardSet, 'illustrative' or a path: loaded and checked in the body"),
                 policies=Unchecked("one player or one per seat (params.n_players): checked in the body"),
                 seat0_witch=Unchecked("None or a witch of cards: checked in the body, once cards is loaded"),
                 rollout_k=Int(1, 64), rollout_horizon=Int(1, 20), chunk_size=Int(1, 10**6))
def simulate(params: PanzerParams, n_games: int, *, rng: Any = None, cards: CardSet | str = BUILTIN_DATA,
             policies: Sequence[str] | str = "greedy", seat0_witch: str | None = None,
             rollout_k: int = 4, rollout_horizon: int = 3, chunk_size: int = CHUNK_SIZE) -> dict[str, npt.NDArray[Any]]:
    """Play ``n_games`` whole games.

    Parameters
    ----------
    params : PanzerParams
        The rules (open procedures at their declared defaults unless set).
    n_games : int
        1..MAX_GAMES.
    rng : int, SeedSequence, Generator or None
        Normalised with ``np.random.default_rng``; split into the setup and play streams.
    cards : CardSet or str, default "illustrative"
        A loaded card set, ``"illustrative"`` (built in, ILLUSTRATIVE numbers) or a path.
    policies : str or sequence of str, default "greedy"
        One player for every seat, or one per seat: ``random``, ``greedy``, ``rollout``.
    seat0_witch : str or None, default None
        Fix seat 0's witch (by name); the others are drawn from the rest. None: all drawn.
    rollout_k, rollout_horizon : int, default 4, 3
        Rollout player: random playouts per action (1..64), rounds per playout (1..20).
    chunk_size : int, default 4096
        Games per chunk (memory stays flat). 1..10**6.

    Returns
    -------
    dict of numpy arrays
        ``rounds`` (n,) int64; ``truncated`` (n,) bool (stopped at ``max_rounds``); ``witch``
        (n, P) int64; ``vp``, ``vp_neuroi``, ``vp_equipment``, ``vp_policy``, ``cards`` (n, P)
        int64; ``score`` (n, P) float64, the seat's share of the win (ties split; 2VS2: the
        team's share); ``actions`` (n, P, 6) int64 actions performed; ``bonuses`` (n, P) int64
        first-actor bonuses taken; ``lost`` (n, P) int64 actions lost to a collision.

    Raises
    ------
    ParamError, ParamTypeError
        For any argument of the wrong type or out of range (naming it), a set-up the card set
        cannot deal, or an unknown witch.
    """
    gen = rng  # a Generator (the declaration's Rng)
    if isinstance(cards, str):
        try:
            cards = load_cards(cards)
        except DataError as exc:
            raise ParamError("cards", cards, f"a valid card file ({exc})") from None
    elif not isinstance(cards, CardSet):
        raise ParamTypeError("cards", cards, "a CardSet, 'illustrative' or a path")
    P = params.n_players
    names = [policies] * P if isinstance(policies, str) else list(policies) if isinstance(policies, (list, tuple)) \
        else None
    if names is None or len(names) != P:
        raise ParamError("policies", policies, f"a player name or a list of {P} ({', '.join(POLICY_NAMES)})")
    for nm in names:
        check_choice("policies", nm, POLICY_NAMES)
    seat0 = -1
    if seat0_witch is not None:
        if not isinstance(seat0_witch, str) or seat0_witch not in [w.name for w in cards.witches]:
            raise ParamError("seat0_witch", seat0_witch, f"None or a witch of {cards.source}")
        seat0 = cards.witch_index(seat0_witch)
    check_setup(params, cards)
    t = tables_for(cards)
    setup_rng, play_rng = gen.spawn(2)
    parts: list[dict[str, npt.NDArray[Any]]] = []
    for start, stop in chunk_spans(n_games, chunk_size):
        m = stop - start
        b = _setup(params, t, m, setup_rng, seat0)
        r = play_rounds(b, names, play_rng, rounds=params.max_rounds, rollout=(rollout_k, rollout_horizon))
        parts.append(_summary(b, r))
    return {k: np.concatenate([q[k] for q in parts]) for k in parts[0]}


def _summary(b: Batch, r: Mapping[str, Any]) -> dict[str, npt.NDArray[Any]]:
    vn, ve, vo = b.vp()
    vp = vn + ve + vo
    p = b.p
    if p.teams:
        agg = np.add if p.team_score == "sum" else np.minimum
        team = np.stack([agg(vp[:, 0], vp[:, 2]), agg(vp[:, 1], vp[:, 3])], axis=1)
        top = team == team.max(axis=1, keepdims=True)
        share = top / top.sum(axis=1, keepdims=True)
        score = share[:, [0, 1, 0, 1]]
    else:
        top = vp == vp.max(axis=1, keepdims=True)
        score = top / top.sum(axis=1, keepdims=True)
    return {"rounds": r["rounds"], "truncated": ~r["over"], "witch": b.witch, "vp": vp, "vp_neuroi": vn,
            "vp_equipment": ve, "vp_policy": vo, "cards": b.cards(), "score": score.astype(float),
            "actions": r["actions"], "bonuses": r["bonuses"], "lost": r["lost"]}
