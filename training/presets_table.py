"""The table of the shipped presets, made from the presets themselves.

``training/README.md`` ("Presets and speed") holds the table this module
prints (``python -m training.presets_table``) between the markers
:data:`BEGIN` and :data:`END`; ``tests/docs/test_presets_table.py``
regenerates it and fails when the page and the presets drift apart. Each
row is a preset loaded as its trainer loads it (defaults included), so the
table says what a run of it does.
"""

from __future__ import annotations

from training import available_presets, batched_ppo, expert_iteration, ppo_selfplay, settings

BEGIN = "<!-- presets table: python -m training.presets_table -->"
"""The line before the table in ``training/README.md``."""
END = "<!-- end of presets table -->"
"""The line after it."""

HEADER = (
    "| preset | trainer | steps | environments | network | opponents | evaluation |\n"
    "|---|---|---|---|---|---|---|"
)


def _weights(weights: dict[str, float]) -> str:
    """``pool 0.6, greedy 0.1``: the non-zero weights in the preset's order."""
    return ", ".join(f"{name} {weight:g}" for name, weight in weights.items() if weight)


def _network(hidden_sizes: list[int], inputs: str, hint_head: bool) -> str:
    head = " + hint head" if hint_head else ""
    return f"{'×'.join(str(n) for n in hidden_sizes)}, `{inputs}`{head}"


def _evaluation(every: int, deals: int, opponents: list[str]) -> str:
    if not every:
        return "none"
    return f"every {every:,} steps, {deals} deals vs {' and '.join(opponents)}"


def preset_row(name: str) -> str:
    """The table's row of preset ``name``."""
    path = settings.preset_path(name)
    algorithm = settings.algorithm_of(settings.preset_values(path), str(path))
    if algorithm == expert_iteration.ALGORITHM:
        e = expert_iteration.load_config(name)
        cells = [
            "`expert_iteration`",
            f"{e.generations} generations × {e.matches} matches",
            f"self-play by `{e.teacher('NET')}` in {e.jobs} process"
            f"{'es' if e.jobs > 1 else ''}, or on Ray (`ray=true`)",
            f"`{e.network}`'s, fitted to the search's "
            + (f"improved policy (temperature {e.temperature:g})" if e.temperature else "choices"),
            "itself (all four seats)",
            f"each generation, {e.eval_deals} deals vs greedy, mc and its teacher",
        ]
    elif algorithm == batched_ppo.ALGORITHM:
        b = batched_ppo.load_config(name)
        dmc = b.method == "dmc"
        cells = [
            "`batched_ppo`, Deep Monte-Carlo" if dmc else "`batched_ppo`",
            f"{b.total_steps:,}",
            f"{b.num_games} games of the batched engine",
            _network(b.hidden_sizes, b.inputs, b.hint_head)
            + (", action values, no critic" if dmc else f", `{b.critic}` critic"),
            "tables: " + _weights(b.table_weights),
            _evaluation(b.eval_every, b.eval_deals, b.eval_opponents),
        ]
    else:
        c = ppo_selfplay.load_config(name)
        cells = [
            "`maskable_ppo`",
            f"{c.total_timesteps:,}",
            f"{c.n_envs} (`{c.vec_env}`), one learning seat",
            _network(c.hidden_sizes, c.inputs, c.hint_head),
            _weights(c.opponent_weights),
            _evaluation(c.eval_every, c.eval_deals, [c.eval_opponent]),
        ]
    return "| " + " | ".join([f"`{name}`", *cells]) + " |"


def presets_table() -> str:
    """The whole table, a row per shipped preset in name order."""
    return "\n".join([HEADER, *(preset_row(name) for name in available_presets())])


if __name__ == "__main__":
    print(presets_table())
