"""The token secret in Secrets Manager: read again once five minutes old, so a rotation
is picked up; tokens of the previous secret stay valid until the next rotation."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from harness import World
from numbridge import auth
from numbridge.auth import (
    AuthUnavailable,
    InvalidToken,
    issue_token,
    secret_source,
    verify_player,
)

OLD, NEW, NEWEST = (f"{name}-secret-0123456789abcdef0123456789" for name in ("o", "n", "nn"))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class CountingClient:
    """The real (moto) client, counting GetSecretValue calls."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.reads = 0

    def get_secret_value(self, **kwargs: Any) -> Any:
        self.reads += 1
        return self.client.get_secret_value(**kwargs)


@pytest.fixture
def secrets(aws: None) -> tuple[Any, str]:
    client = boto3.client("secretsmanager", region_name="us-east-1")
    arn = client.create_secret(Name="token-secret", SecretString=OLD)["ARN"]
    return client, arn


def rotate(client: Any, arn: str, value: str) -> None:
    # what a rotation ends with: the new version AWSCURRENT, the old one AWSPREVIOUS
    client.put_secret_value(SecretId=arn, SecretString=value)


def test_a_rotated_secret_is_read_once_the_cached_one_is_five_minutes_old(
    secrets: tuple[Any, str],
) -> None:
    client, arn = secrets
    clock, counting = Clock(), CountingClient(client)
    source = secret_source(arn, counting, clock)
    assert source.get() == (OLD,)
    rotate(client, arn, NEW)
    clock.now = auth.SECRET_MAX_AGE_S - 1
    assert source.get() == (OLD,)
    reads = counting.reads
    clock.now = auth.SECRET_MAX_AGE_S
    assert source.get() == (NEW, OLD)
    assert counting.reads == reads + 2  # AWSCURRENT and AWSPREVIOUS


def test_tokens_of_the_previous_secret_last_until_the_next_rotation(
    secrets: tuple[Any, str],
) -> None:
    client, arn = secrets
    clock = Clock()
    source = secret_source(arn, client, clock)
    old_token = issue_token("ana", OLD)
    assert verify_player(old_token, source.get) == "ana"

    rotate(client, arn, NEW)
    clock.now += auth.SECRET_MAX_AGE_S
    new_token = issue_token("bob", NEW)
    assert verify_player(new_token, source.get) == "bob"
    assert verify_player(old_token, source.get) == "ana"

    rotate(client, arn, NEWEST)
    clock.now += auth.SECRET_MAX_AGE_S
    assert verify_player(new_token, source.get) == "bob"
    with pytest.raises(InvalidToken, match="Signature"):
        verify_player(old_token, source.get)


def test_token_secret_reads_the_environment(
    secrets: tuple[Any, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, arn = secrets
    monkeypatch.setenv("TOKEN_SECRET", "from-the-environment")
    monkeypatch.setenv("TOKEN_SECRET_ARN", arn)
    assert auth.token_secret() == "from-the-environment"
    monkeypatch.delenv("TOKEN_SECRET")
    auth._source_of.cache_clear()
    assert auth.token_secret() == (OLD,)
    assert auth._source_of(arn) is auth._source_of(arn)  # one source per process
    monkeypatch.delenv("TOKEN_SECRET_ARN")
    with pytest.raises(RuntimeError, match="no token secret"):
        auth.token_secret()
    auth._source_of.cache_clear()


def test_an_unreadable_secret_is_unavailable_not_a_bad_token(world: World) -> None:
    def unreachable() -> str:
        raise ConnectionError("Secrets Manager is not answering")

    with pytest.raises(AuthUnavailable, match="not answering"):
        verify_player(issue_token("ana", OLD), unreachable)
    world.svc.token_secret = unreachable
    assert world.connect("ana") == (503, None)
