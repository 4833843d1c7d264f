"""One check of a seed serves the per-table session, the batched engine and the arena."""

from __future__ import annotations

import numpy as np
import pytest

from agents.arena import run_arena
from teenpatti_env.engine.session import Session
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.errors import check_seed
from teenpatti_env.rules import Rules


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, np.bool_(True), [1]])
def test_a_malformed_seed_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ValueError, match=r"^table 2's seed must be an int >= 0, got"):
        check_seed(bad, "table 2's seed")
    with pytest.raises(ValueError, match="seed must be an int >= 0 or None"):
        Session(Rules.preset("classic"), seed=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be an int >= 0 or None"):
        TableBatch(2, Rules.preset("classic")).reset(seed=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be an int >= 0,"):
        run_arena(["random", "auto"], hands=4, seed=bad)  # type: ignore[arg-type]


def test_numpy_integers_and_none_pass_as_ints() -> None:
    assert check_seed(np.int64(7)) == 7 and type(check_seed(np.uint32(7))) is int
    assert check_seed(None, optional=True) is None
    with pytest.raises(ValueError, match="got None"):
        check_seed(None)
    hands = [Session(Rules.preset("classic"), seed=seed).new_hand().hands
             for seed in (np.int64(5), 5)]
    assert hands[0] == hands[1]
