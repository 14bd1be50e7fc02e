"""Many Gymnasium environments stepped together, several to a worker process (the ``gym`` extra).

Gymnasium's ``AsyncVectorEnv`` runs one environment a process, so every step of every
environment is a round trip between processes, which costs more than the step itself (tens of
microseconds).  :class:`SpiderVectorEnv` gives each of ``workers`` processes a share of the
``num_envs`` environments: one round trip steps them all, observations and masks come back
through shared memory, and the speed grows with the processes.  With ``workers=0`` (the
default) the environments step in this process, with nothing to start.

It is the vector entry point of the registered environments, so ``gymnasium.make_vec`` makes it
(``vectorization_mode="vector_entry_point"``, or no mode at all):

Examples:
    >>> import gymnasium
    >>> import spider.research.gym  # registers the environments
    >>> envs = gymnasium.make_vec("spider_solitaire/Spiderette-v0", num_envs=3, suits=1)
    >>> observations, info = envs.reset(seed=7)
    >>> observations["face_up"].shape, info["action_mask"].shape
    ((3, 7, 52), (3, 638))
    >>> actions = [legal[-1] for legal in info["legal_actions"]]
    >>> observations, rewards, terminated, truncated, info = envs.step(actions)
    >>> rewards.shape, info["episode_return"].shape
    ((3,), (3,))
    >>> envs.close()

Each environment is a :class:`~spider.research.gym.SpiderGymEnv` under Gymnasium's time limit
(``max_episode_steps``, 1,000 by default).  As in Gymnasium's own vector environments, an
environment whose episode ended resets on the next ``step`` and ignores its action there
(``AutoresetMode.NEXT_STEP``), and every ``info`` key comes as an array over the environments
with its ``_key`` flags.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any, Final, SupportsFloat

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ModuleNotFoundError as error:  # pragma: no cover - the extra is installed for the tests
    raise ModuleNotFoundError(
        f"spider.research.vector needs Gymnasium ({error.name} is missing): "
        "pip install 'spider-solitaire[gym]'",
        name=error.name,
    ) from None

from numpy.typing import NDArray

from spider.env import MAX_STEPS
from spider.limits import excerpt
from spider.research.gym import SpiderGymEnv

__all__ = ["SpiderVectorEnv"]

NUMBERS: Final = (
    ("cards_turned", np.int64),
    ("runs_removed", np.int64),
    ("cards_turned_total", np.int64),
    ("runs_removed_total", np.int64),
    ("episode_return", np.float64),
    ("won", np.bool_),
    ("score", np.int64),
    ("moves", np.int64),
)
"""The ``info`` numbers, each batched in an array of its type."""

OBJECTS: Final = ("legal_actions", "code", "illegal")
"""The ``info`` values of no fixed size, batched in object arrays."""


def _buffer_specs(space: spaces.Dict, num_envs: int, num_actions: int) -> dict[str, Any]:
    """Name -> (shape, dtype) of every array the workers write: the observation's parts, the
    masks, the rewards and ends, and the ``info`` numbers."""
    specs: dict[str, Any] = {}
    for name, part in space.spaces.items():
        if isinstance(part, spaces.Discrete):
            specs[f"observation.{name}"] = ((num_envs,), np.dtype(np.int64))
        else:
            shape = (num_envs, *(part.shape or ()))
            specs[f"observation.{name}"] = (shape, np.dtype(part.dtype))
    specs["action_mask"] = ((num_envs, num_actions), np.dtype(np.int8))
    specs["reward"] = ((num_envs,), np.dtype(np.float64))
    specs["terminated"] = ((num_envs,), np.dtype(np.bool_))
    specs["truncated"] = ((num_envs,), np.dtype(np.bool_))
    for name, dtype in NUMBERS:
        specs[f"info.{name}"] = ((num_envs,), np.dtype(dtype))
    return specs


def _views(raw: dict[str, Any], specs: dict[str, Any]) -> dict[str, NDArray[Any]]:
    """NumPy arrays over the raw (shared or private) buffers."""
    return {
        name: np.frombuffer(raw[name], dtype).reshape(shape)
        for name, (shape, dtype) in specs.items()
    }


class _Share:
    """The environments ``first`` to ``first + count - 1`` of a vector env, stepped together
    (in a worker process, or in this one), writing into the shared arrays."""

    def __init__(
        self,
        first: int,
        count: int,
        make_kwargs: dict[str, Any],
        max_episode_steps: int,
        arrays: dict[str, NDArray[Any]],
    ) -> None:
        self.rows = range(first, first + count)
        self.envs = [
            gymnasium.wrappers.TimeLimit(SpiderGymEnv(**make_kwargs), max_episode_steps)
            for _ in self.rows
        ]
        self.arrays = arrays
        self.ended = [False] * count

    def reset(self, seeds: Sequence[int | None], options: dict[str, Any] | None) -> list[Any]:
        """Reset every environment; the ``info`` values of no fixed size."""
        objects = []
        for index, (env, row) in enumerate(zip(self.envs, self.rows, strict=True)):
            observation, info = env.reset(seed=seeds[row], options=options)
            objects.append(self._write(row, observation, 0.0, False, False, info))
            self.ended[index] = False
        return objects

    def step(self, actions: Sequence[int]) -> list[Any]:
        """Step every environment (reset those whose episode ended on the last step)."""
        objects = []
        for index, (env, row) in enumerate(zip(self.envs, self.rows, strict=True)):
            reward: SupportsFloat = 0.0
            if self.ended[index]:
                observation, info = env.reset()
                terminated = truncated = False
            else:
                observation, reward, terminated, truncated, info = env.step(actions[index])
            self.ended[index] = terminated or truncated
            objects.append(self._write(row, observation, reward, terminated, truncated, info))
        return objects

    def _write(
        self,
        row: int,
        observation: dict[str, Any],
        reward: SupportsFloat,
        terminated: bool,
        truncated: bool,
        info: dict[str, Any],
    ) -> tuple[Any, ...]:
        arrays = self.arrays
        for name, value in observation.items():
            arrays[f"observation.{name}"][row] = value
        arrays["action_mask"][row] = info["action_mask"]
        arrays["reward"][row] = float(reward)
        arrays["terminated"][row] = terminated
        arrays["truncated"][row] = truncated
        for name, _ in NUMBERS:
            arrays[f"info.{name}"][row] = info[name]
        return tuple(info[name] for name in OBJECTS)


def _work(
    connection: Connection,
    first: int,
    count: int,
    make_kwargs: dict[str, Any],
    max_episode_steps: int,
    raw: dict[str, Any],
    specs: dict[str, Any],
) -> None:
    """A worker process: step its share of the environments on each command."""
    share = _Share(first, count, make_kwargs, max_episode_steps, _views(raw, specs))
    while True:
        command, data = connection.recv()
        if command == "close":
            connection.close()
            return
        try:
            result = share.step(data) if command == "step" else share.reset(*data)
        except Exception as error:  # handed to the parent, which raises it
            connection.send(("error", error))
        else:
            connection.send(("ok", result))


class SpiderVectorEnv(VectorEnv[dict[str, Any], NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` environments of one variant, stepped together by ``workers`` processes.

    ``workers`` processes (0, the default: none, the environments step in this process; at most
    ``num_envs``) each step a share of the environments; ``context`` is the
    :mod:`multiprocessing` start method (``"fork"``, ``"forkserver"``, ``"spawn"``; None for the
    platform's default).  The other keywords are :class:`~spider.research.gym.SpiderGymEnv`'s,
    and ``max_episode_steps`` truncates each episode.  ``ValueError`` for a bad count, and for a
    ``render_mode``: it draws nothing (Gymnasium's ``"sync"`` and ``"async"`` modes render).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        game: str = "spider",
        suits: int = 1,
        rule: str = "classic",
        scoring: str = "standard",
        reward: str = "progress",
        observation: str = "indices",
        illegal_reward: float = -1.0,
        max_episode_steps: int = MAX_STEPS,
        workers: int = 0,
        context: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        _check_counts(num_envs, workers, max_episode_steps)
        if render_mode is not None:
            raise ValueError(
                f"render_mode must be None here, not {excerpt(render_mode)}: SpiderVectorEnv "
                "draws nothing (make_vec(..., vectorization_mode='sync') renders each environment)"
            )
        make_kwargs: dict[str, Any] = {
            "game": game,
            "suits": suits,
            "rule": rule,
            "scoring": scoring,
            "reward": reward,
            "observation": observation,
            "illegal_reward": illegal_reward,
        }
        single = SpiderGymEnv(**make_kwargs)  # checks the keywords here, before any process
        self.num_envs = num_envs
        space = single.observation_space
        if not isinstance(space, spaces.Dict):  # pragma: no cover - SpiderGymEnv's is a Dict
            raise TypeError(f"expected a Dict observation space, not {space}")
        self.single_observation_space = space
        self.single_action_space = single.action_space
        self.observation_space = batch_space(space, num_envs)
        self.action_space = batch_space(single.action_space, num_envs)
        self._parts = list(space.spaces)
        specs = _buffer_specs(space, num_envs, single.layout.num_actions)
        self._connections: list[Connection] = []
        self._processes: list[Any] = []
        self._shares = _split(num_envs, max(workers, 1))
        self._local: _Share | None = None
        if workers == 0:
            raw: dict[str, Any] = {name: bytearray(_size(spec)) for name, spec in specs.items()}
            self._arrays = _views(raw, specs)
            self._local = _Share(0, num_envs, make_kwargs, max_episode_steps, self._arrays)
        else:
            self._start(make_kwargs, max_episode_steps, specs, context)

    def _start(
        self,
        make_kwargs: dict[str, Any],
        max_episode_steps: int,
        specs: dict[str, Any],
        context: str | None,
    ) -> None:
        """Start one worker process a share, the arrays in shared memory."""
        ctx = multiprocessing.get_context(context)
        raw = {name: ctx.RawArray("b", _size(spec)) for name, spec in specs.items()}
        self._arrays = _views(raw, specs)
        for first, count in self._shares:
            parent, child = ctx.Pipe()
            process = ctx.Process(  # type: ignore[attr-defined]
                target=_work,
                args=(child, first, count, make_kwargs, max_episode_steps, raw, specs),
                daemon=True,
            )
            process.start()
            child.close()
            self._connections.append(parent)
            self._processes.append(process)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Reset every environment: ``seed`` an int (environment ``i`` gets ``seed + i``), a
        list of one seed (or None) an environment, or None; ``options`` go to each."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + index for index in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset needs {self.num_envs} seeds, not {len(seeds)}")
        objects = self._run("reset", [(seeds, options)] * max(len(self._connections), 1))
        return self._observation(), self._info(objects)

    def step(
        self, actions: Any
    ) -> tuple[dict[str, Any], NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        """Step every environment with its action (one per environment)."""
        actions = [int(action) for action in np.asarray(actions).reshape(-1)]
        if len(actions) != self.num_envs:
            raise ValueError(f"step needs {self.num_envs} actions, not {len(actions)}")
        if self._local is not None:
            shares: list[Any] = [actions]
        else:
            shares = [actions[first : first + count] for first, count in self._shares]
        objects = self._run("step", shares)
        arrays = self._arrays
        return (
            self._observation(),
            arrays["reward"].copy(),
            arrays["terminated"].copy(),
            arrays["truncated"].copy(),
            self._info(objects),
        )

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker processes."""
        for connection in self._connections:
            with contextlib.suppress(OSError):  # a worker already gone
                connection.send(("close", None))
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
        for connection in self._connections:
            connection.close()
        self._connections, self._processes = [], []

    def _run(self, command: str, data: list[Any]) -> list[Any]:
        """Send ``command`` to every share and return their values of no fixed size, in order."""
        if self._local is not None:
            if command == "step":
                return self._local.step(data[0])
            return self._local.reset(*data[0])
        for connection, item in zip(self._connections, data, strict=True):
            connection.send((command, item))
        objects: list[Any] = []
        errors = []
        for connection in self._connections:
            status, result = connection.recv()
            if status == "ok":
                objects += result
            else:
                errors.append(result)
        if errors:
            raise errors[0]
        return objects

    def _observation(self) -> dict[str, Any]:
        arrays = self._arrays
        return {name: arrays[f"observation.{name}"].copy() for name in self._parts}

    def _info(self, objects: list[tuple[Any, ...]]) -> dict[str, Any]:
        present = np.ones(self.num_envs, np.bool_)
        info: dict[str, Any] = {"action_mask": self._arrays["action_mask"].copy()}
        for name, _ in NUMBERS:
            info[name] = self._arrays[f"info.{name}"].copy()
        for position, name in enumerate(OBJECTS):
            values = np.empty(self.num_envs, object)
            for index, row in enumerate(objects):
                values[index] = row[position]  # one at a time: a list stays one value
            info[name] = values
        for name in list(info):
            info[f"_{name}"] = present.copy()
        return info


def _check_counts(num_envs: object, workers: object, max_episode_steps: object) -> None:
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be an int of at least 1, not {excerpt(num_envs)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= num_envs:
        raise ValueError(
            f"workers must be an int from 0 to num_envs ({num_envs}), not {excerpt(workers)}"
        )
    if (
        isinstance(max_episode_steps, bool)
        or not isinstance(max_episode_steps, int)
        or max_episode_steps < 1
    ):
        raise ValueError(
            f"max_episode_steps must be an int of at least 1, not {excerpt(max_episode_steps)}"
        )


def _size(spec: tuple[tuple[int, ...], np.dtype[Any]]) -> int:
    """Bytes of an array of ``(shape, dtype)``."""
    shape, dtype = spec
    return dtype.itemsize * int(np.prod(shape))


def _split(num_envs: int, workers: int) -> list[tuple[int, int]]:
    """(first, count) of each worker's share: as even as can be, in order."""
    size, extra = divmod(num_envs, workers)
    shares, first = [], 0
    for worker in range(workers):
        count = size + (worker < extra)
        shares.append((first, count))
        first += count
    return shares
