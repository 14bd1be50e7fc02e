"""Train MaskablePPO on one-suit Spiderette; compare it with random play and the quick hint.

    pip install 'spider-solitaire[train]'
    python examples/train_maskable_ppo.py --steps 300000 --out ppo-run

sb3-contrib's MaskablePPO plays the Gymnasium environment (``spider_solitaire/Spiderette-v0``, or
``--game spider``) with its default reward (progress: cards turned and runs removed) and
observation, through ``MultiInputPolicy`` (two layers of 256), choosing only among the legal
actions (the environment's ``action_masks()``, through sb3-contrib's ``ActionMasker``).
``--envs`` games are played side by side, ``--rollout`` actions each between updates.

Training plays deals drawn by the environments' generators (``--seed``), never one of the
evaluation deals: deals ``--eval-first`` onwards, 1000..1049 by default.  The agent plays them
at the start, then after every ``--eval-every`` steps (at the first update past them), and at
the end, drawing each action from its policy as in training (the argmax of a policy this young
often moves cards back and forth); the random player (uniform among the legal actions) and the
quick hint (:func:`spider.solver.hint.quick.hint_action`, which reads only the visible position,
as :meth:`spider.env.SpiderEnv.hint_action` offers it; its game ends when it has nothing to
suggest) play the same deals.  Every game stops after ``--max-actions`` actions.

Prints the evaluation table; writes ``DIR/learning-curve.png``, ``DIR/curve.json`` (the points
and baselines) and the trained agent ``DIR/model.zip`` (``MaskablePPO.load``).  Progress goes to
stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import matplotlib
    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv
except ModuleNotFoundError as error:
    raise SystemExit(
        f"examples/train_maskable_ppo.py needs {error.name}: pip install 'spider-solitaire[train]'"
    ) from None

matplotlib.use("Agg")
from matplotlib import pyplot

import spider.research.gym  # noqa: F401  (registers the environments)
from spider import Game
from spider.research.observe import Layout
from spider.shuffle import MAX_NUMBER

ENV_IDS = {"spiderette": "spider_solitaire/Spiderette-v0", "spider": "spider_solitaire/Spider-v0"}

Observation = dict[str, Any]
Chooser = Callable[[list[gymnasium.Env[Any, Any]], list[Observation]], list[int]]


@dataclass(frozen=True)
class Result:
    """One player's games on the evaluation deals, per game."""

    games: int
    mean_return: float
    runs_removed: float
    cards_turned: float
    won: int


@dataclass(frozen=True)
class Point:
    """A point of the learning curve: the evaluation after ``steps`` training steps, and the
    mean return of the last (up to 100) training games, None before any ended."""

    steps: int
    evaluation: Result
    training_return: float | None


class TrainingDeals(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Resets to deal numbers drawn by the environment's generator, never one of ``held_out``."""

    def __init__(self, env: gymnasium.Env[Any, Any], held_out: range) -> None:
        super().__init__(env)
        self.held_out = held_out

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if seed is not None:
            self.env.reset(seed=seed)  # seeds the generator that draws the numbers below
        number = int(self.np_random.integers(MAX_NUMBER + 1))
        while number in self.held_out:
            number = int(self.np_random.integers(MAX_NUMBER + 1))
        return self.env.reset(options={**(options or {}), "number": number})


def legal_mask(env: gymnasium.Env[Any, Any]) -> np.ndarray:
    """The legal actions of ``env``'s position, as booleans."""
    mask: np.ndarray = env.unwrapped.action_masks()  # type: ignore[attr-defined]
    return mask


def turnable(args: argparse.Namespace) -> int:
    """How many cards lie face down at the start of a deal of the variant."""
    return sum(Game.new(args.game, suits=args.suits, number=0).face_down)


def runs(args: argparse.Namespace) -> int:
    """How many runs a game of the variant removes when won."""
    return Layout.of(Game.new(args.game, suits=args.suits, number=0).options).runs


def make_env(args: argparse.Namespace) -> gymnasium.Env[Any, Any]:
    """The environment of the chosen variant, episodes cut at ``--max-actions``."""
    return gymnasium.make(
        ENV_IDS[args.game],
        suits=args.suits,
        observation=args.observation,
        max_episode_steps=args.max_actions,
    )


def play(args: argparse.Namespace, deals: Sequence[int], choose: Chooser) -> Result:
    """Play each numbered deal to its end (won, stuck, the action limit, or ``choose`` giving -1
    for a game: the hint with nothing to suggest), all deals side by side."""
    envs = [make_env(args) for _ in deals]
    starts = [env.reset(options={"number": n}) for env, n in zip(envs, deals, strict=True)]
    observations = [observation for observation, _ in starts]
    ends = [info for _, info in starts]
    live = list(range(len(deals)))
    while live:
        actions = choose([envs[i] for i in live], [observations[i] for i in live])
        still = []
        for i, action in zip(live, actions, strict=True):
            if action < 0:
                continue
            observations[i], _, terminated, truncated, ends[i] = envs[i].step(action)
            if not (terminated or truncated):
                still.append(i)
        live = still
    for env in envs:
        env.close()
    return Result(
        games=len(deals),
        mean_return=float(np.mean([info["episode_return"] for info in ends])),
        runs_removed=float(np.mean([info["runs_removed_total"] for info in ends])),
        cards_turned=float(np.mean([info["cards_turned_total"] for info in ends])),
        won=sum(bool(info["won"]) for info in ends),
    )


def random_player(seed: int) -> Chooser:
    """Uniform among the legal actions."""
    rng = np.random.default_rng(seed)

    def choose(envs: list[gymnasium.Env[Any, Any]], _: list[Observation]) -> list[int]:
        return [int(rng.choice(np.flatnonzero(legal_mask(env)))) for env in envs]

    return choose


def hint_player(envs: list[gymnasium.Env[Any, Any]], _: list[Observation]) -> list[int]:
    """The quick hint's action; -1 (stop) when it has nothing to suggest."""
    actions = [env.unwrapped.spider_env.hint_action() for env in envs]  # type: ignore[attr-defined]
    return [-1 if action is None else action for action in actions]


def agent_player(model: MaskablePPO, seed: int) -> Chooser:
    """The agent's action drawn from its policy among the legal actions (as in training), every
    game's in one batch; the draws are the same for the same model and seed."""
    generator = torch.Generator().manual_seed(seed)

    def choose(envs: list[gymnasium.Env[Any, Any]], observations: list[Observation]) -> list[int]:
        batch = {key: np.stack([o[key] for o in observations]) for key in observations[0]}
        masks = np.stack([legal_mask(env) for env in envs])
        with torch.no_grad():
            tensors, _ = model.policy.obs_to_tensor(batch)
            policy = model.policy.get_distribution(tensors, action_masks=masks)
            actions = torch.multinomial(policy.distribution.probs, 1, generator=generator)
        return [int(a) for a in actions[:, 0]]

    return choose


class Curve(BaseCallback):
    """Plays the evaluation deals at the start, then after the first update past every
    ``--eval-every`` steps, and at the end: the points of the learning curve."""

    def __init__(self, args: argparse.Namespace, deals: Sequence[int]) -> None:
        super().__init__()
        self.args, self.deals = args, deals
        self.points: list[Point] = []
        self.started = time.monotonic()

    def _on_rollout_start(self) -> None:
        due = not self.points or self.num_timesteps >= self.points[-1].steps + self.args.eval_every
        last = self.num_timesteps + self.args.envs * self.args.rollout >= self.args.steps
        if due and not last:  # the last update is measured at the end
            self.measure()

    def _on_step(self) -> bool:
        return True

    def _on_training_end(self) -> None:
        if self.points[-1].steps != self.num_timesteps:
            self.measure()

    def measure(self) -> None:
        """Play the evaluation deals with the agent as it is now."""
        assert isinstance(self.model, MaskablePPO)
        result = play(self.args, self.deals, agent_player(self.model, self.args.seed))
        episodes = [float(episode["r"]) for episode in self.model.ep_info_buffer or []]
        training = float(np.mean(episodes)) if episodes else None
        self.points.append(Point(self.num_timesteps, result, training))
        if sys.stderr.isatty():
            print(
                f"\r{self.num_timesteps:,}/{self.args.steps:,} steps, "
                f"{time.monotonic() - self.started:.0f} s: return {result.mean_return:.2f}, "
                f"cards turned {result.cards_turned:.1f}, runs {result.runs_removed:.2f}, "
                f"won {result.won}/{result.games}   ",
                end="",
                file=sys.stderr,
                flush=True,
            )


def train(args: argparse.Namespace, deals: Sequence[int]) -> tuple[MaskablePPO, Curve]:
    """Train MaskablePPO on ``--envs`` environments side by side; the model and its curve."""
    held_out = range(min(deals), max(deals) + 1)

    def one_env() -> gymnasium.Env[Any, Any]:
        return Monitor(ActionMasker(TrainingDeals(make_env(args), held_out), legal_mask))

    vec_env = DummyVecEnv([one_env] * args.envs)
    vec_env.seed(args.seed)
    model = MaskablePPO(
        "MultiInputPolicy",
        vec_env,
        n_steps=args.rollout,
        batch_size=256,
        n_epochs=4,
        gamma=0.99,
        ent_coef=0.01,
        learning_rate=3e-4,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device=args.device,
        verbose=0,
    )
    curve = Curve(args, deals)
    model.learn(total_timesteps=args.steps, callback=curve)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    return model, curve


def draw(curve: Curve, baselines: dict[str, Result], args: argparse.Namespace, path: Path) -> None:
    """The learning curve: return, cards turned and runs removed per game against training steps,
    the baselines as horizontal lines."""
    steps = [point.steps / 1000 for point in curve.points]
    figure, panels = pyplot.subplots(1, 3, figsize=(10, 3.3), dpi=80)
    fields = (
        ("return (progress reward)", "return per game", "mean_return"),
        (f"cards turned (of {turnable(args)})", "cards per game", "cards_turned"),
        (f"runs removed (of {runs(args)})", "runs per game", "runs_removed"),
    )
    for axes, (title, label, field) in zip(panels, fields, strict=True):
        values = [getattr(point.evaluation, field) for point in curve.points]
        lines = [getattr(result, field) for result in baselines.values()]
        axes.plot(steps, values, "o-", ms=3, label="MaskablePPO")
        for (name, result), style in zip(baselines.items(), (":", "--"), strict=True):
            axes.axhline(getattr(result, field), ls=style, color="k", lw=1, label=name)
        axes.set_xlabel("training steps (thousands of actions)")
        axes.set_ylabel(label)
        axes.set_title(title, fontsize=9)
        axes.set_ylim(bottom=min(0, *values, *lines))
        axes.grid(alpha=0.3)
    panels[0].legend(fontsize=8)
    suits = f"{args.suits} suit{'s' if args.suits > 1 else ''}"
    figure.suptitle(
        f"{args.game.capitalize()}, {suits}: the mean of deals {min(curve.deals)}.."
        f"{max(curve.deals)} (never trained on), at most {args.max_actions} actions a game",
        fontsize=10,
    )
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


def table(results: dict[str, Result]) -> str:
    """The evaluation as a Markdown table."""
    lines = [
        "| player | games | won | runs removed / game | cards turned / game | mean return |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        lines.append(
            f"| {name} | {r.games} | {r.won} | {r.runs_removed:.2f} | {r.cards_turned:.1f} "
            f"| {r.mean_return:.1f} |"
        )
    return "\n".join(lines)


def positive(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {value}")
    return value


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=positive, default=300_000, help="training steps")
    parser.add_argument("--out", type=Path, default=Path("ppo-run"), help="output folder")
    parser.add_argument("--seed", type=int, default=0, help="training deals and network")
    parser.add_argument("--game", choices=sorted(ENV_IDS), default="spiderette")
    parser.add_argument("--suits", type=int, choices=(1, 2, 4), default=1)
    parser.add_argument("--eval-deals", type=positive, default=50, help="how many")
    parser.add_argument("--eval-first", type=int, default=1000, help="first evaluation deal")
    parser.add_argument("--eval-every", type=positive, default=25_000, help="steps")
    parser.add_argument("--max-actions", type=positive, default=200, help="a game, all players")
    parser.add_argument("--envs", type=positive, default=8, help="environments side by side")
    parser.add_argument("--rollout", type=positive, default=256, help="steps per env per update")
    parser.add_argument("--observation", choices=("indices", "onehot"), default="indices")
    parser.add_argument("--device", default="cpu", help="PyTorch device")
    args = parser.parse_args(argv)
    if not 0 <= args.eval_first <= MAX_NUMBER - args.eval_deals + 1:
        parser.error(f"--eval-first must lie in 0..{MAX_NUMBER - args.eval_deals + 1}")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(argv)
    torch.set_num_threads(1)
    deals = range(args.eval_first, args.eval_first + args.eval_deals)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    model, curve = train(args, deals)
    seconds = time.monotonic() - started
    baselines = {
        "random": play(args, deals, random_player(args.seed)),
        "quick hint": play(args, deals, hint_player),
    }
    results = {"MaskablePPO": curve.points[-1].evaluation, **baselines}
    draw(curve, baselines, args, args.out / "learning-curve.png")
    model.save(args.out / "model.zip")
    record = {
        "points": [asdict(point) for point in curve.points],
        "baselines": {name: asdict(result) for name, result in baselines.items()},
    }
    (args.out / "curve.json").write_text(json.dumps(record, indent=1) + "\n")
    print(
        f"{args.game}, {args.suits} suit(s): {curve.points[-1].steps:,} training steps in "
        f"{seconds:.0f} s (evaluations included); "
        f"evaluation deals {deals.start}..{deals.stop - 1}, "
        f"at most {args.max_actions} actions a game"
    )
    print(table(results))


if __name__ == "__main__":
    main()
