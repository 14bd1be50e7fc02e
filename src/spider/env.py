"""A reset/step environment for bots and learning agents, in the shape of Gymnasium's API.

Examples:
    >>> from spider.env import SpiderEnv
    >>> env = SpiderEnv("spiderette", suits=1)
    >>> observation, info = env.reset(seed=7)
    >>> action = info["legal_actions"][0]
    >>> env.action_to_string(action)
    'deal'
    >>> observation, reward, terminated, truncated, info = env.step(action)
    >>> reward, terminated, truncated
    (-0.001, False, False)

Actions are integers, as in OpenSpiel: ``0`` deals, and a card move ``(src, dst, count)`` is
``1 + (src * columns + dst) * 13 + count - 1``, so the action space has a fixed size
(:attr:`SpiderEnv.num_actions`: 1,301 in Spider, 638 in Spiderette) and each step's legal actions
come as a list and as a mask.  :meth:`SpiderEnv.action_to_string` writes one in the move notation
of ``docs/notation.md``.

The observation is what a player sees, never a face-down card or the stock order (see
:class:`Observation`).  The reward is the progress of the game by default
(:func:`progress_reward`: 0.05 a card turned face up, 1 a run removed, 0.001 off every action),
or, with ``reward="score"``, the change of the game's score.  ``env.game`` is the
underlying :class:`~spider.Game`, with every card: a bot that reads it is not playing fair.
:meth:`SpiderEnv.hint_action` asks the quick hint (:mod:`spider.solver.hint.quick`) for one action
and :meth:`SpiderEnv.think_line` asks "Think harder" (:mod:`spider.solver.think.harder`) for a line
of them; both read only what the player sees.

The standard library only: no Gymnasium needed.  An agent written for Gymnasium's ``Env`` calls
``reset(seed=...)`` and ``step(action)`` the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from spider.cards import card_text
from spider.game import Game
from spider.limits import excerpt
from spider.moves import DEAL, Action, Move, action_from_text, action_text
from spider.rules import CARD_MOVES, MOST_COLUMNS, MOVE_STRIDE, RUN_LENGTH
from spider.shuffle import MAX_NUMBER
from spider.solver.hint.quick import hint_action
from spider.solver.think.harder import think

__all__ = [
    "DEAL_ACTION",
    "HISTORY_KEPT",
    "MAX_STEPS",
    "PROGRESS_PER_CARD",
    "PROGRESS_PER_RUN",
    "REWARDS",
    "STEP_COST",
    "Observation",
    "SpiderEnv",
    "StepResult",
    "Transition",
    "action_count",
    "decode_action",
    "encode_action",
    "legal_action_numbers",
    "progress_reward",
]

DEAL_ACTION: Final = 0
"""The integer action that deals a row from the stock."""

MAX_STEPS: Final = 1000
"""Steps after which an episode is truncated, by default: the same in :class:`SpiderEnv`, the
Gymnasium environments (``max_episode_steps``) and the OpenSpiel game (``max_moves``)."""

HISTORY_KEPT: Final = 1000
"""How many actions the environment's game keeps in its history (its undo limit).  Never used to
undo: the history is where the hint and "Think harder" read the positions passed since the last
card turned (:func:`spider.solver.hint.quick.visited_positions`), so that a bot following them does
not lead back to one.  Bounded, so that a long episode's memory stays small."""


REWARDS: Final = ("progress", "score")
"""The rewards an environment can give (its ``reward=`` keyword): ``"progress"``
(:func:`progress_reward`, the default) or ``"score"`` (the change of the game's score)."""

PROGRESS_PER_CARD: Final = 0.05
"""Progress reward for each card turned face up (5 points of the reveal scoring, over 100)."""

PROGRESS_PER_RUN: Final = 1.0
"""Progress reward for each run removed (100 points of the reveal scoring, over 100)."""

STEP_COST: Final = 0.001
"""What every action (move or deal) takes off the progress reward."""


def progress_reward(cards_turned: int, runs_removed: int) -> float:
    """The progress reward of an action that turned ``cards_turned`` cards face up and removed
    ``runs_removed`` runs: ``0.05 * cards_turned + 1.0 * runs_removed - 0.001``.

    It is the reveal scoring's gain (5 a card turned, 100 a run removed) in units of one run,
    less a small cost per action:

    - It never goes dead.  The standard score cannot drop below 0 in Spider, so once about 500
      actions have cost their point each, every action is worth 0 and only a removed run still
      pays; here an action that makes no progress always costs :data:`STEP_COST`.
    - It cannot be farmed.  A face-down card turns face up once and a removed run never comes
      back, so the positive part of an episode's return is bounded by the deal (Spider: 44 cards
      and 8 runs, 10.2; Spiderette: 21 cards and 4 runs, 5.05), and moving cards back and forth
      earns nothing but the step cost.
    - The win needs no bonus of its own: a game is won exactly when its last run is removed, so
      every won game has the largest progress a deal allows.  Dealing earns nothing by itself
      (the stock's cards come face up, none turns), so it is played when it helps, not for pay.
    - The step cost is small next to the progress: 1,000 actions without progress cost as much
      as one run, and the discounted cost of going on for ever (discount 0.99) is at most 0.1,
      two cards.  It breaks ties towards shorter play and makes an idle action worth less than
      progress.

    Examples:
        >>> progress_reward(0, 0), progress_reward(1, 0), progress_reward(1, 1)
        (-0.001, 0.049, 1.049)
    """
    # Rounded so that equal progress gives equal floats (0.05 + 1.0 - 0.001 is 1.0490000000000002).
    gain = PROGRESS_PER_CARD * cards_turned + PROGRESS_PER_RUN * runs_removed
    return round(gain - STEP_COST, 6)


@dataclass(frozen=True, slots=True)
class Observation:
    """What the player sees: no face-down card, no stock order.

    ``columns`` holds each column's face-up cards, bottom to top, as engine ints
    (``suit_index << 4 | rank``, see :mod:`spider.cards`); ``face_down`` how many cards lie face
    down under them; ``completed`` the suits of the runs removed, in order.
    """

    columns: tuple[tuple[int, ...], ...]
    face_down: tuple[int, ...]
    deals_left: int
    completed: tuple[str, ...]
    score: int
    moves: int

    @classmethod
    def of(cls, game: Game) -> Observation:
        """The observation of ``game``."""
        # The engine's ints: building Card objects for every card of the table would make each
        # step several times slower.
        position = game.position()
        return cls(
            columns=position.face_up,
            face_down=position.face_down,
            deals_left=game.deals_left,
            completed=game.completed,
            score=game.score,
            moves=game.moves,
        )

    def column_texts(self) -> tuple[tuple[str, ...], ...]:
        """The face-up cards as text (``'10H'``), column by column."""
        return tuple(tuple(card_text(card) for card in column) for column in self.columns)


StepResult = tuple[Observation, float, bool, bool, dict[str, Any]]
"""``(observation, reward, terminated, truncated, info)``, as Gymnasium's ``step`` returns."""


class Transition(NamedTuple):
    """What one action did (:meth:`SpiderEnv.play`): a step without its observation and
    ``info``, for adapters that build their own."""

    action: Action
    """The move or :data:`~spider.DEAL` played."""
    reward: float
    terminated: bool
    truncated: bool
    cards_turned: int
    """Cards turned face up by the action."""
    runs_removed: int
    """Runs removed by the action."""
    legal_actions: list[int]
    """The legal actions after it, sorted."""


def action_count(columns: int) -> int:
    """The size of the action encoding of a table of ``columns`` columns: the deal, then every
    (source, destination, count)."""
    return 1 + columns * columns * RUN_LENGTH


def decode_action(action: int, columns: int) -> Action:
    """The move (or :data:`~spider.DEAL`) of an integer action on ``columns`` columns.

    ``0`` deals; ``1 + (src * columns + dst) * 13 + count - 1`` moves ``count`` cards.
    ``TypeError`` for a non-int, ``ValueError`` outside the encoding.
    """
    if isinstance(action, bool) or not isinstance(action, int):
        raise TypeError(f"an action is an int, not {type(action).__name__}")
    if not 0 <= action < action_count(columns):
        raise ValueError(f"action {excerpt(action)} is outside 0..{action_count(columns) - 1}")
    if action == DEAL_ACTION:
        return DEAL
    pair, count_less_one = divmod(action - 1, RUN_LENGTH)
    src, dst = divmod(pair, columns)
    count = count_less_one + 1
    if columns <= MOST_COLUMNS:  # every game: the move made once, not a new one per step
        return CARD_MOVES[(src * MOST_COLUMNS + dst) * MOVE_STRIDE + count]
    return Move(src, dst, count)


def encode_action(action: Action, columns: int) -> int:
    """The integer of a move or of :data:`~spider.DEAL` on ``columns`` columns (the inverse of
    :func:`decode_action`); ``TypeError`` for another object, ``ValueError`` out of range."""
    if action == DEAL:
        return DEAL_ACTION
    if not isinstance(action, Move):
        raise TypeError(f"expected a Move or 'deal', not {excerpt(action)}")
    src, dst, count = action
    if not (0 <= src < columns and 0 <= dst < columns and 1 <= count <= RUN_LENGTH):
        raise ValueError(f"{excerpt(action)} has no action number with {columns} columns")
    return 1 + (src * columns + dst) * RUN_LENGTH + count - 1


def legal_action_numbers(game: Game, columns: int) -> list[int]:
    """The legal actions of ``game`` as integers (:func:`encode_action`), sorted: the deal, 0,
    first when it is allowed."""
    # encode_action's formula without its checks: the engine's moves are in range.
    actions = sorted(
        [
            1 + (src * columns + dst) * RUN_LENGTH + count - 1
            for src, dst, count in game.legal_moves()
        ]
    )
    if game.can_deal:
        actions.insert(0, DEAL_ACTION)
    return actions


class SpiderEnv:
    """One game at a time of one variant, played through integer actions.

    ``reward`` is ``"progress"`` (the default, :func:`progress_reward`) or ``"score"`` (the change
    of the game's score: under standard scoring -1 an action, +100 a run removed, and never below
    0 in Spider, so that late in a long game most actions are worth 0).

    ``max_steps`` bounds an episode (``truncated`` becomes true when it is reached; None for no
    bound; by default :data:`MAX_STEPS`, as in the Gymnasium and OpenSpiel adapters).  An episode
    terminates when the game is won or when no action is legal at all.

    ``info`` (from :meth:`reset` and :meth:`step`) holds ``legal_actions`` (sorted ints),
    ``action_mask`` (a tuple of ``num_actions`` booleans), ``code`` (the deal's game code),
    ``won``, ``cards_turned`` and ``runs_removed`` (by the last action only, 0 after a reset),
    and since the reset ``cards_turned_total``, ``runs_removed_total`` and ``episode_return``
    (the sum of the rewards).
    """

    def __init__(
        self,
        game: str = "spider",
        suits: int = 1,
        rule: str = "classic",
        scoring: str = "standard",
        max_steps: int | None = MAX_STEPS,
        reward: str = "progress",
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be 'progress' or 'score', not {excerpt(reward)}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be at least 1 or None, not {excerpt(max_steps)}")
        # Deal once to check the options (a bad variant fails here, not at the first reset).
        probe = Game.new(game, suits=suits, rule=rule, number=0, scoring=scoring, undo_limit=0)
        self.variant = probe.options
        self.columns = len(probe.columns)
        self.num_actions = action_count(self.columns)
        self.max_steps = max_steps
        self.reward = reward
        self._reward_is_score = reward == "score"
        self._rng = random.Random()
        self._game: Game | None = None
        self._code: str | None = None
        self._steps = 0
        self._over = False
        self._legal: list[int] = []
        self._mask = [False] * self.num_actions
        self._marked: tuple[int, ...] = ()  # the actions self._mask holds True
        self._cards_turned_total = 0
        self._runs_removed_total = 0
        self._return: float = 0

    def __repr__(self) -> str:
        v = self.variant
        return (
            f"SpiderEnv({v.game!r}, suits={v.suits}, rule={v.rule!r}, scoring={v.scoring!r}, "
            f"max_steps={self.max_steps!r}, reward={self.reward!r})"
        )

    # ---- actions ----

    def action_to_move(self, action: int) -> Action:
        """The move (or :data:`~spider.DEAL`) of an integer action; ``ValueError`` if outside."""
        return decode_action(action, self.columns)

    def move_to_action(self, action: Action) -> int:
        """The integer of a move or of :data:`~spider.DEAL`; ``ValueError`` if it has none here."""
        return encode_action(action, self.columns)

    def action_to_string(self, action: int) -> str:
        """An integer action in move notation: ``'deal'``, ``'ad'``, ``'bc3'``."""
        return action_text(self.action_to_move(action))

    def string_to_action(self, text: str) -> int:
        """The integer of an action written in move notation."""
        return self.move_to_action(action_from_text(text))

    # ---- episodes ----

    @property
    def game(self) -> Game:
        """The game being played (every card of it); :meth:`reset` must have been called."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    def legal_actions(self) -> list[int]:
        """The legal actions of the current position, sorted."""
        return legal_action_numbers(self.game, self.columns)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start an episode on a new deal.

        ``seed`` reseeds the environment's generator, which draws the deal number; the same seed
        gives the same deal.  ``options={"number": n}`` plays deal ``n`` instead, and
        ``options={"position": text}`` the position written in text notation (``Game.to_text``,
        every card of it; ``ValueError`` when it is bad or of another variant).
        """
        if seed is not None:
            self._rng = random.Random(seed)
        options = dict(options or {})
        number = options.pop("number", None)
        text = options.pop("position", None)
        if options:
            raise ValueError(
                f"unknown reset options: {sorted(options)} (known: 'number', 'position')"
            )
        if number is not None and text is not None:
            raise ValueError("reset options: give 'number' or 'position', not both")
        if text is not None:
            self._game = self._from_text(text)
        else:
            if number is None:
                number = self._rng.randrange(MAX_NUMBER + 1)
            self._game = Game.from_options(self.variant, number, undo_limit=HISTORY_KEPT)
        self._code = self._game.code
        self._steps = 0
        self._over = False
        self._legal = legal_action_numbers(self._game, self.columns)
        self._cards_turned_total = self._runs_removed_total = 0
        self._return = 0
        return Observation.of(self._game), self._info(runs_removed=0, cards_turned=0)

    def _from_text(self, text: object) -> Game:
        if not isinstance(text, str):
            raise ValueError(f"reset option 'position' is a text, not {type(text).__name__}")
        game = Game.from_text(text, undo_limit=HISTORY_KEPT)
        if game.options != self.variant:
            raise ValueError(
                f"reset option 'position' is a game of {game.options}, not of {self.variant}"
            )
        return game

    def step(self, action: int) -> StepResult:
        """Play ``action``; raises :class:`~spider.IllegalMove` (and changes nothing) when the
        rules refuse it, and ``RuntimeError`` once the episode is over."""
        played = self.play(action)
        info = self._info(runs_removed=played.runs_removed, cards_turned=played.cards_turned)
        observation = Observation.of(self.game)
        return observation, played.reward, played.terminated, played.truncated, info

    def play(self, action: int) -> Transition:
        """:meth:`step` without the observation and ``info``: play ``action`` and say what it
        did (the reward, the end, the counts, the legal actions after it).  The same errors."""
        game = self.game
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        played = decode_action(action, self.columns)
        score = game.score
        face_down = sum(game.face_down)
        runs = len(game.completed)
        game.push(played)
        self._steps += 1
        runs_removed = len(game.completed) - runs
        cards_turned = face_down - sum(game.face_down)
        legal = self._legal = legal_action_numbers(game, self.columns)
        terminated = game.is_won or not legal
        truncated = not terminated and self._steps == self.max_steps
        self._over = terminated or truncated
        if self._reward_is_score:
            reward: float = game.score - score
        else:
            reward = progress_reward(cards_turned, runs_removed)
        self._cards_turned_total += cards_turned
        self._runs_removed_total += runs_removed
        self._return += reward
        return Transition(played, reward, terminated, truncated, cards_turned, runs_removed, legal)

    @property
    def cards_turned_total(self) -> int:
        """Cards turned face up since the last :meth:`reset`."""
        return self._cards_turned_total

    @property
    def runs_removed_total(self) -> int:
        """Runs removed since the last :meth:`reset`."""
        return self._runs_removed_total

    @property
    def episode_return(self) -> float:
        """The sum of the rewards since the last :meth:`reset`."""
        return self._return

    def hint_action(self) -> int | None:
        """The action the quick hint recommends (:func:`spider.solver.hint.quick.hint_action`, from
        the visible position only), as an integer: its best move, or the deal when it offers no move
        and a deal is allowed; None when it has nothing to suggest or the game is won.  A bot
        that plays it at every step plays as a player who follows every hint."""
        action = hint_action(self.game)
        return None if action is None else self.move_to_action(action)

    def think_line(
        self, *, iterations: int | None = None, time_limit: float | None = None, seed: int = 0
    ) -> list[int]:
        """The line of actions "Think harder" recommends (:func:`spider.solver.think.harder.think`,
        from the visible position only), as integers: its first is the best action, and the
        whole line may be played (it turns a card or removes a run only at its end).  Empty when
        no action helps.  ``ValueError`` for a bad budget, a negative seed or a game already won.

        The search knows the positions passed since the last card turned (the game keeps
        :data:`HISTORY_KEPT` actions of history), so the line never leads back to one.
        """
        report = think(self.game, iterations=iterations, time_limit=time_limit, seed=seed)
        return [self.move_to_action(action) for action in report.line]

    def info(self) -> dict[str, Any]:
        """The ``info`` of the current position, as if no action had just been played."""
        self._legal = legal_action_numbers(self.game, self.columns)
        return self._info(runs_removed=0, cards_turned=0)

    def render(self) -> str:
        """The table as text, face-down cards hidden (``str(game)``)."""
        return str(self.game)

    def _info(self, runs_removed: int, cards_turned: int) -> dict[str, Any]:
        legal = self._legal
        mask = self._mask  # kept from step to step: only the actions that change are written
        for action in self._marked:
            mask[action] = False
        for action in legal:
            mask[action] = True
        self._marked = tuple(legal)
        return {
            "legal_actions": list(legal),
            "action_mask": tuple(mask),
            "code": self._code,
            "won": self.game.is_won,
            "runs_removed": runs_removed,
            "cards_turned": cards_turned,
            "cards_turned_total": self._cards_turned_total,
            "runs_removed_total": self._runs_removed_total,
            "episode_return": self._return,
        }
