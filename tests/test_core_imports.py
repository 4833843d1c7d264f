"""The core install: the engine loads without the environment's libraries, the
environment's names load on first use, and the batched kernels run without numba
silently (issue 27)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ENVIRONMENT_LIBRARIES = ("gymnasium", "pettingzoo")


def _run(code: str) -> str:
    """``code`` in a fresh interpreter with warnings as errors; its stdout."""
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("module", ["teenpatti_env", "teenpatti_env.cards",
                                    "teenpatti_env.rules", "teenpatti_env.engine",
                                    "teenpatti_env.engine.session"])
def test_the_engine_imports_neither_gymnasium_nor_pettingzoo(module: str) -> None:
    loaded = _run(f"import sys, {module}\n"
                  f"print(sorted(m for m in {ENVIRONMENT_LIBRARIES!r} if m in sys.modules))")
    assert loaded.strip() == "[]", loaded


def test_the_environment_names_load_on_first_use_and_register_the_gymnasium_id() -> None:
    out = _run(
        "import sys\n"
        "import teenpatti_env\n"
        "assert 'pettingzoo' not in sys.modules\n"
        "from teenpatti_env import env, raw_env, TeenPattiEnv, ObservationLayout\n"
        "from teenpatti_env.environment.aec import env as aec_env\n"
        "assert env is aec_env and 'pettingzoo' in sys.modules\n"
        "import gymnasium\n"
        "print(type(gymnasium.make('TeenPatti-v0').unwrapped).__name__, "
        "'env' in dir(teenpatti_env))\n"
    )
    assert out.split() == ["TeenPattiEnv", "True"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    import teenpatti_env

    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        teenpatti_env.nonesuch  # noqa: B018


def test_gymnasium_imported_first_finds_the_id_at_once() -> None:
    out = _run("import gymnasium, teenpatti_env\n"
               "print('TeenPatti-v0' in gymnasium.registry)")
    assert out.strip() == "True"


def test_gymnasium_imported_after_teenpatti_env_finds_the_id_without_loading_it_early() -> None:
    out = _run("import sys\n"
               "import teenpatti_env\n"
               "assert 'gymnasium' not in sys.modules\n"
               "import gymnasium\n"
               "assert 'pettingzoo' not in sys.modules\n"
               "print(type(gymnasium.make('TeenPatti-v0').unwrapped).__name__)")
    assert out.strip() == "TeenPattiEnv"


def test_the_kernels_without_numba_play_the_same_hands_and_warn_nothing() -> None:
    """Without numba (its import blocked) the kernels run as plain Python: the same
    hands as compiled, and no overflow warning from the random streams."""
    play = ("from teenpatti_env.environment.batched import TableBatch\n"
            "import numpy as np\n"
            "batch = TableBatch(4, 'classic', num_players=3, seed=5)\n"
            "step = batch.reset()\n"
            "for _ in range(12):\n"
            "    step = batch.step(step.action_masks.argmax(axis=1))\n"
            "print(batch.hands_dealt.tolist(), batch.stack_chips.tolist(), "
            "batch.pot.tolist())\n")
    without = _run("import sys\nsys.modules['numba'] = None\n" + play +
                   "from teenpatti_env.environment import batch_kernels\n"
                   "assert not batch_kernels.HAVE_NUMBA\n")
    compiled = _run(play)
    assert without == compiled


def test_a_change_to_any_kernel_module_drops_the_whole_kernel_cache(tmp_path: Path) -> None:
    """numba's cache notices a change in a function's own file only; the kernels call
    across four files, so a change to any of them drops all their cached code."""
    from teenpatti_env.environment.batch_state import KERNEL_MODULES, drop_stale_cache

    for name in KERNEL_MODULES:
        (tmp_path / f"{name}.py").write_text(f"# {name}\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    compiled = [cache / "batch_play.step_tables-10.py311.nbi",
                cache / "batch_observe.encode-17.py311.1.nbc"]
    for path in compiled:
        path.write_bytes(b"")
    other = cache / "batched.cpython-311.pyc"
    other.write_bytes(b"")
    assert drop_stale_cache(tmp_path)  # never stamped: dropped
    assert not any(path.exists() for path in compiled) and other.exists()
    for path in compiled:
        path.write_bytes(b"")
    assert not drop_stale_cache(tmp_path)  # the same sources: kept
    assert all(path.exists() for path in compiled)
    (tmp_path / "batch_rules.py").write_text("# batch_rules, changed\n")
    assert drop_stale_cache(tmp_path)  # one module changed: all dropped
    assert not any(path.exists() for path in compiled)
