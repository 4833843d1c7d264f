"""A ``teenpatti-policy/2`` policy at the frontends: the web table's default seats, the bot
server and ``match`` seat it at 3 to 7 seats under every preset, where a ``/1`` policy
gives its seats to ``equity``, and in every named variant (the selection phases and
buying a joker by its padded actions); a table it cannot sit at (dealer's choice) still
starts."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from agents.policy import PolicyAgent, load_policy
from interfaces.match import run_match
from interfaces.service import BotService
from interfaces.web_games import GameStore
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.protocol import make_request, parse_request, parse_response
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

torch = pytest.importorskip("torch")

from training.config import SelfPlayConfig  # noqa: E402
from training.general import GENERAL_MIXTURE, export_general, general_model  # noqa: E402

PRESETS = ("classic", "pagat", "flash", "tabletop")


@pytest.fixture(scope="module")
def general_spec(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An untrained general policy (its moves need not be good, only legal and its own)."""
    torch.manual_seed(4)
    model = general_model(SelfPlayConfig(hidden=(32,)))
    path = tmp_path_factory.mktemp("general") / "general.npz"
    export_general(model, GENERAL_MIXTURE).save(path)
    return f"ppo:{path}"


@pytest.mark.parametrize("seats", range(3, 8))
def test_the_web_table_seats_the_general_policy_in_its_default_seats(general_spec: str,
                                                                     seats: int) -> None:
    store = GameStore(general_spec)
    for preset in PRESETS:
        _, table, settings = store.create({"bots": [general_spec] * (seats - 1),
                                           "preset": preset, "seed": seats}, client=preset)
        assert settings["bots"] == [general_spec] * (seats - 1) and not table.notices
        assert table.rules.num_players == seats


def test_the_web_tables_default_bots_are_the_general_policy(general_spec: str) -> None:
    store = GameStore(general_spec)
    _, table, settings = store.create({"seed": 3})
    assert settings["bots"] == [general_spec] * 3 and not table.notices
    _, table, settings = store.create({"seed": 3, "variant": "shopping",
                                       "preset": "classic"})
    assert settings["bots"] == [general_spec] * 3 and not table.notices


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_web_table_starts_with_its_default_seats_in_every_variant(general_spec: str,
                                                                      variant: str) -> None:
    """The general policy keeps every default seat, and its bots play three hands
    (the person times out or goes on), selection phases and joker buying included."""
    store = GameStore(general_spec)
    _, table, settings = store.create({"seed": 5, "variant": variant})
    assert settings["bots"] == [general_spec] * 3 and not table.notices
    for _ in range(12):
        if table.over:
            break
        if table.between_hands:
            table.next_hand()
        elif table.your_turn:
            table.time_out()
    assert table.env.hand is not None


def test_the_web_table_gives_a_dealers_choice_seat_to_equity(general_spec: str) -> None:
    """Dealer's choice is in no padded input yet: equity sits, with the one-line notice."""
    from agents.defaults import fitting_agent

    rules = Rules(dealers_choice=["classic", "shopping"])
    spec, notice = fitting_agent(general_spec, rules)
    assert spec == "equity" and notice is not None
    assert "dealer's choice" in notice and notice.endswith("equity plays in its place")


def _request(rules: Rules, seed: int) -> dict:
    env = raw_env(rules=rules)
    env.reset(seed=seed)
    return make_request(env.view(env.agent_selection), id=3, table="t", hand=0)


@pytest.mark.parametrize("seats", range(3, 8))
def test_serve_answers_with_the_general_policy_at_every_seat_count(general_spec: str,
                                                                   seats: int) -> None:
    """No notice, a legal move, and the move the policy makes with the table's rules."""
    service = BotService(general_spec)
    for preset in PRESETS:
        rules = Rules.preset(preset, num_players=seats)
        request = _request(rules, seats)
        observation, mask, _ = parse_request(request).decision()
        status, answer = service.answer(json.dumps(request))
        assert status == 200 and "notice" not in answer, answer
        assert parse_response(answer, id=3)
        agent = PolicyAgent(load_policy(general_spec.removeprefix("ppo:")))
        agent.check_rules(rules)
        index = agent.act(observation, mask, {})
        assert mask[index] and answer["name"] == raw_env(rules=rules).layout.names[index]


def _phase_request(rules: Rules, seed: int) -> dict:
    """A view where the seat to act may take an action beyond classic's ten (a selection
    phase or buying a joker) if random play reaches one within 60 moves, else the first."""
    env = raw_env(rules=rules)
    env.reset(seed=seed)
    first = make_request(env.view(env.agent_selection), id=3, table="t", hand=0)
    rng = np.random.default_rng(seed)
    for _ in range(60):
        agent = env.agent_selection
        if not env.agents or agent not in env.agents:
            break
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        if mask[10:].any():
            return make_request(env.view(agent), id=3, table="t", hand=0)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return first


PHASE_VARIANTS = ("discard_one", "shopping", "passing_cards", "buy_a_joker")


@pytest.mark.parametrize(("variant", "seats"), [
    *((variant, 4) for variant in VARIANTS),
    *((variant, seats) for variant in PHASE_VARIANTS for seats in (3, 7))])
def test_serve_answers_a_legal_move_for_a_view_of_every_variant(general_spec: str,
                                                                 variant: str,
                                                                 seats: int) -> None:
    """The move the policy makes with the variant's rules, no notice; at the phase
    variants and buy_a_joker the view is one where a phase or buying action is legal."""
    rules = Rules.preset("classic", variant=variant, num_players=seats)
    request = _phase_request(rules, 4)
    observation, mask, _ = parse_request(request).decision()
    if variant in PHASE_VARIANTS:
        assert mask[10:].any()
    status, answer = BotService(general_spec).answer(json.dumps(request))
    assert status == 200 and "notice" not in answer, answer
    agent = PolicyAgent(load_policy(general_spec.removeprefix("ppo:")))
    agent.check_rules(rules)
    index = agent.act(observation, mask, {})
    assert mask[index] and answer["name"] == raw_env(rules=rules).layout.names[index]


def test_serve_gives_a_dealers_choice_table_to_equity_with_a_notice(general_spec: str) -> None:
    request = json.dumps(_request(Rules(dealers_choice=["classic", "shopping"]), 1))
    status, answer = BotService(general_spec).answer(request)
    assert status == 200 and answer["notice"].endswith("equity plays in its place")
    assert "general policy" in answer["notice"]


def test_cli_serve_stdio_plays_a_general_policy_at_six_seats(general_spec: str) -> None:
    line = json.dumps(_request(Rules.preset("pagat", num_players=6), 2)) + "\n"
    done = subprocess.run([sys.executable, "-m", "teenpatti_env", "serve", "--stdio",
                           "--agent", general_spec], input=line, text=True,
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert "action" in answer and "notice" not in answer, answer


@pytest.mark.parametrize("variant", ["shopping", "passing_cards", "buy_a_joker"])
def test_match_keeps_the_general_policy_at_the_phase_variants(general_spec: str,
                                                              variant: str) -> None:
    rules = Rules.preset("classic", variant=variant)
    result = run_match([general_spec] * 3 + ["hard"], rules=rules, hands=3)
    assert result.players == [general_spec] * 3 + ["hard"] and not result.notices


@pytest.mark.parametrize("seats", [3, 7])
def test_match_keeps_the_general_policy_in_every_seat(general_spec: str, seats: int) -> None:
    result = run_match([general_spec] * (seats - 1) + ["hard"], rules="tabletop", hands=3)
    assert result.players == [general_spec] * (seats - 1) + ["hard"] and not result.notices
