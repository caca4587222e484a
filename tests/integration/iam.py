"""Each function's IAM statements, as template.yaml grants them, enforced by moto.

- :func:`transformed` is the CloudFormation template the SAM transform makes, offline;
  :func:`statements` a function's inline statements, :func:`resolve` them with the ARNs
  of the resources moto holds.
- :func:`enforcing` turns moto's IAM access control on. moto checks the action of every
  request, but the resource only of SQS's; here it is also told the resource of the
  requests the functions make to DynamoDB (the table, or the index queried), Secrets
  Manager (the secret) and API Gateway's ``@connections`` API (the connection), and
  that a DynamoDB transaction needs the right of each write it holds, as IAM wants
  (``dynamodb:TransactWriteItems`` is no IAM action).
- :class:`Calls` records what moto allowed and denied (a denied post or timer is only
  logged by the code, so the test reads it here).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import boto3

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "template.yaml"
ACCOUNT = "123456789012"  # moto's default account
REGION = "us-east-1"


# ---------------------------------------------------------------- the template


class StubManagedPolicyLoader:
    """What ``ManagedPolicyLoader`` would fetch from IAM: names → ARNs, offline."""

    def __init__(self) -> None:
        self.calls = 0

    def load(self) -> dict[str, str]:
        self.calls += 1
        return {
            name: f"arn:aws:iam::aws:policy/{path}{name}"
            for name, path in {
                "AWSLambdaBasicExecutionRole": "service-role/",
                "AWSXrayWriteOnlyAccess": "",
                "AWSLambdaSQSQueueExecutionRole": "service-role/",
            }.items()
        }


def sam_template() -> dict[str, Any]:
    """The template as ``sam package`` hands it to the transform: code in S3."""
    from samtranslator.yaml_helper import yaml_parse

    template: dict[str, Any] = yaml_parse(TEMPLATE.read_text(encoding="utf-8"))
    for logical_id, resource in template["Resources"].items():
        properties = resource.get("Properties", {})
        for key in ("CodeUri", "ContentUri"):
            if isinstance(properties.get(key), str):
                properties[key] = f"s3://numbridge-artifacts/{logical_id}.zip"
    return template


@cache
def _transformed_text() -> str:
    from samtranslator.parser.parser import Parser
    from samtranslator.translator.translator import Translator

    translator = Translator(None, Parser(), boto_session=boto3.Session(region_name=REGION))
    out = translator.translate(sam_template(), parameter_values={},
                               get_managed_policy_map=StubManagedPolicyLoader().load)
    return json.dumps(out)


def transformed() -> dict[str, Any]:
    """The CloudFormation template the SAM transform makes, offline, as plain JSON (a
    fresh copy each time; the transform runs once a process)."""
    plain: dict[str, Any] = json.loads(_transformed_text())
    return plain


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


# The inline policy of a function's role that its code uses; the other one,
# ``LambdaService``, is what Lambda itself does with the role (logs, polling a queue,
# an on-failure destination), never the code.
CODE_POLICY = "Code"
SERVICE_POLICY = "LambdaService"


def statements(cfn: Mapping[str, Any], function_id: str,
               policy: str = CODE_POLICY) -> list[dict[str, Any]]:
    """The statements of one inline policy (the code's) of a function's execution role."""
    return [
        statement
        for named in role_of(cfn, function_id).get("Policies", [])
        if named["PolicyName"] == policy
        for statement in as_list(named["PolicyDocument"]["Statement"])
    ]


def role_of(cfn: Mapping[str, Any], function_id: str) -> dict[str, Any]:
    """The properties of a function's execution role."""
    function = cfn["Resources"][function_id]
    role_id = function["Properties"]["Role"]["Fn::GetAtt"][0]
    properties: dict[str, Any] = cfn["Resources"][role_id]["Properties"]
    return properties


def actions(statement: Mapping[str, Any]) -> list[str]:
    return [str(a) for a in as_list(statement.get("Action", []))]


_SUB = re.compile(r"\$\{([^}]+)\}")


def resolve(value: Any, names: Mapping[str, str]) -> Any:
    """``value`` with Ref, Fn::GetAtt and Fn::Sub replaced from ``names`` ("X" for Ref X,
    "X.Attr" for GetAtt, and the pseudo parameters); a name not given is an error."""
    if isinstance(value, list):
        return [resolve(v, names) for v in value]
    if not isinstance(value, dict):
        return value
    if set(value) == {"Ref"}:
        return names[value["Ref"]]
    if set(value) == {"Fn::GetAtt"}:
        target, attribute = as_list(value["Fn::GetAtt"])
        return names[f"{target}.{attribute}"]
    if set(value) == {"Fn::Sub"}:
        text, variables = (value["Fn::Sub"], {}) if isinstance(value["Fn::Sub"], str) \
            else value["Fn::Sub"]
        local = {k: resolve(v, names) for k, v in variables.items()}
        return _SUB.sub(lambda m: str(local.get(m.group(1)) or names[m.group(1)]), text)
    return {k: resolve(v, names) for k, v in value.items()}


# ---------------------------------------------------------------- moto, enforcing


@dataclass(frozen=True)
class Call:
    key: str  # the caller's access key id
    action: str
    resource: str
    allowed: bool


@dataclass
class Calls:
    """What moto decided, request by request (each DynamoDB write of a transaction apart)."""

    seen: list[Call] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, call: Call) -> None:
        with self.lock:
            self.seen.append(call)

    def denied(self) -> list[Call]:
        return [c for c in self.seen if not c.allowed]

    def allowed(self, key: str) -> set[tuple[str, str]]:
        """The (action, resource) pairs moto allowed the holder of ``key``."""
        return {(c.action, c.resource) for c in self.seen if c.allowed and c.key == key}


def table_arn(name: str) -> str:
    return f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{name}"


_TRANSACT_ACTIONS = {"Put": "PutItem", "Delete": "DeleteItem", "Update": "UpdateItem",
                     "ConditionCheck": "ConditionCheckItem"}


def dynamodb_checks(operation: str, body: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The (IAM action, resource) pairs a DynamoDB request needs."""
    if operation == "TransactWriteItems":
        return [(_TRANSACT_ACTIONS[kind], table_arn(item[kind]["TableName"]))
                for item in body["TransactItems"] for kind in item]
    if operation == "TransactGetItems":
        return [("GetItem", table_arn(item["Get"]["TableName"])) for item in body["TransactItems"]]
    if operation in {"BatchGetItem", "BatchWriteItem"}:
        return [(operation, table_arn(name)) for name in body["RequestItems"]]
    arn = table_arn(str(body.get("TableName", "*")))
    if body.get("IndexName"):
        arn += f"/index/{body['IndexName']}"
    return [(operation, arn)]


def _connections(request: Any, full_url: str, headers: Any) -> Any:
    """moto's handler of ``/STAGE/@connections/ID``, looked up at each request: moto keeps
    the handler it finds when it first loads the service, and :func:`enforcing` replaces
    it only for its block."""
    from moto.apigatewaymanagementapi.responses import ApiGatewayManagementApiResponse

    return ApiGatewayManagementApiResponse.connect_to_apigateway(request, full_url, headers)


def _route_connections_through_the_class() -> None:
    from moto.apigatewaymanagementapi import urls

    for path, handler in list(urls.url_paths.items()):
        if getattr(handler, "__name__", "") in {"connect_to_apigateway", "connections"}:
            urls.url_paths[path] = _connections


_route_connections_through_the_class()


def _named(base: type, action: str) -> type:
    """moto's IAM request for ``action``, where it is not the request's operation."""

    class Named(base):  # type: ignore[misc,valid-type]
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**{**kwargs, "action": action})

        def _create_aws_request(self) -> Any:
            request = super()._create_aws_request()
            if not self._body:  # moto signs a request without a body (DeleteConnection)
                request.data = b""  # over its parsed form instead: an empty body's is b""
            return request

    return Named


@contextmanager
def enforcing(calls: Calls) -> Iterator[None]:
    """moto's IAM access control on, with the resources described above, for the block."""
    from moto.apigatewaymanagementapi.responses import ApiGatewayManagementApiResponse
    from moto.core import authorization
    from moto.core.authorization import enable_iam_authentication
    from moto.dynamodb.responses import DynamoHandler
    from moto.iam.access_control import IAMRequest
    from moto.secretsmanager.models import secretsmanager_backends
    from moto.secretsmanager.responses import SecretsManagerResponse
    from werkzeug.exceptions import HTTPException

    def check(handler: Any, pairs: list[tuple[str, str]]) -> None:
        service = handler.service_name if handler.service_name != "apigatewaymanagementapi" \
            else "execute-api"
        credential = re.search(r"Credential=([^/]+)/", handler.headers.get("Authorization", ""))
        key = credential.group(1) if credential else ""
        for operation, resource in pairs:
            try:
                authorization.ActionAuthenticatorMixin._authenticate_and_authorize_action(
                    handler, _named(IAMRequest, operation), resource)
            except HTTPException:
                calls.add(Call(key, f"{service}:{operation}", resource, False))
                raise
            calls.add(Call(key, f"{service}:{operation}", resource, True))

    def dynamodb(self: Any, resource: str = "*") -> None:
        check(self, dynamodb_checks(self._get_action(), self.body))

    def secretsmanager(self: Any, resource: str = "*") -> None:
        secret_id = str(json.loads(self.body or "{}").get("SecretId", "*"))
        if not secret_id.startswith("arn:") and secret_id != "*":
            backend = secretsmanager_backends[self.current_account][self.region]
            secret_id = backend.describe_secret(secret_id).arn
        check(self, [(self._get_action(), secret_id)])

    def sqs(self: Any, resource: str = "*") -> None:
        # SendMessageBatch is no IAM action: it needs sqs:SendMessage, as IAM wants.
        action = self._get_action()
        check(self, [("SendMessage" if action == "SendMessageBatch" else action, resource)])

    real_connect = ApiGatewayManagementApiResponse.connect_to_apigateway

    def connections(request: Any, full_url: str, headers: Any) -> Any:
        # https://API.execute-api.REGION.amazonaws.com/STAGE/@connections/ID
        match = re.match(r"https?://([^.]+)\.execute-api\.([^.]+)\.[^/]+/(.+)/@connections/"
                         r"([^/?]+)", full_url)
        assert match, full_url
        api, region, stage, connection = match.groups()
        self = ApiGatewayManagementApiResponse()
        self.setup_class(request, full_url, headers)
        arn = f"arn:aws:execute-api:{region}:{ACCOUNT}:{api}/{stage}/{request.method}" \
              f"/@connections/{connection}"
        try:
            check(self, [("ManageConnections", arn)])
        except HTTPException as denied:
            return denied.code, {}, denied.description
        return real_connect(request, full_url, headers)

    from moto.sqs.responses import SQSResponse

    patches: list[tuple[type, str, Callable[..., Any]]] = [
        (DynamoHandler, "_authenticate_and_authorize_normal_action", dynamodb),
        (SecretsManagerResponse, "_authenticate_and_authorize_normal_action", secretsmanager),
        (SQSResponse, "_authenticate_and_authorize_normal_action", sqs),
        (ApiGatewayManagementApiResponse, "connect_to_apigateway", staticmethod(connections)),
    ]
    saved = [(cls, name, cls.__dict__[name]) for cls, name, _ in patches
             if name in cls.__dict__]
    try:
        for cls, name, replacement in patches:
            setattr(cls, name, replacement)
        with enable_iam_authentication():
            yield
    finally:
        for cls, name, _ in patches:
            if name in cls.__dict__:
                delattr(cls, name)
        for cls, name, original in saved:
            setattr(cls, name, original)


@dataclass(frozen=True)
class User:
    """An IAM user's access key: :meth:`client` makes clients that sign with it."""

    key: str  # names the caller in :class:`Calls`
    secret: str

    def client(self, service: str, **kwargs: Any) -> Any:
        # One session for every user: it reads each service's model once.
        return _session().client(service, region_name=REGION, aws_access_key_id=self.key,
                                 aws_secret_access_key=self.secret, **kwargs)


@cache
def _session() -> boto3.Session:
    return boto3.Session(region_name=REGION)


def user_with(iam: Any, name: str, statements: list[dict[str, Any]]) -> User:
    """A moto IAM user whose only policy is ``statements``."""
    iam.create_user(UserName=name)
    if statements:
        iam.put_user_policy(UserName=name, PolicyName="function", PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": statements}))
    key = iam.create_access_key(UserName=name)["AccessKey"]
    return User(key["AccessKeyId"], key["SecretAccessKey"])
