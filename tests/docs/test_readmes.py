"""Every code block of the READMEs and of the documentation pages runs as
written, and every link stays in the checkout.

The documents are ``README.md``, every ``README.md`` below it and the pages of
the documentation site (every ``.md`` under ``docs/``, built by ``mkdocs.yml``). Their
``python`` and ``bash`` blocks run in the order of the page, one working
directory per document that looks like the checkout (its top-level entries
are linked into it), so what a block writes (``game.json``, ``runs/…``,
``results.*``) is there for the blocks after it and never in the checkout.
A Python block is saved as a file and run by this interpreter; a shell
block runs in ``bash`` with ``set -e``. Blocks tagged ``text`` (or not
tagged) are output and pictures, and ``json`` the protocol's sample
messages (checked by ``tests/docs/test_agent_protocol.py``): not code; any
other tag is an error.

What differs between the page and the run is all in this file, each with
its reason: :data:`SUBSTITUTIONS` rewrite every shell command (the
reader's ``.venv`` is this interpreter; tournaments and training shrink to
seconds), :data:`EDITS` rewrite one block's text, and :data:`NOT_RUN` names
the blocks that are not run and why (pytest lists them as skipped, with
the reason). A substitution or an edit that no longer finds its text fails,
so this file cannot drift from the pages silently.

The blocks' ``env121`` and ``python`` commands start from a process that has
imported the package and loaded its kernels (``tests/docs/forkserver.py``),
as the arena's workers do: each would otherwise spend most of its second or
three importing torch and loading kernels before a run of one deal. A
command whose environment changes what an import does (``ENV121_…``,
``NUMBA_…``, …) runs in an interpreter of its own.

The tests run the shipped checkpoints (``ppo:small``, …) and the repository's
own files only: a block that needs a file the reader does not have fails.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.docs.forkserver import PROGRAMS, ForkServer
from tests.docs.markdown import CodeBlock, code_blocks, link_targets

REPOSITORY = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
TIMEOUT_S = 300
RUN_LANGUAGES = {"python", "bash"}
PROSE_LANGUAGES = {"text", "json", ""}
TINY_TRAINING = (
    "--no-progress --set total_timesteps=128 n_steps=64 batch_size=64 n_epochs=1 n_envs=1 "
    "vec_env=dummy eval_every=0"
)
TINY_SCRATCH = (
    "--no-progress --set total_steps=2048 num_games=64 rollout_steps=16 minibatch_size=256 "
    "eval_deals=1 snapshot_every=0 checkpoint_every=0"
)
TINY_EXPERT = "--set generations=1 matches=10 worlds=4 epochs=1 eval_deals=2 value=none"


def documents() -> list[str]:
    """``README.md`` and every ``README.md`` below it, hidden folders and
    virtualenvs left out, the top one first; then the pages under ``docs/``
    (whose commands, like the READMEs', are written to run from the
    repository's root)."""
    found = []
    for folder, subfolders, files in os.walk(REPOSITORY):
        subfolders[:] = sorted(
            name
            for name in subfolders
            if not name.startswith(".") and not (Path(folder, name, "pyvenv.cfg")).exists()
        )
        if "README.md" in files:
            found.append((Path(folder) / "README.md").relative_to(REPOSITORY).as_posix())
    pages = sorted((REPOSITORY / "docs").rglob("*.md"))
    return found + [page.relative_to(REPOSITORY).as_posix() for page in pages]


@dataclass(frozen=True)
class Substitution:
    """A rewrite of every shell command that matches ``pattern`` (before its comment)."""

    pattern: str
    replacement: str
    reason: str

    def apply(self, command: str) -> str:
        return re.sub(self.pattern, self.replacement, command)


SUBSTITUTIONS = (
    Substitution(
        r"^python3 -m venv \.venv && \.venv/bin/pip install -q -e \. && ",
        "",
        "setting up the virtualenv is what scripts/test.sh did before these tests",
    ),
    Substitution(
        r"^\.venv/bin/pip install .*$",
        "true",
        "the extras are installed already: scripts/test.sh installs the dev extra, which "
        "includes train and web (an editable install from the test's copy would move the "
        "package under the running tests)",
    ),
    Substitution(r"\.venv/bin/", f"{BIN}/", "the reader's .venv is the one running the tests"),
    Substitution(
        r"--deals \d+",
        "--deals 1",
        "a tournament of one deal (four ván per matchup) runs every step of the command; "
        "the tables on the page come from the full number of deals",
    ),
    Substitution(
        r"--jobs \d+",
        "--jobs 1",
        "one deal plays faster in one process than in two (each worker loads the agents anew)",
    ),
    Substitution(
        r"--matches \d+",
        "--matches 10 --jobs 1",
        "imitation from ten matches (the fewest imitate takes: one in ten is held out), "
        "collected in one process, runs every step",
    ),
    Substitution(r"--epochs \d+", "--epochs 1", "one pass over the demonstrations"),
    Substitution(
        r"--worlds \d+",
        "--worlds 2",
        "two worlds per belief run every step of the belief benchmark (its chain keeps one "
        "world per hundred moves); the table on the page comes from the full number",
    ),
    Substitution(
        r"total_timesteps=[\d_.e]+",
        "total_timesteps=192",
        "a resumed run goes on for 64 steps past the smoke run's 128",
    ),
    Substitution(
        r"^(?!.*--resume)(.*env121 train --preset (?:scratch|dmc)\b.*)$",
        rf"\1 {TINY_SCRATCH}",
        "a batched_ppo run of 2,048 engine steps on 64 games, evaluated on one deal",
    ),
    Substitution(
        r"^(?!.*--resume)(.*env121 train --preset expert\b.*)$",
        rf"\1 {TINY_EXPERT}",
        "one generation of expert iteration: 10 matches at 4 worlds a decision, one epoch, "
        "measured on two deals",
    ),
    Substitution(
        r"^(?!.*--resume)(?!.*--preset (?:scratch|dmc|expert))(.*env121 train\b.*)$",
        rf"\1 {TINY_TRAINING}",
        "a training run of 128 steps, no evaluation, no progress bar, in one process "
        "(the settings of the smoke test in training/README.md)",
    ),
    Substitution(r"^(.*env121 train --resume\b.*)$", r"\1 --no-progress", "no progress bar"),
    Substitution(
        r"^(.*env121 exploit .*)--budget \S+(.*)$",
        r"\1--budget 256steps\2 --no-progress --deals 1 --set num_games=8 rollout_steps=16 "
        "minibatch_size=64 eval_deals=1 threads=1",
        "a best response of 256 engine steps on 8 games, measured on one deal",
    ),
    Substitution(
        r"^(.*env121 play .*--human\b.*)$",
        r"yes 1 | \1",
        "the person at the keyboard answers 1, the first legal move, at every turn "
        "(tests/cli/test_play_human.py plays through a pseudo-terminal, typos included)",
    ),
)

EDITS: dict[tuple[str, str], tuple[str, str]] = {
    ("training/README.md", "result = train(load_config("): (
        '["total_timesteps=200_000"]',
        '["total_timesteps=128", "n_steps=64", "batch_size=64", "n_epochs=1", '
        '"n_envs=1", "eval_every=128", "eval_deals=1"]',
    ),
    ("training/README.md", "row = evaluate_policy("): ("deals=200, jobs=2", "deals=1, jobs=1"),
}
"""(document, text the block contains) → (its text on the page, the text run):
training and evaluation budgets of seconds, as :data:`SUBSTITUTIONS` give the
commands."""

NOT_RUN: dict[tuple[str, str], str] = {
    ("README.md", "bash scripts/test.sh"): "it is the command that runs these tests",
    ("docs/getting-started.md", "bash scripts/test.sh"): (
        "the README's second command, the one that runs these tests"
    ),
    ("docs/getting-started.md", "--vs greedy random --deals 4 --seed 1"): (
        "the README's first command, which runs as README.md's block"
    ),
    ("agents/README.md", "--vs mc:beliefs=greedy,confidence=1,look=96,value=greedy greedy"): (
        "a deal of it is 15 s of CPU (every decision replays the match and weighs 96 "
        "worlds); tests/agents/test_mc_beliefs.py plays its agent in a one-deal tournament "
        "on the arena's path, and tests/arena/test_paired.py checks the pooling of folders"
    ),
    ("agents/README.md", "--vs mc:beliefs=scratch,confidence=1,look=96,value=greedy ppo:scratch"): (
        "a deal of it is about 20 s of CPU (every decision replays the match and asks the "
        "network about 96 worlds' decisions); tests/agents/test_mc_beliefs.py holds the "
        "agent's network likelihoods to the definition and plays mc:beliefs in a one-deal "
        "tournament on the arena's path"
    ),
    ("docs/api.md", "env121.score_hand(cards, *, chi_diem"): (
        "signatures (what help() shows), not a program"
    ),
    ("docs/benchmark.md", 'env121 benchmark "program:node examples/js_agent/agent.js" --quick'): (
        "the quick tier plays 224 games against mc and ppo:searched (about 2 minutes); "
        "tests/arena/test_benchmark.py plays the benchmark on a two-deal suite"
    ),
    ("docs/benchmark.md", "env121 benchmark --league --quick"): (
        "seven quick-tier benchmarks (about 20 minutes); the table it writes is checked "
        "against docs/league.md by tests/arena/test_benchmark.py"
    ),
    ("docs/agents.md", "--vs mc greedy --deals 128"): (
        "its matchup is in the leaderboard's command above, which runs with one deal"
    ),
    ("docs/agents.md", "--vs best greedy --vs mc greedy --vs best mc"): (
        "best's spec against greedy and ppo:scratch runs in the block of 'A first look of 96 "
        "worlds' above, and best against mc in the first contact (scripts/first_contact.sh)"
    ),
    ("docs/agents.md", "--vs greedy best --vs mc best"): (
        "three searching seats a game: 20 s of the test command for one deal; the block of "
        "'A first look of 96 worlds' above runs best's spec (one searching seat a game) "
        "through the same tournament command"
    ),
    ("training/README.md", "--matches 400 --epochs 2 --seed 300000"): (
        "the two commands of 'Start from greedy' below, which run, with the seed and the "
        "budget that made ppo:hinted"
    ),
    ("training/README.md", "--teacher mc --matches 240"): (
        "the record of how ppo:searched was made (24 minutes); even two matches take half a "
        "minute (mc searches in all four seats and for every decision's hints); "
        "tests/training/test_imitation.py collects from an mc teacher with its search hints"
    ),
    ("training/README.md", "tensorboard --logdir"): "a server, which runs until stopped",
    ("training/README.md", "--set ray=true ray_address=auto"): (
        "a cluster that `ray start` runs; tests/training/test_expert_iteration_ray.py plays a "
        "generation on a local cluster"
    ),
    ("training/README.md", "V=runs/value-scratch-r9/value.safetensors"): (
        "it needs the value fitted on ppo:scratch's play (runs/value-scratch-r9: rounds of "
        "python -m training.value, which the test command does not run); "
        "tests/agents/test_value.py plays mc with a value file"
    ),
    ("training/README.md", "--vs ppo:$E/gen-001/policy.safetensors greedy"): (
        "it measures three generations of a full expert run, which the one-generation run "
        "above does not make (its tournament and arena.paired run in the blocks of "
        "docs/agents.md; tests/arena/test_paired.py checks the paired estimate)"
    ),
    ("training/README.md", "--vs ppo:$E/gen-004/policy.safetensors greedy"): (
        "it measures generations 4 to 6 of a full expert run, which the one-generation run "
        "above does not make (as the block of generations 1 to 3)"
    ),
    ("training/README.md", "--vs search:net=$E/gen-007/policy.safetensors,$S greedy"): (
        "it measures generations 6 and 7 of a full expert run, which the one-generation run "
        "above does not make (as the block of generations 1 to 3)"
    ),
    ("training/README.md", "temperature=10 --out runs/soft10"): (
        "two generations of 600 self-play matches and a 512-deal tournament on two seeds "
        "(about 40 minutes); the one-generation run above plays the preset, "
        "tests/training/test_expert_iteration.py fits a generation at a temperature and "
        "tests/training/test_imitation.py holds the targets to their definition"
    ),
    ("training/README.md", 'collect("best", matches=1200'): (
        "the record of how ppo:distilled was made (35 minutes of best's self-play); "
        "tests/training/test_imitation.py runs env121 imitate (collect, fit, export) on a "
        "few matches"
    ),
    ("training/README.md", "--teacher best --matches 3000"): (
        "100 minutes of best's self-play and a 7-minute fit; "
        "tests/training/test_imitation.py runs env121 imitate --from on ten matches"
    ),
    ("training/README.md", "--from hinted --teacher best --matches 1200"): (
        "38 minutes of best's self-play; run by hand on ten matches (2026-11-29), and "
        "tests/training/test_imitation.py runs env121 imitate --from on ten matches"
    ),
    ("training/README.md", "python -m training.value --out runs/value-greedy"): (
        "the record of how the shipped leaf value was made (33 minutes); "
        "tests/agents/test_value.py runs python -m training.value on three matches a round "
        "and resumes it"
    ),
    ("training/README.md", "python -m training.value --out runs/value-long"): (
        "the record of the longer leaf-value fit (48 minutes) and of its two 512-deal "
        "tournaments (35 minutes each); tests/agents/test_value.py runs python -m "
        "training.value on three matches a round and resumes it, and plays mc with a value file"
    ),
    ("training/README.md", "--set rollout_workers=2 num_games=256"): (
        "a Ray cluster and two worker processes start (about a minute on the loaded 2-core "
        "machine); tests/training/test_ray_rollouts.py runs this command with the smoke "
        "settings on a local two-worker cluster"
    ),
    ("training/README.md", "start_cluster.sh head 10.0.0.1"): (
        "a cluster of several machines; tests/training/test_ray_rollouts.py trains on two "
        "workers on 127.0.0.1"
    ),
    ("docs/web.md", "env121 serve"): (
        "a server, which runs until stopped; tests/web/ drive the same app through FastAPI's "
        "test client and a real browser"
    ),
    ("notebooks/README.md", "pytest --nbmake notebooks/"): (
        "scripts/test.sh runs this command (on every core: -n auto), after these tests"
    ),
    ("docs/ray.md", "--deals 256 --ray            # Ray's default cluster"): (
        "tournaments on a Ray cluster; tests/arena/test_ray.py plays `--ray` on a local "
        "cluster and checks it writes the results of `--jobs 2`"
    ),
    ("docs/ray.md", 'backend=RayBackend("auto")'): (
        "it joins a running cluster; tests/arena/test_ray.py runs RayBackend on a local one"
    ),
    ("docs/ray.md", "examples.ray.rllib_selfplay --iterations 50"): (
        "50 RLlib iterations on two env runners (minutes); tests/training/test_rllib.py "
        "checks its adapter, its masked module and the export the arena plays"
    ),
    ("docs/ray.md", "git clone"): "a fresh clone on each machine of a cluster",
    ("docs/ray.md", "start_cluster.sh head 10.0.0.1"): (
        "a cluster of several machines; tests/arena/test_ray.py and "
        "tests/training/test_ray_rollouts.py run on local clusters"
    ),
    ("docs/research/mc.md", "benchmarks.mc_decisions --showdown"): (
        "a measurement (oracle rollouts at every departure of mc, minutes); it asserts nothing"
    ),
    ("docs/research/mc.md", "agents.leaf --matches 300"): (
        "the fit of the leaf line on 300 matches (4 minutes); tests/agents/test_agents.py "
        "checks the leaf value the fitted line gives"
    ),
}
"""(document, text the block contains) → why the block is not run."""


def matching(table: dict[tuple[str, str], str], block: CodeBlock) -> str | None:
    keys = [key for key in table if key[0] == block.document and key[1] in block.text]
    assert len(keys) <= 1, f"{block.id} matches several entries: {keys}"
    return table[keys[0]] if keys else None


def edit(block: CodeBlock) -> str:
    """The text to run: the block's, with its edit."""
    keys = [key for key in EDITS if key[0] == block.document and key[1] in block.text]
    text = block.text
    for key in keys:
        old, new = EDITS[key]
        assert old in text, f"{block.id}: the edit {old!r} → {new!r} no longer finds its text"
        text = text.replace(old, new)
    return text


def shell_script(text: str) -> str:
    """A shell block with :data:`SUBSTITUTIONS` applied to each command (continuation
    lines joined first; comments left alone)."""
    lines = []
    for line in text.replace("\\\n", " ").splitlines():
        command, hash_, comment = line.partition(" #")
        for substitution in SUBSTITUTIONS:
            command = substitution.apply(command)
        lines.append(f"{command}{hash_}{comment}")
    return "\n".join(lines) + "\n"


def all_blocks() -> list[CodeBlock]:
    return [block for doc in documents() for block in code_blocks(REPOSITORY / doc, doc)]


def runnable_blocks() -> list[CodeBlock]:
    return [block for block in all_blocks() if block.language in RUN_LANGUAGES]


def block_environment() -> dict[str, str]:
    """The environment every block runs in (and the fork server starts in)."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPOSITORY), os.environ.get("PYTHONPATH", "")]),
        "MPLBACKEND": "Agg",
    }


@dataclass
class Reader:
    """A reader working through one document: its blocks run in order, once each."""

    document: str
    workdir: Path
    blocks: list[CodeBlock]
    programs: Path
    """The folder of the ``env121`` and ``python`` the blocks run (the fork server's shims)."""
    outcomes: dict[int, str | None] = field(default_factory=dict)
    """Block line → None if it ran, else what went wrong."""

    def run_through(self, block: CodeBlock) -> None:
        """Run the blocks before ``block`` that have not run, then ``block``;
        fail with its output if it failed (naming earlier failures)."""
        for earlier in self.blocks:
            if earlier.line not in self.outcomes and matching(NOT_RUN, earlier) is None:
                self.outcomes[earlier.line] = self._run(earlier)
            if earlier == block:
                break
        failed_before = [
            f"{self.document}:{line}"
            for line, outcome in self.outcomes.items()
            if outcome is not None and line < block.line
        ]
        outcome = self.outcomes[block.line]
        if outcome is not None:
            before = f" (earlier blocks failed too: {failed_before})" if failed_before else ""
            pytest.fail(f"{block.id} failed{before}:\n{outcome}", pytrace=False)

    def _run(self, block: CodeBlock) -> str | None:
        text = edit(block)
        if block.language == "python":
            saved = self.workdir / f"block_{block.line}.py"
            saved.write_text(text, encoding="utf-8")
            command = [str(self.programs / "python"), saved.name]
        else:
            script = re.sub(
                rf"{re.escape(str(BIN))}/({'|'.join(PROGRAMS)})\b",
                lambda program: str(self.programs / program[1]),
                shell_script(text),
            )
            command = ["bash", "-e", "-c", script]
        try:
            done = subprocess.run(
                command,
                cwd=self.workdir,
                env=block_environment(),
                capture_output=True,
                text=True,
                timeout=TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return f"did not finish in {TIMEOUT_S} s:\n{' '.join(command)}"
        if done.returncode != 0:
            ran = text if block.language == "python" else command[-1]
            output = f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            return f"exit status {done.returncode}; it ran:\n{ran}\n{output}"
        return None


@pytest.fixture(scope="session")
def fork_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ForkServer]:
    with ForkServer(tmp_path_factory.mktemp("fork-server"), block_environment(), BIN) as server:
        yield server


@pytest.fixture(scope="session")
def readers(tmp_path_factory: pytest.TempPathFactory, fork_server: ForkServer) -> dict[str, Reader]:
    by_document: dict[str, Reader] = {}
    for doc in documents():
        workdir = tmp_path_factory.mktemp(doc.replace("/", "_").replace(".", "_"))
        for entry in REPOSITORY.iterdir():
            if not entry.name.startswith("."):
                (workdir / entry.name).symlink_to(entry)
        blocks = [b for b in code_blocks(REPOSITORY / doc, doc) if b.language in RUN_LANGUAGES]
        by_document[doc] = Reader(doc, workdir, blocks, fork_server.bin)
    return by_document


@pytest.mark.parametrize(
    "block",
    [
        # One document's blocks on one worker (scripts/test.sh runs ``--dist loadgroup``):
        # a block needs the blocks before it, which another worker would run again.
        pytest.param(block, id=block.id, marks=pytest.mark.xdist_group(block.document))
        for block in runnable_blocks()
    ],
)
def test_the_block_runs_as_written(block: CodeBlock, readers: dict[str, Reader]) -> None:
    reason = matching(NOT_RUN, block)
    if reason is not None:
        pytest.skip(f"not run: {reason}")
    readers[block.document].run_through(block)


@pytest.mark.xdist_group("a group of its own")
def test_a_group_runs_on_one_worker(request: pytest.FixtureRequest) -> None:
    """Under ``--dist loadgroup`` (scripts/test.sh) a test's group is the suffix
    of its node id, which pytest-xdist's scheduler reads to keep a document's
    blocks on one worker; where that suffix is lost (pytest 9.2 with
    pytest-xdist 3.8) every worker would run the blocks before its own again."""
    if not getattr(request.config.option, "loadgroup", False):  # set on the workers
        pytest.skip("not run under --dist loadgroup")
    assert request.node.nodeid.endswith("@a group of its own"), (
        f"{request.node.nodeid}: the group is not in the node id, so the pages' blocks "
        "are spread over the workers (pyproject.toml's pytest pin)"
    )


def test_every_block_is_tagged_as_code_or_as_text():
    for block in all_blocks():
        assert block.language in RUN_LANGUAGES | PROSE_LANGUAGES, (
            f"{block.id}: a block tagged {block.language!r}: tag it python or bash "
            "(it is run), or text or json (it is not)"
        )


def test_every_substitution_edit_and_exception_still_finds_its_text():
    blocks = runnable_blocks()
    shell = "\n".join(b.text.replace("\\\n", " ") for b in blocks if b.language == "bash")
    for substitution in SUBSTITUTIONS:
        assert re.search(substitution.pattern, shell, re.MULTILINE), substitution
    for document, text in [*EDITS, *NOT_RUN]:
        assert any(b.document == document and text in b.text for b in blocks), (document, text)


@pytest.mark.parametrize("document", documents())
def test_every_link_is_a_file_in_the_checkout(document: str) -> None:
    path = REPOSITORY / document
    for line, target in link_targets(path):
        where = f"{document}:{line}: the link {target!r}"
        assert "://" not in target and not target.startswith("mailto:"), (
            f"{where} leaves the repository: name the page in the text, or link a file here"
        )
        resolved = (path.parent / target.partition("#")[0]).resolve()
        assert resolved.is_relative_to(REPOSITORY), f"{where} leaves the repository"
        assert resolved.exists(), f"{where} names nothing in the repository"
