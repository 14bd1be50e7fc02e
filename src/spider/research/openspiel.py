"""Spider and Spiderette as an OpenSpiel game (the ``openspiel`` extra).

Examples:
    >>> import pyspiel
    >>> import spider.research.openspiel  # registers the game
    >>> game = pyspiel.load_game("spider_solitaire", {"game": "spiderette", "suits": 2})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())  # the first card of the deal
    (True, 26)

One player, imperfect information, explicit chance.  Chance deals each card at the moment the
player first sees it, drawn from the cards not yet seen, with probability proportional to how many
of each remain: the face-up card of each column at the start (one chance node per column), the
cards of each deal from the stock, and each face-down card when it turns.  A state therefore never
holds a hidden card that matters: its face-down cards and stock are placeholders that chance
overwrites before they show, so no bot can peek, MCTS included.

Chance outcomes are card indices 1..52 (:func:`spider.research.observe.card_index`).  Player
actions are the integers of :mod:`spider.env` (``0`` deals; ``1 + (src * columns + dst) * 13 +
count - 1``). The rules are the engine's: a move is played with :meth:`spider.Game.push`, and which
cards it turns is read from the engine (:attr:`spider.Game.last_effects`) on a copy before chance
is asked.

The game ends when it is won, when nothing is legal, or after ``max_moves`` player actions.  The
single return, in [0, 1], is the reveal score normalised: 100 per run removed plus 5 per card
turned, over the most there is; 1 exactly when the game is won.  :meth:`SpiderState.progress`
gives the same number before the end (for evaluators that cut play-outs short).

Parameters, given to ``pyspiel.load_game(GAME_NAME, {...})`` or in the game string
(``"spider_solitaire(game=spiderette,suits=2)"``):

- ``game``: ``"spider"`` (the default: two decks, ten columns, five deals) or ``"spiderette"``
  (one deck, seven columns, four deals);
- ``suits``: ``1`` (the default), ``2`` or ``4``;
- ``rule``: ``"classic"`` (the default: a group of cards moves together only when it is of one
  suit) or ``"flexible"`` (any descending group moves; Spider with two or four suits only, and
  one suit plays the same under both);
- ``max_moves``: an int of at least 1, default 1000 (:data:`spider.env.MAX_STEPS`): the player
  actions after which the game stops.

A bad value raises ``ValueError`` naming the accepted values; a value of the wrong type or an
unknown parameter raises OpenSpiel's own ``SpielError`` (``Wrong type for parameter suits``).

Observation: a string (:func:`visible_text`) and a tensor of 855 floats (Spider, one suit),
1,643 (two suits) or 3,219 (four suits), which holds everything the player sees and loses
nothing of it: each column's face-up cards as chains of descending ranks, suit-by-rank grids
(see :class:`SpiderObserver`), the numbers of the Gymnasium observation ``"onehot"`` and the
moves played.

Information state: a string only.  Every chance outcome is a card the player sees, so the
history (every player action and every card shown) is the player's whole recall; the
information state string is the visible position followed by that history, a perfect-recall
information state.  The game provides no information-state tensor
(``provides_information_state_tensor=False``): a fixed-size one would have to hold a history of
up to ``max_moves`` actions.  The observation tensor is the state of the game as far as its
future goes (the rules and the unseen cards depend on the visible position only), which is what
a network needs, but it does not recall how the position came about.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ModuleNotFoundError as error:  # pragma: no cover - the extra is installed for the tests
    raise ModuleNotFoundError(
        f"spider.research.openspiel needs OpenSpiel ({error.name} is missing): "
        "pip install 'spider-solitaire[openspiel]'",
        name=error.name,
    ) from None

from spider.cards import card_text
from spider.env import MAX_STEPS
from spider.game import Game
from spider.limits import excerpt
from spider.moves import DEAL, Action, action_text
from spider.options import Options
from spider.research.chains import PARTS, ChainEncoding
from spider.research.observe import CARD_TYPES, Layout, card_from_index, card_index

__all__ = [
    "GAME_NAME",
    "ProgressEvaluator",
    "SpiderGame",
    "SpiderObserver",
    "SpiderState",
    "make_bot",
    "play_deal",
    "true_outcome",
]

GAME_NAME: Final = "spider_solitaire"
"""The name to give ``pyspiel.load_game``."""

_DEFAULTS: Final[dict[str, Any]] = {
    "game": "spider",
    "suits": 1,
    "rule": "classic",
    "max_moves": MAX_STEPS,
}

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Spider Solitaire",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _options(params: dict[str, Any]) -> tuple[Options, int]:
    """The variant and ``max_moves`` of the game's parameters; ``ValueError`` names the game and
    what each parameter accepts."""
    unknown = sorted(set(params) - set(_DEFAULTS))
    if unknown:
        raise ValueError(
            f"unknown {GAME_NAME} parameters {excerpt(unknown)} (known: {sorted(_DEFAULTS)})"
        )
    merged = {**_DEFAULTS, **params}
    max_moves = merged["max_moves"]
    try:
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise ValueError(f"max_moves must be an int of at least 1, not {excerpt(max_moves)}")
        options = Options.make(merged["game"], merged["suits"], merged["rule"])
    except ValueError as error:
        raise ValueError(f"{GAME_NAME} parameters: {error}") from None
    return options, max_moves


class SpiderGame(pyspiel.Game):  # type: ignore[misc]
    """The game: a variant (``game``, ``suits``, ``rule``) and a bound on its length."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options, max_moves = _options(dict(params or {}))
        self.layout = Layout.of(options)
        self.max_moves = max_moves
        start = Game.from_options(options, 0)
        self._initial_down = sum(start.face_down)
        self._deck = Counter(card_index(card) for card in start.hidden_cards())
        for cards in start.position().face_up:
            self._deck.update(card_index(card) for card in cards)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.num_actions,
            max_chance_outcomes=CARD_TYPES + 1,
            num_players=1,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=max_moves,
        )
        super().__init__(_GAME_TYPE, info, {**_DEFAULTS, **(params or {})})

    @property
    def options(self) -> Options:
        """The variant."""
        return self.layout.options

    def deck(self) -> Counter[int]:
        """How many of each card index the variant's deck holds."""
        return Counter(self._deck)

    @property
    def initial_face_down(self) -> int:
        """How many cards lie face down at the start."""
        return self._initial_down

    def best_score(self) -> int:
        """The reveal score of a won game: 100 per run, 5 per card that starts face down."""
        return 100 * self.layout.runs + 5 * self._initial_down

    def __deepcopy__(self, memo: dict[int, Any]) -> SpiderGame:
        return self  # never changes after it is made

    def new_initial_state(self) -> SpiderState:
        """The state before the deal (a chance node)."""
        return SpiderState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SpiderObserver:
        """The observer of information states (``perfect_recall``) or observations."""
        if params:
            raise ValueError(f"{GAME_NAME} observers take no parameters, not {excerpt(params)}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return SpiderObserver(self.layout, self.max_moves, perfect_recall)


class _Play:
    """The changing part of a state, in one object that copies fast (OpenSpiel clones a Python
    state by deep-copying its attributes; the engine's game copies itself far faster)."""

    __slots__ = (
        "drawn",
        "game",
        "legal",
        "moves",
        "pending",
        "slots",
        "tops",
        "turning",
        "unseen",
    )

    def __init__(self, deck: Counter[int]) -> None:
        self.unseen = [deck[index] for index in range(CARD_TYPES + 1)]  # by card index
        self.tops: list[int] = []  # the start: the face-up card of each column dealt so far
        self.game: Game | None = None
        self.pending: Action | None = None  # the player action waiting for chance
        self.turning = False  # the pending action waits for the cards it turns
        self.slots: list[int] = []  # places (indices of Game.hidden_cards) chance fills
        self.drawn: list[int] = []  # the cards chance gave for them so far
        self.legal: list[int] | None = None  # the legal actions, once asked
        self.moves = 0  # player actions played

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        other = _Play.__new__(_Play)
        other.unseen = list(self.unseen)
        other.tops = list(self.tops)
        other.game = None if self.game is None else self.game.copy(history=False)
        other.pending = self.pending
        other.turning = self.turning
        other.slots = list(self.slots)
        other.drawn = list(self.drawn)
        other.legal = self.legal  # never changed in place
        other.moves = self.moves
        return other


class SpiderState(pyspiel.State):  # type: ignore[misc]
    """A state: the visible position, and any chance outcomes an action still waits for."""

    def __init__(self, game: SpiderGame) -> None:
        super().__init__(game)
        self._spider = game
        self._p = _Play(game.deck())

    # ---- reading the state ----

    @property
    def game(self) -> Game | None:
        """The engine's game (None during the deal); its hidden cards are placeholders."""
        return self._p.game

    @property
    def dealt_tops(self) -> tuple[int, ...]:
        """During the deal, the face-up cards chance dealt so far, column by column."""
        return tuple(self._p.tops)

    @property
    def pending_action(self) -> Action | None:
        """The player action whose cards chance is dealing now, or None."""
        return self._p.pending

    def chance_place(self) -> tuple[str, int]:
        """Where the next chance card goes: ``("top", column)`` during the deal, else
        ``("hidden", index)``, an index into :meth:`spider.Game.hidden_cards` of the position
        before the pending action.  ``ValueError`` when the state is not a chance node."""
        if self._p.game is None:
            return ("top", len(self._p.tops))
        if len(self._p.drawn) < len(self._p.slots):
            return ("hidden", self._p.slots[len(self._p.drawn)])
        raise ValueError("not a chance node")

    def unseen(self) -> Counter[int]:
        """How many of each card index the player has not seen yet (nor chance dealt)."""
        return Counter({index: count for index, count in enumerate(self._p.unseen) if count})

    def progress(self) -> float:
        """The reveal score normalised to [0, 1] (the return, were the game to end now)."""
        game = self._p.game
        if game is None:
            return 0.0
        turned = self._spider.initial_face_down - sum(game.face_down)
        score = 100 * len(game.completed) + 5 * turned
        return score / self._spider.best_score()

    # ---- OpenSpiel's API ----

    def current_player(self) -> int:
        """0, ``CHANCE`` or ``TERMINAL``."""
        if self._p.game is None or self._p.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return 0

    def is_terminal(self) -> bool:
        """Won, nothing legal, or ``max_moves`` player actions played."""
        game = self._p.game
        if game is None or self._p.pending is not None:
            return False
        return game.is_won or self._p.moves >= self._spider.max_moves or not self._legal_now()

    def _legal_now(self) -> list[int]:
        if self._p.legal is None:
            assert self._p.game is not None
            self._p.legal = self._spider.layout.legal_actions(self._p.game)
        return self._p.legal

    def _legal_actions(self, player: int) -> list[int]:
        assert player == 0
        return list(self._legal_now())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card index not seen yet, with its share of the unseen cards."""
        unseen = self._p.unseen
        total = sum(unseen)
        return [(index, count / total) for index, count in enumerate(unseen) if count]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._apply_chance(int(action))
            return
        if action not in self._legal_now():
            raise ValueError(f"action {excerpt(action)} is not legal here")
        self._begin(self._spider.layout.action_to_move(int(action)))

    def _apply_chance(self, index: int) -> None:
        if not 1 <= index <= CARD_TYPES or self._p.unseen[index] < 1:
            raise ValueError(f"chance outcome {index} is not an unseen card")
        self._p.unseen[index] -= 1
        card = card_from_index(index)
        if self._p.game is None:
            self._p.tops.append(card)
            if len(self._p.tops) == self._spider.layout.columns:
                self._deal_start()
            return
        self._p.drawn.append(card)
        if len(self._p.drawn) == len(self._p.slots):
            self._place_drawn()
            if self._p.turning:  # the cards that turn are dealt: play the action for good
                assert self._p.game is not None and self._p.pending is not None
                self._p.game.push(self._p.pending)
                self._finish()
            else:  # the stock's cards are dealt: play the deal, which may turn cards
                self._play()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return card_text(card_from_index(int(action)))
        return action_text(self._spider.layout.action_to_move(int(action)))

    def returns(self) -> list[float]:
        """The normalised reveal score at the end, 0 before."""
        return [self.progress() if self.is_terminal() else 0.0]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpiderState:
        """A state the player cannot tell from this one: a copy, since every card dealt so far
        was seen and nothing else is fixed yet."""
        return self.clone()  # type: ignore[no-any-return]

    def __str__(self) -> str:
        if self._p.game is None:
            return "dealing: " + " ".join(card_text(card) for card in self._p.tops)
        return str(self._p.game)

    # ---- playing an action through the engine ----

    def _deal_start(self) -> None:
        """Every column's top card is dealt: build the game, face-down cards and stock in a
        fixed order (placeholders, see the module's docstring)."""
        options = self._spider.options
        unseen = self._p.unseen
        rest = iter([card_from_index(i) for i, count in enumerate(unseen) for _ in range(count)])
        columns = []
        for size, top in zip(options.initial_columns, self._p.tops, strict=True):
            columns.append([next(rest) for _ in range(size - 1)] + [top])
        face_down = [size - 1 for size in options.initial_columns]
        game = Game(options, columns, face_down, list(rest), [], 500, 0, None, undo_limit=1)
        self._p.game = game

    def _begin(self, action: Action) -> None:
        self._p.pending = action
        if action == DEAL:  # chance deals the stock's cards first: they decide what turns
            assert self._p.game is not None
            position = self._p.game.position()
            base = sum(position.face_down)
            dealt = min(len(position.columns), len(position.stock))
            self._p.slots, self._p.drawn = list(range(base, base + dealt)), []
        else:
            self._play()

    def _play(self) -> None:
        """Play the pending action through the engine; when it turns a card, take it back and
        wait for chance to deal the cards that turn (the top face-down card of each column the
        engine turned), in the order the engine turned them."""
        game = self._p.game
        assert game is not None and self._p.pending is not None
        game.push(self._p.pending)
        effects = game.last_effects
        assert effects is not None
        if not effects.flipped:
            self._finish()
            return
        game.undo()
        ends, total = [], 0
        for down in game.face_down:
            total += down
            ends.append(total - 1)  # the top face-down card of each column
        self._p.slots, self._p.drawn = [ends[column] for column in effects.flipped], []
        self._p.turning = True

    def _place_drawn(self) -> None:
        """Put the drawn cards in their places, swapping the placeholders there elsewhere."""
        game = self._p.game
        assert game is not None
        hidden = game.hidden_cards()
        fixed: set[int] = set()
        for slot, card in zip(self._p.slots, self._p.drawn, strict=True):
            if hidden[slot] != card:
                other = next(
                    i
                    for i, value in enumerate(hidden)
                    if value == card and i not in fixed and i != slot
                )
                hidden[slot], hidden[other] = hidden[other], hidden[slot]
            fixed.add(slot)
        self._p.game = game.with_hidden_cards(hidden)

    def _finish(self) -> None:
        self._p.pending = None
        self._p.turning = False
        self._p.slots, self._p.drawn = [], []
        self._p.legal = None
        self._p.moves += 1


def true_outcome(state: SpiderState, game: Game) -> int:
    """The chance outcome that the real deal ``game`` gives at ``state``'s chance node.

    ``game`` must show the same position as ``state`` (before its pending action): the card
    is read where chance would put it.  For playing a numbered deal with OpenSpiel's bots."""
    kind, place = state.chance_place()
    if kind == "top":
        return card_index(game.position().face_up[place][0])
    return card_index(game.hidden_cards()[place])


def play_deal(
    deal: Game, bot: str, simulations: int, rollout: int, seed: int = 0, max_moves: int = MAX_STEPS
) -> int:
    """Play ``deal`` (a game at its start, changed in place) with OpenSpiel's ``bot``
    (:func:`make_bot`): the bot sees the OpenSpiel state, whose chance nodes get the deal's own
    cards as they show (:func:`true_outcome`).  Stops when the state ends (won, stuck, or
    ``max_moves`` actions); returns the actions played."""
    if deal.moves:
        raise ValueError("play_deal needs a game at its start")
    options = deal.options
    params = {"game": options.game, "suits": options.suits, "rule": options.rule}
    spiel = pyspiel.load_game(GAME_NAME, {**params, "max_moves": max_moves})
    player = make_bot(spiel, bot, simulations, rollout, seed)
    state = spiel.new_initial_state()
    while state.is_chance_node():
        state.apply_action(true_outcome(state, deal))
    actions = 0
    while not state.is_terminal():
        action = int(player.step(state))
        state.apply_action(action)
        while state.is_chance_node():
            state.apply_action(true_outcome(state, deal))
        deal.push(spiel.layout.action_to_move(action))
        actions += 1
    if spiel.layout.visible(deal) != spiel.layout.visible(state.game):
        raise RuntimeError("the OpenSpiel state and the deal went apart")
    return actions


class ProgressEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """A random play-out of at most ``length`` player actions (chance drawn as the game draws
    it), valued by :meth:`SpiderState.progress` where it stops: OpenSpiel's random roll-out,
    cut short, since a random player seldom ends a game of Spider within a search budget."""

    def __init__(self, length: int, seed: int = 0) -> None:
        if isinstance(length, bool) or not isinstance(length, int) or length < 0:
            raise ValueError(f"the play-out length is an int of at least 0, not {excerpt(length)}")
        self.length = length
        self._random = random.Random(seed)

    def evaluate(self, state: SpiderState) -> Any:
        """The progress at the end of one random play-out from ``state``."""
        working = state.clone()
        choose, played = self._random.choice, 0
        while True:
            if working.is_chance_node():  # the cards of an action show before it counts
                outcomes, chances = zip(*working.chance_outcomes(), strict=True)
                working.apply_action(self._random.choices(outcomes, chances)[0])
            elif working.is_terminal() or played == self.length:
                return np.array([working.progress()])
            else:
                working.apply_action(choose(working.legal_actions()))
                played += 1

    def prior(self, state: SpiderState) -> list[tuple[int, float]]:
        """Uniform over the legal actions (chance's own odds at a chance node)."""
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


BOTS: Final = ("ismcts", "mcts")
"""The OpenSpiel searches :func:`make_bot` builds."""


def make_bot(
    game: SpiderGame, name: str, simulations: int, rollout: int, seed: int, uct_c: float = 2.0
) -> Any:
    """OpenSpiel's ``ISMCTSBot`` (``"ismcts"``) or ``MCTSBot`` (``"mcts"``) with ``simulations``
    searches per decision and :class:`ProgressEvaluator` play-outs of ``rollout`` actions.

    ISMCTS keys its nodes by the observation string: the visible position with its move count,
    all the future depends on, so transpositions share a node and no key repeats along a path.
    """
    if name not in BOTS:
        raise ValueError(f"a bot is one of {', '.join(BOTS)}, not {excerpt(name)}")
    if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1:
        raise ValueError(f"simulations must be an int of at least 1, not {excerpt(simulations)}")
    random_state = np.random.RandomState(seed)
    evaluator = ProgressEvaluator(rollout, seed)
    if name == "ismcts":
        return ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c,
            simulations,
            random_state=random_state,
            use_observation_string=True,
        )
    return mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=False, random_state=random_state)


def visible_text(state: SpiderState) -> str:
    """What the player sees of ``state`` on one line (``moves 3 deals 5 runs S | ## 5S 4S | ..``);
    during the deal, the cards dealt so far."""
    game = state.game
    if game is None:
        return "dealing: " + " ".join(card_text(card) for card in state.dealt_tops)
    position = game.position()
    columns = (
        " ".join(["#" * down, *map(card_text, cards)]).strip()
        for down, cards in zip(position.face_down, position.face_up, strict=True)
    )
    runs = "".join(game.completed) or "-"
    return f"moves {game.moves} deals {game.deals_left} runs {runs} | " + " | ".join(columns)


class SpiderObserver:
    """OpenSpiel's observer: what the player sees, as a tensor and as a string.

    The observation tensor (float32, :attr:`pieces` gives each piece's shape) is the chain
    encoding of :mod:`spider.research.chains` (the parts ``face_down``, ``face_up`` as chains of
    descending ranks, ``deals_left`` and ``completed``, end to end: the numbers of the Gymnasium
    observation ``"onehot"``) followed by ``moves`` (1): the player actions played over
    ``max_moves`` (the game stops at 1).  While chance deals the first face-up cards, only those
    are set.

    With ``perfect_recall`` (the information state) the tensor is empty, as the game provides no
    information-state tensor, and the string adds the whole history.

    Examples:
        >>> game = pyspiel.load_game(GAME_NAME, {"suits": 2})
        >>> observer = game.make_py_observer()
        >>> observer.pieces["face_up"], observer.tensor.size  # 10 columns, 6 chains, 2 suits
        ((10, 6, 2, 13), 1643)
    """

    def __init__(self, layout: Layout, max_moves: int, perfect_recall: bool) -> None:
        self.layout = layout
        self.max_moves = max_moves
        self.perfect_recall = perfect_recall
        self.encoding = ChainEncoding(layout)
        self.pieces: dict[str, tuple[int, ...]] = {}
        if not perfect_recall:
            self.pieces = {**self.encoding.shapes, "moves": (1,)}
        self.tensor = np.zeros(
            sum(int(np.prod(shape)) for shape in self.pieces.values()), np.float32
        )
        self.dict: dict[str, Any] = {}
        if not perfect_recall:
            self._parts = self.encoding.views(self.tensor)
            self.dict = {name: self._parts[name].reshape(self.pieces[name]) for name in PARTS}
            self.dict["moves"] = self.tensor[self.encoding.size :]

    def set_from(self, state: SpiderState, player: int) -> None:
        """Fill the tensor from the position ``player`` sees in ``state``."""
        if self.perfect_recall:
            return
        self.tensor.fill(0)
        game = state.game
        if game is None:  # the deal: the face-up card of each column dealt so far
            for column, card in enumerate(state.dealt_tops):
                self.encoding.write_face_up(self._parts, column, [card])
            return
        self.encoding.write_position(self._parts, game.position(), game.deals_left)
        self.tensor[self.encoding.size] = game.moves / self.max_moves

    def string_from(self, state: SpiderState, player: int) -> str:
        """The visible position as one line: the move count, deals left, runs removed, then each
        column as ``#`` per face-down card and its face-up cards (:func:`visible_text`); the
        information state adds the history, every action and every card chance showed."""
        text = visible_text(state)
        if self.perfect_recall:
            text += "\nhistory: " + " ".join(map(str, state.history()))
        return text


pyspiel.register_game(_GAME_TYPE, SpiderGame)
