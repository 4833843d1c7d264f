"""Row shards (training.shards) and the Gumbel-max draw (training.selfplay_network):
the trainer's parallel arithmetic is the same at any thread count, and its action draws
follow the policy."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from training.selfplay_network import sample_actions  # noqa: E402
from training.shards import run_shards, shard_slices, sharded_forward, summed  # noqa: E402


@pytest.mark.parametrize(("rows", "shards"), [(10, 2), (7, 3), (1, 2), (0, 2), (5, 1)])
def test_the_slices_cover_every_row_once_in_order(rows: int, shards: int) -> None:
    parts = shard_slices(rows, shards)
    covered = [k for part in parts for k in range(rows)[part]]
    assert covered == list(range(rows))
    assert len(parts) == min(rows, shards)
    sizes = [part.stop - part.start for part in parts]
    assert not sizes or max(sizes) - min(sizes) <= 1


def test_results_come_back_in_shard_order_whatever_the_thread_count() -> None:
    for workers in (1, 2, 4):
        assert run_shards(lambda part: (part.start, part.stop), 9, 3, workers) == \
            [(0, 3), (3, 6), (6, 9)]


def test_a_sharded_forward_is_the_shards_forwards_put_together() -> None:
    torch.manual_seed(0)
    layer = torch.nn.Linear(6, 4)

    def model(obs: torch.Tensor, masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out = layer(obs)
        return torch.where(masks, out, torch.full_like(out, -1e9)), out.sum(-1)

    obs, masks = torch.randn(11, 6), torch.rand(11, 4) > 0.3
    for workers in (1, 2):
        logits, values = sharded_forward(model, obs, masks, 3, workers)
        assert not logits.requires_grad  # no graph is built for a rollout
        for part in shard_slices(11, 3):
            expected = model(obs[part], masks[part])
            assert torch.equal(logits[part], expected[0].detach())
            assert torch.equal(values[part], expected[1].detach())


def test_gradients_are_summed_in_shard_order() -> None:
    parts = [[torch.tensor([1.0, 2.0])], [torch.tensor([0.5, 0.5])], [torch.tensor([1.0, 0])]]
    total = summed(parts)
    assert torch.equal(total[0], torch.tensor([2.5, 2.5]))
    assert torch.equal(parts[0][0], torch.tensor([1.0, 2.0]))  # the inputs are left alone


def test_the_gumbel_draw_never_picks_a_masked_action_and_follows_the_softmax() -> None:
    generator = torch.Generator().manual_seed(3)
    logits = torch.tensor([[0.0, 1.0, -1e9, 2.0]]).repeat(200_000, 1)
    chosen = sample_actions(logits, generator)
    counts = np.bincount(chosen.numpy(), minlength=4) / len(chosen)
    expected = torch.softmax(logits[0], -1).numpy()
    assert counts[2] == 0
    np.testing.assert_allclose(counts, expected, atol=0.005)
    # one legal action among very negative logits is always the one drawn
    lone = torch.full((1000, 5), -1e9)
    lone[:, 4] = -50.0
    assert (sample_actions(lone, generator) == 4).all()


def test_a_sharded_update_is_the_whole_minibatchs_update() -> None:
    """Cut into shards or not, a PPO update moves the weights the same way (up to float
    rounding), and each epoch's gather covers every decision: the shards compute the
    whole minibatch's loss, not an average of per-shard losses."""
    import copy

    from training.config import SelfPlayConfig
    from training.selfplay_learner import new_optimizer, ppo_update
    from training.selfplay_network import new_model
    from training.selfplay_rollout import Samples

    rng = np.random.default_rng(5)
    config = SelfPlayConfig(hidden=(16,), minibatch_size=50, epochs=2, progress=False)
    model = new_model(config, config.rules)
    size, width = 120, len(model.scale)
    masks = rng.random((size, model.policy_head.out_features)) < 0.7
    masks[:, 0] = True
    samples = Samples(rng.random((size, width), dtype=np.float32), masks,
                      np.zeros(size, np.int64), np.full(size, -1.5, np.float32),
                      rng.normal(size=size).astype(np.float32),
                      rng.normal(size=size).astype(np.float32))
    weights = []
    for shards in (1, 3):
        trained = copy.deepcopy(model)
        settings = SelfPlayConfig(hidden=(16,), minibatch_size=50, epochs=2, shards=shards,
                                  progress=False)
        losses = ppo_update(trained, new_optimizer(trained, settings),
                            torch.Generator().manual_seed(1), settings, torch.device("cpu"),
                            samples, 1e-3)
        assert set(losses) == {"policy_loss", "value_loss", "entropy", "approx_kl",
                               "clip_fraction"}
        weights.append([p.detach().clone() for p in trained.parameters()])
    moved = max(float((a - b).abs().max()) for a, b in
                zip(weights[0], [p.detach() for p in model.parameters()], strict=True))
    assert moved > 1e-4  # the update did something
    for a, b in zip(*weights, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-6)
