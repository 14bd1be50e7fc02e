"""Spider and Spiderette as Gymnasium environments (the ``gym`` extra).

Examples:
    >>> import gymnasium
    >>> import spider.research.gym  # registers the environments
    >>> env = gymnasium.make("spider_solitaire/Spiderette-v0", suits=2)
    >>> observation, info = env.reset(seed=7)
    >>> sorted(observation), observation["face_up"].shape, env.action_space
    (['completed', 'deals_left', 'face_down', 'face_up'], (7, 52), Discrete(638))
    >>> action = int(info["action_mask"].nonzero()[0][-1])  # a legal action
    >>> observation, reward, terminated, truncated, info = env.step(action)

``spider_solitaire/Spider-v0`` (keyword arguments ``suits=``, ``rule=``, ``scoring=``,
``reward=``, ``observation=``) and ``spider_solitaire/Spiderette-v0`` (the same but ``rule=``)
are registered when this module is imported;
``gymnasium.make("spider.research.gym:spider_solitaire/Spider-v0")`` imports it for you.
Both stop an episode after 1,000 steps (``max_episode_steps=`` to change it).

The rules, the integer actions and the rewards are :class:`spider.env.SpiderEnv`'s; this module
gives them Gymnasium's spaces.  ``reward="progress"`` (the default) pays each action's progress
(:func:`spider.env.progress_reward`: 0.05 a card turned face up, 1 a run removed, 0.001 off
every action); ``reward="score"`` pays the change of the game's score.  The observation is what
a player sees (:mod:`spider.research.observe`); with ``observation="indices"`` (the default):

- ``face_up``: columns x depth, each column's face-up cards bottom to top as card indices
  ``suit * 13 + rank`` (1..52; spades 0, hearts 1, diamonds 2, clubs 3), 0 past the last card;
- ``face_down``: how many cards lie face down in each column;
- ``deals_left``: the deals left in the stock;
- ``completed``: the suit (1..4) of each run removed, in order, 0 for runs not removed yet.

``observation="onehot"`` gives the same parts one-hot, as flat ``uint8`` vectors for a network,
each column's face-up cards as chains of descending ranks: the numbers of OpenSpiel's
observation tensor, but its move count (:mod:`spider.research.chains`,
:mod:`spider.research.arrays`; Stable-Baselines3's ``MultiInputPolicy`` takes them without a
warning).

``info["action_mask"]`` (and :meth:`SpiderGymEnv.action_masks`) marks the legal actions.  An
action of the space that the rules refuse changes nothing: its reward is ``illegal_reward``
(-1) and ``info["illegal"]`` holds the engine's code (``"no-target"``, ``"stock-empty"``, ...).
``info`` also holds ``cards_turned`` and ``runs_removed`` (by the last action only) and, since
the reset, ``cards_turned_total``, ``runs_removed_total`` and ``episode_return`` (the sum of the
rewards, refused actions' included), with ``legal_actions``, ``code``, ``won``, ``score`` and
``moves``.
"""

from __future__ import annotations

from typing import Any, Final

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ModuleNotFoundError as error:  # pragma: no cover - the extra is installed for the tests
    raise ModuleNotFoundError(
        f"spider.research.gym needs Gymnasium ({error.name} is missing): "
        "pip install 'spider-solitaire[gym]'",
        name=error.name,
    ) from None

from numpy.typing import NDArray

from spider.env import MAX_STEPS, SpiderEnv, Transition
from spider.errors import IllegalMove
from spider.limits import excerpt
from spider.moves import DEAL
from spider.research.arrays import observation_arrays
from spider.research.observe import Layout
from spider.research.picture import table_array
from spider.shuffle import MAX_NUMBER

__all__ = ["ENV_IDS", "Observation", "SpiderGymEnv", "register_envs"]

ENV_IDS: Final = ("spider_solitaire/Spider-v0", "spider_solitaire/Spiderette-v0")
"""The registered environments."""

RENDER_MODES: Final = ("ansi", "rgb_array")
"""The render modes: the table as text, or as a picture (an RGB array)."""

MAX_EPISODE_STEPS: Final = MAX_STEPS
"""Steps after which an episode is truncated, as in :class:`~spider.env.SpiderEnv`."""

Observation = dict[str, Any]
"""``{"face_up", "face_down", "deals_left", "completed"}`` (see the module's docstring)."""


class SpiderGymEnv(gymnasium.Env[Observation, np.int64]):
    """One variant of Spider as a Gymnasium environment.

    ``game``, ``suits``, ``rule`` and ``scoring`` choose the variant; ``reward`` is
    ``"progress"`` (the default) or ``"score"`` (see :class:`spider.env.SpiderEnv`; ``ValueError``
    for anything else); ``illegal_reward`` is the reward of an action the rules refuse;
    ``observation`` is ``"indices"`` (the default) or ``"onehot"`` (see
    :mod:`spider.research.arrays`; ``ValueError`` for anything else).
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str = "spider",
        suits: int = 1,
        rule: str = "classic",
        scoring: str = "standard",
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        reward: str = "progress",
        observation: str = "indices",
    ) -> None:
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', not {excerpt(render_mode)}"
            )
        self._env = SpiderEnv(
            game, suits=suits, rule=rule, scoring=scoring, max_steps=None, reward=reward
        )
        self.layout = Layout.of(self._env.variant)
        self._arrays = observation_arrays(self.layout, observation)
        self.observation_kind = observation
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.action_space = spaces.Discrete(self.layout.num_actions)
        self.observation_space = self._arrays.space()
        self._mask = np.zeros(self.layout.num_actions, np.int8)
        self._return = 0.0
        self._code: str | None = None

    @property
    def spider_env(self) -> SpiderEnv:
        """The standard-library environment underneath (``.game`` holds every card)."""
        return self._env

    def action_to_string(self, action: int) -> str:
        """An action in move notation (``'deal'``, ``'ad'``, ``'bc3'``)."""
        return self._env.action_to_string(int(action))

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of the current position as booleans (for masked policies)."""
        return self._mask.astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new deal drawn by the environment's generator (``seed`` reseeds it), or
        ``options={"number": n}`` for deal ``n``, ``{"position": text}`` for a position."""
        super().reset(seed=seed)
        options = dict(options or {})
        if "number" not in options and "position" not in options:
            options["number"] = int(self.np_random.integers(MAX_NUMBER + 1))
        _, info = self._env.reset(options=options)
        self._arrays.write_all(self._env.game)
        self._return = 0.0
        self._code = info["code"]
        return self._arrays.observation(), self._info(info["legal_actions"], 0, 0)

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action``; an action the rules refuse changes nothing (``info["illegal"]``)."""
        if isinstance(action, (int, np.integer)):  # what agents pass: checked without the space
            known = 0 <= action < self.layout.num_actions
        else:
            known = self.action_space.contains(action)
        if not known:
            raise ValueError(f"action {excerpt(action)} is not in {self.action_space}")
        try:
            played = self._env.play(int(action))
        except IllegalMove as error:
            self._return += self.illegal_reward
            legal = self._env.legal_actions()
            info = self._info(legal, 0, 0, illegal=error.code)
            return self._arrays.observation(), self.illegal_reward, False, False, info
        self._write(played)
        reward = float(played.reward)
        self._return += reward
        info = self._info(played.legal_actions, played.cards_turned, played.runs_removed)
        return self._arrays.observation(), reward, played.terminated, played.truncated, info

    def render(self) -> str | NDArray[np.uint8] | None:
        """The table, face-down cards hidden: text for ``render_mode="ansi"``, a picture as an
        ``(H, W, 3)`` ``uint8`` array (800 x 600, :mod:`spider.research.picture`) for
        ``"rgb_array"``, None (with a warning) when made without a render mode."""
        if self.render_mode == "rgb_array":
            return table_array(self._env.game)
        if self.render_mode == "ansi":
            return self._env.render()
        gymnasium.logger.warn("render() needs render_mode='ansi' or 'rgb_array' (set when made)")
        return None

    def _write(self, played: Transition) -> None:
        """Write again the parts of the observation ``played`` changed."""
        game = self._env.game
        position = game.position()
        if played.action == DEAL:
            self._arrays.write_columns(position, range(self.layout.columns))
            self._arrays.write_deals_left(game.deals_left)
        else:
            src, dst, _ = played.action
            self._arrays.write_columns(position, (src, dst))
        if played.runs_removed:
            self._arrays.write_completed(position)

    def _info(
        self, legal: list[int], cards_turned: int, runs_removed: int, illegal: str | None = None
    ) -> dict[str, Any]:
        mask = self._mask
        mask.fill(0)
        mask[legal] = 1
        env = self._env
        game = env.game
        return {
            "legal_actions": legal,
            "action_mask": mask.copy(),
            "code": self._code,
            "won": game.is_won,
            "cards_turned": cards_turned,
            "runs_removed": runs_removed,
            "cards_turned_total": env.cards_turned_total,
            "runs_removed_total": env.runs_removed_total,
            "episode_return": self._return,
            "illegal": illegal,
            "score": game.score,
            "moves": game.moves,
        }


def register_envs() -> None:
    """Register ``spider_solitaire/Spider-v0`` and ``spider_solitaire/Spiderette-v0`` (done when
    this module is imported; registering again does nothing)."""
    variants = {"Spider-v0": "spider", "Spiderette-v0": "spiderette"}
    for env_id in ENV_IDS:
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point="spider.research.gym:SpiderGymEnv",
            kwargs={"game": variants[env_id.split("/")[1]]},
            max_episode_steps=MAX_EPISODE_STEPS,
            vector_entry_point="spider.research.vector:SpiderVectorEnv",
        )


register_envs()
