"""What ``template.yaml`` says about tables, functions and routes, for code that runs outside AWS.

The DynamoDB tables that the tests and the local runtime create, and the
route → function table the local gateway dispatches with, are read from the
SAM template so that they are written down once, there:

- :func:`table_definitions` — ``create_table`` keyword arguments per table
  (logical id → kwargs); :func:`ttl_attribute` — each table's TTL attribute;
- :func:`create_tables` — create them (idempotently) under given physical names
  and enable TTL; :func:`table_env_vars` — which environment variable names
  which table (``TABLE_NAME`` → ``GameTable``, …);
- :func:`routes` — WebSocket route key → function directory (``"place"`` →
  ``"move"``), following Route → Integration → function → ``CodeUri``;
- :func:`function_dirs` — function logical id → ``CodeUri``.

The Lambda layer does **not** ship ``template.yaml``: this module is for the
tests and the local runtime only, never imported by code running in Lambda.
The template is found relative to this file (the repository root, four
directories up) unless the environment variable ``NUMBRIDGE_TEMPLATE`` names
another file; every function also takes an explicit ``template_path``.
"""

from __future__ import annotations

import contextlib
import copy
import os
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

TEMPLATE_ENV = "NUMBRIDGE_TEMPLATE"
"""Environment variable that overrides the template's location."""

# layers/numbridge/numbridge/sam_template.py → the repository root.
_REPO_ROOT_DEPTH = 3

_TABLE_TYPE = "AWS::DynamoDB::Table"
_FUNCTION_TYPE = "AWS::Serverless::Function"
_ROUTE_TYPE = "AWS::ApiGatewayV2::Route"
_INTEGRATION_TYPE = "AWS::ApiGatewayV2::Integration"

# The parts of a CloudFormation table definition that create_table accepts as they are.
_TABLE_KEYS = (
    "KeySchema",
    "AttributeDefinitions",
    "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes",
    "BillingMode",
    "ProvisionedThroughput",
    "StreamSpecification",
)


class TemplateError(ValueError):
    """``template.yaml`` does not have the shape this module relies on."""


# ---------------------------------------------------------------- loading


# libyaml's parser where PyYAML has it: a tenth of the time (the local server reads the
# template at every start).
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _CloudFormationLoader(_SafeLoader):  # type: ignore[valid-type,misc]
    """A safe loader that reads short-form intrinsics (``!Ref X``) as their long form."""


def _construct_intrinsic(loader: yaml.SafeLoader, tag_suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        assert isinstance(node, yaml.MappingNode)
        value = loader.construct_mapping(node, deep=True)
    if tag_suffix == "Ref":
        return {"Ref": value}
    if tag_suffix == "Condition":
        return {"Condition": value}
    if tag_suffix == "GetAtt" and isinstance(value, str):
        resource, _, attribute = value.partition(".")
        return {"Fn::GetAtt": [resource, attribute]}
    return {f"Fn::{tag_suffix}": value}


_CloudFormationLoader.add_multi_constructor("!", _construct_intrinsic)


def default_template_path() -> Path:
    """``$NUMBRIDGE_TEMPLATE`` if set, else the repository's ``template.yaml``."""
    override = os.environ.get(TEMPLATE_ENV)
    if override:
        return Path(override)
    parents = Path(__file__).resolve().parents
    root = parents[_REPO_ROOT_DEPTH] if len(parents) > _REPO_ROOT_DEPTH else parents[-1]
    return root / "template.yaml"


@lru_cache(maxsize=8)
def _load_cached(path: str, mtime_ns: int) -> dict[str, Any]:
    with open(path, encoding="utf-8") as stream:
        document = yaml.load(stream, Loader=_CloudFormationLoader)  # a SafeLoader subclass
    if not isinstance(document, dict) or not isinstance(document.get("Resources"), dict):
        raise TemplateError(f"{path}: not a CloudFormation template (no Resources)")
    return document


def load_template(template_path: Path | str | None = None) -> dict[str, Any]:
    """The template as plain data; intrinsics in long form (``{"Ref": "GameTable"}``).

    A fresh copy each time: callers may modify it.
    """
    return copy.deepcopy(_read(template_path))


def _read(template_path: Path | str | None = None) -> dict[str, Any]:
    """The parsed template shared by this module's readers, who copy what they return
    that is the template's own (a deep copy costs more than reading it)."""
    path = Path(template_path) if template_path is not None else default_template_path()
    try:
        mtime_ns = path.stat().st_mtime_ns
    except FileNotFoundError:
        raise TemplateError(
            f"{path} not found (the Lambda layer does not ship template.yaml; "
            f"set {TEMPLATE_ENV} to its location)"
        ) from None
    return _load_cached(str(path.resolve()), mtime_ns)


def _resources(template: Mapping[str, Any], type_: str) -> dict[str, dict[str, Any]]:
    return {
        logical_id: resource
        for logical_id, resource in template["Resources"].items()
        if isinstance(resource, dict) and resource.get("Type") == type_
    }


def _properties(resource: Mapping[str, Any]) -> dict[str, Any]:
    properties = resource.get("Properties") or {}
    if not isinstance(properties, dict):
        raise TemplateError(f"Properties is not a mapping: {properties!r}")
    return properties


# ---------------------------------------------------------------- tables


def table_definitions(template_path: Path | str | None = None) -> dict[str, dict[str, Any]]:
    """``create_table`` keyword arguments for each ``AWS::DynamoDB::Table``, by logical id.

    ``TableName`` is the template's literal ``TableName`` if it has one, else the
    logical id; :func:`create_tables` replaces it with the physical name given.
    Settings that ``create_table`` does not take (TTL, point-in-time recovery,
    encryption) are left out; :func:`ttl_attribute` gives the TTL attribute.
    """
    template = _read(template_path)
    definitions: dict[str, dict[str, Any]] = {}
    for logical_id, resource in _resources(template, _TABLE_TYPE).items():
        properties = _properties(resource)
        name = properties.get("TableName")
        kwargs: dict[str, Any] = {"TableName": name if isinstance(name, str) else logical_id}
        kwargs.update({key: properties[key] for key in _TABLE_KEYS if key in properties})
        kwargs.setdefault("BillingMode", "PROVISIONED")
        if "StreamSpecification" in kwargs:
            view_type = kwargs["StreamSpecification"].get("StreamViewType")
            kwargs["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": view_type}
        definitions[logical_id] = kwargs
    return copy.deepcopy(definitions)


def ttl_attribute(logical_id: str, template_path: Path | str | None = None) -> str | None:
    """The enabled TTL attribute of a table (``expires_at``, ``expiration``), or None."""
    template = _read(template_path)
    tables = _resources(template, _TABLE_TYPE)
    if logical_id not in tables:
        raise KeyError(f"no table {logical_id!r} in the template (tables: {sorted(tables)})")
    spec = _properties(tables[logical_id]).get("TimeToLiveSpecification") or {}
    if spec.get("Enabled") in (True, "true", "True") and isinstance(spec.get("AttributeName"), str):
        return str(spec["AttributeName"])
    return None


def table_env_vars(template_path: Path | str | None = None) -> dict[str, str]:
    """Environment variable → table logical id, from ``Globals.Function.Environment``.

    ``{"TABLE_NAME": "GameTable", "IDEMPOTENCY_TABLE_NAME": "IdempotencyTable"}``.
    """
    template = _read(template_path)
    tables = _resources(template, _TABLE_TYPE)
    variables = (
        ((template.get("Globals") or {}).get("Function") or {}).get("Environment") or {}
    ).get("Variables") or {}
    return {
        name: value["Ref"]
        for name, value in variables.items()
        if isinstance(value, dict) and value.get("Ref") in tables
    }


def create_tables(
    dynamodb_client: Any,
    names: Mapping[str, str],
    template_path: Path | str | None = None,
) -> None:
    """Create the tables named in ``names`` (logical id → physical name) and enable their TTL.

    Idempotent: an existing table is left as it is (its TTL is still enabled if
    it was not). ``dynamodb_client`` is a boto3 DynamoDB client (a resource is
    accepted too).
    """
    client = (
        dynamodb_client
        if hasattr(dynamodb_client, "describe_time_to_live")
        else dynamodb_client.meta.client
    )
    definitions = table_definitions(template_path)
    unknown = sorted(set(names) - set(definitions))
    if unknown:
        raise KeyError(f"no such tables in the template: {unknown} (tables: {sorted(definitions)})")
    for logical_id, physical_name in names.items():
        kwargs = {**definitions[logical_id], "TableName": physical_name}
        with contextlib.suppress(client.exceptions.ResourceInUseException):  # exists already
            client.create_table(**kwargs)
        client.get_waiter("table_exists").wait(
            TableName=physical_name, WaiterConfig={"Delay": 1, "MaxAttempts": 60}
        )
        attribute = ttl_attribute(logical_id, template_path)
        if attribute is None:
            continue
        current = client.describe_time_to_live(TableName=physical_name)["TimeToLiveDescription"]
        if current.get("TimeToLiveStatus") in ("ENABLED", "ENABLING"):
            continue
        client.update_time_to_live(
            TableName=physical_name,
            TimeToLiveSpecification={"Enabled": True, "AttributeName": attribute},
        )


# ---------------------------------------------------------------- functions and routes


def function_dirs(template_path: Path | str | None = None) -> dict[str, str]:
    """Function logical id → ``CodeUri`` as written.

    ``{"ConnectFunction": "functions/connect/", …}``
    """
    template = _read(template_path)
    global_code_uri = ((template.get("Globals") or {}).get("Function") or {}).get("CodeUri")
    result: dict[str, str] = {}
    for logical_id, resource in _resources(template, _FUNCTION_TYPE).items():
        code_uri = _properties(resource).get("CodeUri", global_code_uri)
        if not isinstance(code_uri, str):
            raise TemplateError(f"{logical_id}: CodeUri is not a local path: {code_uri!r}")
        result[logical_id] = code_uri
    return result


def function_settings(template_path: Path | str | None = None) -> dict[str, dict[str, Any]]:
    """Function logical id → its properties with ``Globals.Function``'s filled in
    (``Timeout``, ``MemorySize``, …: what each function runs with)."""
    template = _read(template_path)
    globals_ = (template.get("Globals") or {}).get("Function") or {}
    return copy.deepcopy({logical_id: {**globals_, **_properties(resource)}
                          for logical_id, resource in _resources(template, _FUNCTION_TYPE).items()})


_SUB_ARN = re.compile(r"\$\{([A-Za-z0-9]+)\.Arn\}")
_SUB_REF = re.compile(r"\$\{([A-Za-z0-9]+)\}")
# SAM's AutoPublishAlias names a function's alias <Function>Alias<name>.
_SUB_ALIAS = re.compile(r"\$\{([A-Za-z0-9]+Function)Alias[A-Za-z0-9]+\}")


def _integration_of(route_id: str, target: Any) -> str:
    """The integration logical id of a Route Target (``integrations/<id>``)."""
    if isinstance(target, dict) and "Fn::Join" in target:
        delimiter, parts = target["Fn::Join"]
        if delimiter == "/" and len(parts) == 2 and parts[0] == "integrations":
            ref = parts[1]
            if isinstance(ref, dict) and isinstance(ref.get("Ref"), str):
                return str(ref["Ref"])
    if isinstance(target, dict) and "Fn::Sub" in target:
        text = target["Fn::Sub"]
        text = text[0] if isinstance(text, list) else text
        match = re.fullmatch(r"integrations/\$\{([A-Za-z0-9]+)\}", str(text))
        if match:
            return match.group(1)
    raise TemplateError(f"{route_id}: Target is not integrations/<Integration>: {target!r}")


def _function_of(integration_id: str, uri: Any) -> str:
    """The function logical id an IntegrationUri invokes (``${XFunction.Arn}``, or its
    alias ``${XFunctionAliaslive}`` as SAM's AutoPublishAlias names it)."""
    if isinstance(uri, dict) and "Fn::Sub" in uri:
        text = uri["Fn::Sub"]
        if isinstance(text, list):  # [string, {variable: value}]
            text, variables = text[0], text[1]
            for name in _SUB_REF.findall(str(text)):
                value = variables.get(name)
                if isinstance(value, dict) and "Fn::GetAtt" in value:
                    return str(value["Fn::GetAtt"][0])
        found = _SUB_ARN.findall(str(text)) + _SUB_ALIAS.findall(str(text))
        if len(found) == 1:
            return str(found[0])
    if isinstance(uri, dict) and "Fn::Join" in uri:
        found = [
            part["Fn::GetAtt"][0]
            for part in uri["Fn::Join"][1]
            if isinstance(part, dict) and "Fn::GetAtt" in part
        ]
        if len(found) == 1:
            return str(found[0])
    raise TemplateError(f"{integration_id}: IntegrationUri names no single function: {uri!r}")


def routes(template_path: Path | str | None = None) -> dict[str, str]:
    """WebSocket route key → function directory name, in template order.

    ``{"$connect": "connect", "place": "move", "$default": "lobby", …}``: the
    directory is the last part of the function's ``CodeUri`` (``functions/<dir>/``).
    """
    template = _read(template_path)
    integrations = _resources(template, _INTEGRATION_TYPE)
    code_uris = function_dirs(template_path)
    result: dict[str, str] = {}
    for route_id, resource in _resources(template, _ROUTE_TYPE).items():
        properties = _properties(resource)
        route_key = properties.get("RouteKey")
        if not isinstance(route_key, str):
            raise TemplateError(f"{route_id}: RouteKey is not a string: {route_key!r}")
        integration_id = _integration_of(route_id, properties.get("Target"))
        if integration_id not in integrations:
            raise TemplateError(f"{route_id}: no integration {integration_id!r}")
        if _properties(integrations[integration_id]).get("IntegrationType") == "MOCK":
            continue  # answered by API Gateway itself (the keep-alive): no function
        function_id = _function_of(
            integration_id, _properties(integrations[integration_id]).get("IntegrationUri")
        )
        if function_id not in code_uris:
            raise TemplateError(f"{integration_id}: no function {function_id!r}")
        if route_key in result:
            raise TemplateError(f"route {route_key!r} defined twice")
        result[route_key] = PurePosixPath(code_uris[function_id]).name
    return result
