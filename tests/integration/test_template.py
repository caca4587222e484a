"""template.yaml: lint-clean, transforms offline, matches docs/design.md, least privilege.

Also the tables and routes that ``numbridge.sam_template`` reads from it.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import boto3
import cfnlint.api
import pytest
from iam import (
    ROOT,
    SERVICE_POLICY,
    TEMPLATE,
    actions,
    as_list,
    role_of,
    statements,
    transformed,
)
from numbridge import sam_template as template_tables
from numbridge.local.apigateway.routing import KEEPALIVE, select_route
from numbridge.protocol.requests import REQUEST_KINDS

_spec = importlib.util.spec_from_file_location("template_routes", ROOT / "tools" / "routes.py")
assert _spec is not None and _spec.loader is not None
template_routes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(template_routes)

FUNCTIONS = {
    "ConnectFunction", "DisconnectFunction", "LobbyFunction",
    "DealFunction", "MoveFunction", "TimeoutFunction", "SignUpFunction", "BotFunction",
    "FanoutFunction", "ReviewFunction", "TournamentFunction",
}
API_FUNCTIONS = FUNCTIONS - {"TimeoutFunction", "SignUpFunction", "BotFunction",
                             "FanoutFunction", "ReviewFunction", "TournamentFunction"}
# Created only with EnableCognito.
COGNITO = {"UserPool", "UserPoolClient", "UserPoolDomain", "ManagedLoginStyle", "SignUpFunction",
           "SignUpFunctionRole", "SignUpLogGroup", "SignUpErrorsAlarm", "SignUpThrottlesAlarm"}
# Created only as other parameters say.
OPTIONAL = {"AlarmSubscription": "AlarmEmailGiven", "TracingPolicy": "TracingEnabled",
            **dict.fromkeys(("ClientBucket", "ClientBucketPolicy", "ClientOriginAccess",
                             "ClientHeaders", "ClientDistribution"), "HostingWanted")}
HOSTING_OUTPUTS = {"ClientUrl", "ClubLink", "ClientBucketName", "ClientDistributionId"}
# Connect posts presence frames; a player gone is told by the fan-out, after a few
# seconds for a reconnect (Disconnect only hands it the lobby queue's delayed check).
POSTING = {"LobbyFunction", "DealFunction", "MoveFunction", "TimeoutFunction", "BotFunction",
           "ConnectFunction", "FanoutFunction", "TournamentFunction"}
# Every function that commits a game change arms its timer; the lobby deals games
# against a bot.
TIMER_SENDERS = {"LobbyFunction", "DealFunction", "MoveFunction", "TimeoutFunction",
                 "BotFunction", "FanoutFunction", "TournamentFunction"}
# A bot seat may owe a turn after any game change but a deal between two people (a
# tournament's games are between people: bots in tournaments are clients).
BOT_SENDERS = TIMER_SENDERS - {"DealFunction", "FanoutFunction", "TournamentFunction"}
# Every function that commits a change the lobby shows tells the lobby queue (a game
# started or ended, a proposal, a seek, a player online), and the fan-out itself.
LOBBY_SENDERS = {"LobbyFunction", "DealFunction", "MoveFunction", "TimeoutFunction",
                 "BotFunction", "ConnectFunction", "DisconnectFunction", "FanoutFunction",
                 "TournamentFunction"}
# The functions whose commits finish games hand each one to the review queue; those that
# deal games ask it to refill the stock of boards (store.board_stock).
REVIEW_SENDERS = {"MoveFunction", "TimeoutFunction", "BotFunction", "DealFunction",
                  "LobbyFunction", "FanoutFunction", "TournamentFunction"}
# A tournament's steps come from the games that end (move, timeout: a tournament game has
# no bot seat), the joins and leaves (lobby), the sweep (timeout) and the steps
# themselves (the next, delayed).
TOURNAMENT_SENDERS = {"MoveFunction", "TimeoutFunction", "LobbyFunction", "TournamentFunction"}
DESIGN_ENV = {
    "TABLE_NAME", "TIMER_QUEUE_URL", "BOT_QUEUE_URL", "BOT_DELAY_MS", "MANAGEMENT_ENDPOINT",
    "LOBBY_QUEUE_URL", "REVIEW_QUEUE_URL", "TOURNAMENT_QUEUE_URL",
    "POWERTOOLS_SERVICE_NAME", "POWERTOOLS_METRICS_NAMESPACE", "POWERTOOLS_TRACE_DISABLED",
    "LOG_LEVEL", "POWERTOOLS_LOGGER_SAMPLE_RATE",
}


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    return template_tables.load_template(TEMPLATE)


@pytest.fixture(scope="module")
def cfn() -> dict[str, Any]:
    """The CloudFormation template the SAM transform makes, offline."""
    return transformed()


def of_type(template: dict[str, Any], type_: str) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == type_}


def functions_allowed(cfn: dict[str, Any], prefix: str) -> set[str]:
    return {
        function_id
        for function_id in of_type(cfn, "AWS::Lambda::Function")
        if any(a.startswith(prefix) for s in statements(cfn, function_id) for a in actions(s))
    }


# ---------------------------------------------------------------- lint and transform


def test_cfn_lint_is_clean_including_informational_rules() -> None:
    matches = cfnlint.api.lint_file(TEMPLATE, config=cfnlint.api.ManualArgs(include_checks=["I"]))
    assert [str(m) for m in matches] == []


def test_sam_transform_succeeds_offline(cfn: dict[str, Any]) -> None:
    types = {r["Type"] for r in cfn["Resources"].values()}
    assert not {t for t in types if t.startswith("AWS::Serverless::")}
    assert set(of_type(cfn, "AWS::Lambda::Function")) == FUNCTIONS
    assert len(of_type(cfn, "AWS::Lambda::LayerVersion")) == 1
    # timers, bots, lobby, reviews, tournament steps
    assert len(of_type(cfn, "AWS::Lambda::EventSourceMapping")) == 5
    assert len(of_type(cfn, "AWS::Events::Rule")) == 1
    for function in of_type(cfn, "AWS::Lambda::Function").values():
        properties = function["Properties"]
        assert properties["Handler"] == "app.lambda_handler"
        assert properties["Architectures"] == ["arm64"]
        assert properties["TracingConfig"] == {
            "Mode": {"Fn::If": ["TracingEnabled", "Active", "PassThrough"]}
        }
        assert properties["Runtime"] in {"python3.12", "python3.13"}
        assert properties["Timeout"] <= 29
        assert len(properties["Layers"]) == 1


def test_layer_is_built_for_the_lambda_runtime_and_architecture(raw: dict[str, Any]) -> None:
    runtime = raw["Globals"]["Function"]["Runtime"]
    layer = raw["Resources"]["NumbridgeLayer"]
    assert layer["Type"] == "AWS::Serverless::LayerVersion"
    assert layer["Properties"]["ContentUri"].rstrip("/") == "layers/numbridge"
    assert layer["Properties"]["CompatibleRuntimes"] == [runtime]
    assert layer["Properties"]["CompatibleArchitectures"] == ["arm64"]
    assert layer["Metadata"] == {"BuildMethod": "makefile", "BuildArchitecture": "arm64"}
    assert raw["Globals"]["Function"]["Layers"] == [{"Ref": "NumbridgeLayer"}]
    # sam build runs `make build-<LogicalId>` in ContentUri, with the runtime's Python
    makefile = (ROOT / "layers" / "numbridge" / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^build-NumbridgeLayer:\n\t(.+)$", makefile, re.M)
    assert f"{runtime} build_layer.py" in makefile


def test_function_code_dirs(raw: dict[str, Any]) -> None:
    dirs = template_tables.function_dirs(TEMPLATE)
    assert set(dirs) == FUNCTIONS
    for function_id, code_uri in dirs.items():
        name = function_id.removesuffix("Function").lower()
        assert code_uri.rstrip("/") == f"functions/{name}"


# ---------------------------------------------------------------- API Gateway


def test_websocket_api_stage_and_output(raw: dict[str, Any], cfn: dict[str, Any]) -> None:
    (api,) = of_type(cfn, "AWS::ApiGatewayV2::Api").values()
    assert api["Properties"]["ProtocolType"] == "WEBSOCKET"
    assert api["Properties"]["RouteSelectionExpression"] == "$request.body.action"
    (stage,) = of_type(cfn, "AWS::ApiGatewayV2::Stage").values()
    assert stage["Properties"]["AutoDeploy"] is True
    assert stage["Properties"]["StageName"] == {"Ref": "StageName"}
    assert raw["Parameters"]["StageName"]["Default"] == "prod"
    assert set(stage["DependsOn"]) == set(of_type(cfn, "AWS::ApiGatewayV2::Route"))
    uri = cfn["Outputs"]["WebSocketURI"]["Value"]["Fn::Sub"]
    assert uri.startswith("wss://${WebSocketApi}.execute-api.${AWS::Region}.")
    assert {"GameTableName", "TokenSecretArn"} <= set(cfn["Outputs"])


def test_connect_route_is_open_and_checked_by_the_function(cfn: dict[str, Any]) -> None:
    routes = of_type(cfn, "AWS::ApiGatewayV2::Route").values()
    by_key = {route["Properties"]["RouteKey"]: route for route in routes}
    assert by_key["$connect"]["Properties"]["AuthorizationType"] == "NONE"


def test_every_function_is_released_behind_an_alias_gradually_and_rolled_back_by_its_alarm(
        raw: dict[str, Any], cfn: dict[str, Any]) -> None:
    """A new version takes over the alias "live" a tenth at a time (CodeDeploy), and goes
    back if its function's errors alarm fires meanwhile; everything that invokes a function
    invokes that alias."""
    assert raw["Globals"]["Function"]["AutoPublishAlias"] == "live"
    parameter = raw["Parameters"]["DeploymentType"]
    assert parameter["Default"].startswith("Canary") and "AllAtOnce" in parameter["AllowedValues"]
    for function_id in FUNCTIONS:
        preference = raw["Resources"][function_id]["Properties"]["DeploymentPreference"]
        assert preference == {"Type": {"Ref": "DeploymentType"},
                              "Alarms": [{"Ref": function_id.removesuffix("Function")
                                          + "ErrorsAlarm"}]}, function_id
    aliases = {a["Properties"]["FunctionName"]["Ref"]: a
               for a in of_type(cfn, "AWS::Lambda::Alias").values()}
    assert set(aliases) == FUNCTIONS
    for alias in aliases.values():
        assert alias["Properties"]["Name"] == "live"
        assert "CodeDeployLambdaAliasUpdate" in alias["UpdatePolicy"]
    # the queues' pollers, the schedule and the sweep's failure destination: the alias too
    for mapping in of_type(cfn, "AWS::Lambda::EventSourceMapping").values():
        assert mapping["Properties"]["FunctionName"]["Ref"].endswith("Aliaslive"), mapping
    (rule,) = of_type(cfn, "AWS::Events::Rule").values()
    assert rule["Properties"]["Targets"][0]["Arn"] == {"Ref": "TimeoutFunctionAliaslive"}
    sweep = raw["Resources"]["SweepInvokeConfig"]
    assert sweep["Properties"]["Qualifier"] == "live"
    assert sweep["DependsOn"] == "TimeoutFunctionAliaslive"


def test_every_route_reaches_a_function_api_gateway_may_invoke(cfn: dict[str, Any]) -> None:
    integrations = of_type(cfn, "AWS::ApiGatewayV2::Integration")
    permissions = of_type(cfn, "AWS::Lambda::Permission")
    # API Gateway invokes each function's alias "live" (AutoPublishAlias), never $LATEST.
    invokable = {
        p["Properties"]["FunctionName"]["Ref"].removesuffix("Aliaslive"):
            p["Properties"]["SourceArn"]["Fn::Sub"]
        for p in permissions.values()
        if p["Properties"]["Principal"] == "apigateway.amazonaws.com"
    }
    for route_id, route in of_type(cfn, "AWS::ApiGatewayV2::Route").items():
        join = route["Properties"]["Target"]["Fn::Join"]
        assert join[0] == "/" and join[1][0] == "integrations", route_id
        integration = integrations[join[1][1]["Ref"]]["Properties"]
        if route["Properties"]["RouteKey"] == KEEPALIVE:
            continue  # test_the_keep_alive_reaches_no_function
        assert integration["IntegrationType"] == "AWS_PROXY"
        (function_id,) = re.findall(r"\$\{(\w+)Aliaslive\}",
                                    integration["IntegrationUri"]["Fn::Sub"])
        assert function_id in FUNCTIONS, route_id
        source_arn = invokable[function_id]
        assert source_arn.startswith(
            "arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${WebSocketApi}/"
        ), function_id
    # one integration and one permission per API-invoked function, and the keep-alive's
    assert set(invokable) == API_FUNCTIONS
    assert len(integrations) == len(invokable) + 1


def test_the_keep_alive_reaches_no_function(raw: dict[str, Any]) -> None:
    """API Gateway closes a connection idle for 10 minutes: a page with nothing to say
    sends ``ping``, which API Gateway answers itself (MOCK, no route response): one
    message billed, no invocation, nothing sent back; the local gateway drops it too."""
    resources = raw["Resources"]
    route = resources["PingRoute"]["Properties"]
    assert route["RouteKey"] == KEEPALIVE == "ping"
    assert "RouteResponseSelectionExpression" not in route
    integration = resources[route["Target"]["Fn::Join"][1][1]["Ref"]]["Properties"]
    assert integration["IntegrationType"] == "MOCK"
    assert integration["RequestTemplates"] == {"$default": '{"statusCode": 200}'}
    assert not [r for r in resources.values()
                if r["Type"] in {"AWS::ApiGatewayV2::RouteResponse",
                                 "AWS::ApiGatewayV2::IntegrationResponse"}]
    assert KEEPALIVE not in template_tables.routes(TEMPLATE)  # no function behind it
    assert select_route('{"action": "ping"}', template_tables.routes(TEMPLATE)) == KEEPALIVE
    stage = resources["WebSocketStage"]
    assert "PingRoute" in stage["DependsOn"]
    assert KEEPALIVE in stage["Properties"]["RouteSettings"]


def test_routes_are_the_declared_ones() -> None:
    """Each action goes to the function its declaration names; the rest is fixed."""
    expected = {"$connect": "connect", "$disconnect": "disconnect", "$default": "lobby",
                **{name: kind.request.function for name, kind in REQUEST_KINDS.items()}}
    assert template_tables.routes(TEMPLATE) == expected
    assert expected["accept"] == "deal" and expected["place"] == "move"


def test_the_generated_routes_are_current() -> None:
    text = TEMPLATE.read_text(encoding="utf-8")
    assert template_routes.render(text) == text, "template.yaml is stale: python tools/routes.py"


def test_every_protocol_action_has_its_own_route() -> None:
    routes = template_tables.routes(TEMPLATE)
    assert set(REQUEST_KINDS) <= set(routes)


def test_routes_follow_long_form_intrinsics_and_the_env_override(
    raw: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # JSON is YAML: the same template with every intrinsic in long form.
    long_form = copy.deepcopy(raw)
    path = tmp_path / "template.json"
    path.write_text(json.dumps(long_form), encoding="utf-8")
    monkeypatch.setenv(template_tables.TEMPLATE_ENV, str(path))
    assert template_tables.default_template_path() == path
    assert template_tables.routes() == template_tables.routes(TEMPLATE)
    # Fn::Sub written as a list and a Sub target are understood too.
    resources = long_form["Resources"]
    resources["MoveIntegration"]["Properties"]["IntegrationUri"] = {
        "Fn::Sub": ["arn:aws:apigateway:r:lambda:path/2015-03-31/functions/${f}/invocations",
                    {"f": {"Fn::GetAtt": ["MoveFunction", "Arn"]}}]
    }
    resources["PlaceRoute"]["Properties"]["Target"] = {"Fn::Sub": "integrations/${MoveIntegration}"}
    path.write_text(json.dumps(long_form), encoding="utf-8")
    assert template_tables.routes()["place"] == "move"


# ---------------------------------------------------------------- IAM


def test_only_posting_functions_may_manage_connections(cfn: dict[str, Any]) -> None:
    assert functions_allowed(cfn, "execute-api:") == POSTING
    for function_id in POSTING:
        for statement in statements(cfn, function_id):
            if "execute-api:ManageConnections" in actions(statement):
                resource = statement["Resource"]["Fn::Sub"]
                # POST a frame; DELETE a connection whose token expired (never GET)
                assert resource.endswith((":${WebSocketApi}/${StageName}/POST/@connections/*",
                                          ":${WebSocketApi}/${StageName}/DELETE/@connections/*"))
        sids = {s.get("Sid") for s in statements(cfn, function_id)}
        assert {"PostToConnections", "CloseConnections"} <= sids, function_id


def test_no_wildcard_resources_and_tables_scoped(cfn: dict[str, Any]) -> None:
    """Every statement names its resources: the game table (or its index), never "*";
    test_least_privilege.py shows that each is needed and enough."""
    table = {"Fn::GetAtt": ["GameTable", "Arn"]}
    index = {"Fn::Sub": "${GameTable.Arn}/index/gsi1"}
    for function_id in FUNCTIONS:
        tables = []
        for statement in statements(cfn, function_id):
            assert statement.get("Effect") == "Allow"
            assert not any("*" in a for a in actions(statement)), (function_id, statement)
            assert "*" not in as_list(statement["Resource"]), (function_id, statement)
            if any(a.startswith("dynamodb:") for a in actions(statement)):
                assert statement["Resource"] in (table, index), (function_id, statement)
                tables.append(statement["Resource"])
        # Scans and batch writes belong to `numbridge club`, run by an operator.
        for statement in statements(cfn, function_id):
            assert not {"dynamodb:Scan", "dynamodb:BatchWriteItem"} & set(actions(statement))
        assert table in tables, function_id


def queue_senders(cfn: dict[str, Any], queue: str) -> set[str]:
    """The functions that may send messages to one queue."""
    return {
        function_id
        for function_id in of_type(cfn, "AWS::Lambda::Function")
        for s in statements(cfn, function_id)
        if any(a.startswith("sqs:SendMessage") for a in actions(s))
        and queue in json.dumps(s["Resource"])
    }


def test_timer_queue_and_token_secret_access(cfn: dict[str, Any]) -> None:
    assert functions_allowed(cfn, "sqs:SendMessage") == TIMER_SENDERS | LOBBY_SENDERS
    assert queue_senders(cfn, "TimerQueue") == TIMER_SENDERS
    assert queue_senders(cfn, "BotQueue") == BOT_SENDERS
    assert queue_senders(cfn, "LobbyQueue") == LOBBY_SENDERS
    assert queue_senders(cfn, "ReviewQueue") == REVIEW_SENDERS
    assert queue_senders(cfn, "TournamentQueue") == TOURNAMENT_SENDERS
    assert functions_allowed(cfn, "secretsmanager:") == {"ConnectFunction"}
    (statement,) = [
        s for s in statements(cfn, "ConnectFunction")
        if "secretsmanager:GetSecretValue" in actions(s)
    ]
    assert statement["Resource"] == {"Ref": "TokenSecret"}
    assert actions(statement) == ["secretsmanager:GetSecretValue"]


def test_function_environment(cfn: dict[str, Any]) -> None:
    for function_id, function in of_type(cfn, "AWS::Lambda::Function").items():
        env = function["Properties"]["Environment"]["Variables"]
        assert set(env) >= DESIGN_ENV, function_id
        assert env["TABLE_NAME"] == {"Ref": "GameTable"}
        assert env["TIMER_QUEUE_URL"] == {"Ref": "TimerQueue"}
        assert env["POWERTOOLS_SERVICE_NAME"] == "numbridge"
        assert env["POWERTOOLS_METRICS_NAMESPACE"] == "Numbridge"
        assert env["MANAGEMENT_ENDPOINT"]["Fn::Sub"] == (
            "https://${WebSocketApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}/${StageName}"
        )
        assert ("TOKEN_SECRET_ARN" in env) == (function_id == "ConnectFunction")
        assert ("COGNITO_USER_POOL_ID" in env) == (function_id == "ConnectFunction")
        assert env["POWERTOOLS_TRACE_DISABLED"] == {"Fn::If": ["TracingEnabled", "false", "true"]}
        assert env["POWERTOOLS_LOGGER_SAMPLE_RATE"] == {"Ref": "LogSampleRate"}
    assert template_tables.table_env_vars(TEMPLATE) == {"TABLE_NAME": "GameTable"}


# ---------------------------------------------------------------- timers


def test_timer_queue_sweep_and_event_source(cfn: dict[str, Any]) -> None:
    timeout_s = cfn["Resources"]["TimeoutFunction"]["Properties"]["Timeout"]
    queue = cfn["Resources"]["TimerQueue"]["Properties"]
    assert queue["VisibilityTimeout"] >= 6 * timeout_s
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {
        "Fn::GetAtt": ["TimerDeadLetterQueue", "Arn"]
    }
    mappings = of_type(cfn, "AWS::Lambda::EventSourceMapping").values()
    (mapping,) = [m for m in mappings if m["Properties"]["FunctionName"] == {
        "Ref": "TimeoutFunctionAliaslive"}]
    assert mapping["Properties"]["EventSourceArn"] == {"Fn::GetAtt": ["TimerQueue", "Arn"]}
    assert mapping["Properties"]["BatchSize"] == 10
    assert mapping["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    (rule,) = of_type(cfn, "AWS::Events::Rule").values()
    assert rule["Properties"]["ScheduleExpression"] == "rate(1 minute)"
    assert rule["Properties"]["Targets"][0]["Arn"] == {"Ref": "TimeoutFunctionAliaslive"}


def test_lobby_queue_is_read_in_batches_of_a_second_by_the_fanout_function(
    cfn: dict[str, Any],
) -> None:
    """The fan-out's coalescing is the mapping's batching: a second's changes in one
    invocation (docs/lobby-push.md). A mapping without the window would invoke it per
    message: a frame per change to every subscriber."""
    timeout_s = cfn["Resources"]["FanoutFunction"]["Properties"]["Timeout"]
    queue = cfn["Resources"]["LobbyQueue"]["Properties"]
    assert queue["VisibilityTimeout"] >= 6 * timeout_s
    assert queue["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": ["LobbyDeadLetterQueue", "Arn"]},
        "maxReceiveCount": 3,
    }
    mappings = of_type(cfn, "AWS::Lambda::EventSourceMapping").values()
    (mapping,) = [m for m in mappings if m["Properties"]["FunctionName"] == {
        "Ref": "FanoutFunctionAliaslive"}]
    properties = mapping["Properties"]
    assert properties["EventSourceArn"] == {"Fn::GetAtt": ["LobbyQueue", "Arn"]}
    assert properties["MaximumBatchingWindowInSeconds"] == 1
    assert properties["BatchSize"] == 100
    assert properties["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    env = cfn["Resources"]["FanoutFunction"]["Properties"]["Environment"]["Variables"]
    assert env["LOBBY_QUEUE_URL"] == {"Ref": "LobbyQueue"}


def test_bot_queue_retries_dead_letters_and_triggers_the_bot_function(
    cfn: dict[str, Any],
) -> None:
    timeout_s = cfn["Resources"]["BotFunction"]["Properties"]["Timeout"]
    queue = cfn["Resources"]["BotQueue"]["Properties"]
    assert queue["VisibilityTimeout"] >= 6 * timeout_s
    assert queue["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": ["BotDeadLetterQueue", "Arn"]},
        "maxReceiveCount": 3,
    }
    mappings = of_type(cfn, "AWS::Lambda::EventSourceMapping").values()
    (mapping,) = [m for m in mappings if m["Properties"]["FunctionName"] == {
        "Ref": "BotFunctionAliaslive"}]
    assert mapping["Properties"]["EventSourceArn"] == {"Fn::GetAtt": ["BotQueue", "Arn"]}
    assert mapping["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    env = cfn["Resources"]["BotFunction"]["Properties"]["Environment"]["Variables"]
    assert env["BOT_QUEUE_URL"] == {"Ref": "BotQueue"}
    assert env["BOT_DELAY_MS"] == {"Ref": "BotDelayMs"}


# ---------------------------------------------------------------- tables


def test_table_definitions_match_the_design(raw: dict[str, Any]) -> None:
    tables = template_tables.table_definitions(TEMPLATE)
    assert set(tables) == {"GameTable"}
    game = tables["GameTable"]
    assert game["KeySchema"] == [
        {"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}
    ]
    assert {(a["AttributeName"], a["AttributeType"]) for a in game["AttributeDefinitions"]} == {
        ("pk", "S"), ("sk", "S"), ("gsi1pk", "S"), ("gsi1sk", "S")
    }
    assert game["GlobalSecondaryIndexes"] == [{
        "IndexName": "gsi1",
        "KeySchema": [{"AttributeName": "gsi1pk", "KeyType": "HASH"},
                      {"AttributeName": "gsi1sk", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "ALL"},
    }]
    assert game["BillingMode"] == "PAY_PER_REQUEST"
    assert template_tables.ttl_attribute("GameTable", TEMPLATE) == "expires_at"
    properties = raw["Resources"]["GameTable"]["Properties"]
    assert properties["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    with pytest.raises(KeyError):
        template_tables.ttl_attribute("NoSuchTable", TEMPLATE)


def test_create_tables_in_moto_is_idempotent_and_enables_ttl(aws: None) -> None:
    client = boto3.client("dynamodb", region_name="us-east-1")
    names = {"GameTable": "nb-test-game"}
    template_tables.create_tables(client, names, TEMPLATE)
    template_tables.create_tables(client, names, TEMPLATE)  # again: nothing to do, no error
    assert sorted(client.list_tables()["TableNames"]) == sorted(names.values())

    game = client.describe_table(TableName="nb-test-game")["Table"]
    assert [k["AttributeName"] for k in game["KeySchema"]] == ["pk", "sk"]
    assert game["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    (gsi,) = game["GlobalSecondaryIndexes"]
    assert gsi["IndexName"] == "gsi1"
    assert [k["AttributeName"] for k in gsi["KeySchema"]] == ["gsi1pk", "gsi1sk"]
    ttl = client.describe_time_to_live(TableName="nb-test-game")["TimeToLiveDescription"]
    assert (ttl["TimeToLiveStatus"], ttl["AttributeName"]) == ("ENABLED", "expires_at")

    # the overloaded index answers a deadline query
    client.put_item(TableName="nb-test-game", Item={
        "pk": {"S": "GAME#g-1"}, "sk": {"S": "STATE"},
        "gsi1pk": {"S": "DEADLINE#0"}, "gsi1sk": {"S": f"{1796000045000:015d}"},
    })
    found = client.query(
        TableName="nb-test-game", IndexName="gsi1",
        KeyConditionExpression="gsi1pk = :p AND gsi1sk <= :now",
        ExpressionAttributeValues={
            ":p": {"S": "DEADLINE#0"}, ":now": {"S": f"{1796000050000:015d}"}
        },
    )["Items"]
    assert [item["pk"]["S"] for item in found] == ["GAME#g-1"]


def test_create_tables_accepts_a_resource_and_rejects_unknown_tables(aws: None) -> None:
    resource = boto3.resource("dynamodb", region_name="us-east-1")
    template_tables.create_tables(resource, {"GameTable": "nb-games"}, TEMPLATE)
    assert [t.name for t in resource.tables.all()] == ["nb-games"]
    with pytest.raises(KeyError):
        template_tables.create_tables(resource, {"Nope": "x"}, TEMPLATE)


def test_missing_template_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(template_tables.TemplateError, match="NUMBRIDGE_TEMPLATE"):
        template_tables.routes(tmp_path / "absent.yaml")


# ---------------------------------------------------------------- options: tracing, Cognito


def test_debug_sampling_is_a_stack_option_off_by_default(raw: dict[str, Any]) -> None:
    parameter = raw["Parameters"]["LogSampleRate"]
    assert (parameter["Type"], parameter["Default"]) == ("Number", 0)
    assert (parameter["MinValue"], parameter["MaxValue"]) == (0, 1)
    variables = raw["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["POWERTOOLS_LOGGER_SAMPLE_RATE"] == {"Ref": "LogSampleRate"}
    for function_id in FUNCTIONS:  # none sets its own
        own = raw["Resources"][function_id]["Properties"].get("Environment", {})
        assert "POWERTOOLS_LOGGER_SAMPLE_RATE" not in own.get("Variables", {}), function_id


def test_tracing_is_a_stack_option_off_by_default(raw: dict[str, Any]) -> None:
    parameter = raw["Parameters"]["EnableTracing"]
    assert parameter["Default"] == "false" and parameter["AllowedValues"] == ["true", "false"]
    assert raw["Conditions"]["TracingEnabled"] == {
        "Fn::Equals": [{"Ref": "EnableTracing"}, "true"]
    }


def test_cognito_resources_exist_only_when_enabled(raw: dict[str, Any]) -> None:
    parameter = raw["Parameters"]["EnableCognito"]
    assert parameter["Default"] == "false" and parameter["AllowedValues"] == ["true", "false"]
    resources = raw["Resources"]
    for logical_id in COGNITO:
        assert resources[logical_id]["Condition"] in {"CognitoEnabled", "CognitoDomainWanted"}
    assert resources["UserPoolDomain"]["Condition"] == "CognitoDomainWanted"
    conditional = {k: v["Condition"] for k, v in resources.items() if "Condition" in v}
    assert set(conditional) == COGNITO | set(OPTIONAL)
    assert {k: conditional[k] for k in OPTIONAL} == OPTIONAL
    for output_id, output in raw["Outputs"].items():
        if output_id in HOSTING_OUTPUTS:
            assert output["Condition"] == "HostingWanted"
            continue
        assert ("Condition" in output) == output_id.startswith("Cognito"), output_id


def test_the_user_pool_keeps_players_and_names_them_uniquely(raw: dict[str, Any]) -> None:
    pool = raw["Resources"]["UserPool"]
    assert pool["DeletionPolicy"] == pool["UpdateReplacePolicy"] == "Retain"
    properties = pool["Properties"]
    assert properties["UsernameConfiguration"] == {"CaseSensitive": False}
    # the username is the player's name: not an email or phone alias that can change
    assert "UsernameAttributes" not in properties and "AliasAttributes" not in properties


def test_the_app_client_is_public_and_uses_the_code_flow(raw: dict[str, Any]) -> None:
    client = raw["Resources"]["UserPoolClient"]["Properties"]
    assert client["UserPoolId"] == {"Ref": "UserPool"}
    assert client["GenerateSecret"] is False
    assert client["AllowedOAuthFlows"] == ["code"]
    assert "ALLOW_USER_PASSWORD_AUTH" in client["ExplicitAuthFlows"]
    # the hosted page, or the operator's own (test_the_stack_hosts_the_club_page_...)
    assert client["CallbackURLs"]["Fn::If"][2] == {"Ref": "CognitoCallbackUrls"}
    assert client["IdTokenValidity"] <= 60 and client["TokenValidityUnits"]["IdToken"] == "minutes"


def test_connect_is_told_the_pool_only_when_cognito_is_on(cfn: dict[str, Any]) -> None:
    env = cfn["Resources"]["ConnectFunction"]["Properties"]["Environment"]["Variables"]
    assert env["COGNITO_USER_POOL_ID"] == {
        "Fn::If": ["CognitoEnabled", {"Ref": "UserPool"}, {"Ref": "AWS::NoValue"}]
    }
    assert env["COGNITO_CLIENT_ID"] == {
        "Fn::If": ["CognitoEnabled", {"Ref": "UserPoolClient"}, {"Ref": "AWS::NoValue"}]
    }


def test_sign_up_is_checked_by_the_signup_function(cfn: dict[str, Any]) -> None:
    resources = cfn["Resources"]
    assert resources["UserPool"]["Properties"]["LambdaConfig"] == {
        "PreSignUp": {"Ref": "SignUpFunctionAliaslive"}
    }
    (permission,) = [
        p for p in of_type(cfn, "AWS::Lambda::Permission").values()
        if p["Properties"]["Principal"] == "cognito-idp.amazonaws.com"
    ]
    assert permission["Condition"] == "CognitoEnabled"
    assert permission["Properties"]["FunctionName"] == {"Ref": "SignUpFunctionAliaslive"}
    assert permission["Properties"]["SourceArn"] == {"Fn::GetAtt": ["UserPool", "Arn"]}
    assert resources["SignUpFunction"]["Condition"] == "CognitoEnabled"
    # reads only: a name that is a player's already is refused
    (read,) = statements(cfn, "SignUpFunction")
    assert set(actions(read)) == {"dynamodb:GetItem", "dynamodb:Query"}
    assert read["Resource"] == {"Fn::GetAtt": ["GameTable", "Arn"]}


# ---------------------------------------------------------------- logs, failures, concurrency


def log_group_of(template: dict[str, Any], function_id: str) -> str:
    """The log group a function writes to (its LoggingConfig)."""
    ref = template["Resources"][function_id]["Properties"]["LoggingConfig"]["LogGroup"]
    assert set(ref) == {"Ref"}, (function_id, ref)
    return str(ref["Ref"])


def test_every_function_logs_to_a_group_that_expires(raw: dict[str, Any]) -> None:
    resources = raw["Resources"]
    groups = {k: v for k, v in resources.items() if v["Type"] == "AWS::Logs::LogGroup"}
    for function_id in FUNCTIONS:
        group = groups[log_group_of(raw, function_id)]
        assert group["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionDays"}
        assert group.get("Condition") == resources[function_id].get("Condition")
        # Named without the function (its role names the group: no cycle), one each.
        name = group["Properties"]["LogGroupName"]["Fn::Sub"]
        assert name.startswith("/aws/lambda/${AWS::StackName}-")
    assert len({json.dumps(g["Properties"]["LogGroupName"]) for g in groups.values()}) == len(
        groups)
    assert all(g["Properties"]["RetentionInDays"] == {"Ref": "LogRetentionDays"}
               for g in groups.values())
    assert raw["Parameters"]["LogRetentionDays"]["Default"] == 30


def test_every_route_has_its_limit_and_a_players_is_well_below_each(
        raw: dict[str, Any], cfn: dict[str, Any]) -> None:
    """Whatever a deploy sets the per-player limit to (up to its parameters' maxima), it
    is at most half of every route's rate and burst: one player, or a script under one
    name, is refused (rate_limited) long before a route fills for everyone."""
    settings = raw["Resources"]["WebSocketStage"]["Properties"]["RouteSettings"]
    keys = {r["Properties"]["RouteKey"] for r in of_type(raw, "AWS::ApiGatewayV2::Route").values()}
    assert set(settings) == keys
    rate, burst = (raw["Parameters"][p] for p in ("PlayerRatePerSecond", "PlayerRateBurst"))
    assert rate["MinValue"] <= rate["Default"] <= rate["MaxValue"]
    assert burst["MinValue"] <= burst["Default"] <= burst["MaxValue"]
    for key, route in settings.items():
        assert 2 * rate["MaxValue"] <= route["ThrottlingRateLimit"], key
        assert 2 * burst["MaxValue"] <= route["ThrottlingBurstLimit"], key
        assert route["ThrottlingRateLimit"] <= route["ThrottlingBurstLimit"], key
        assert (route["LoggingLevel"], route["DataTraceEnabled"]) == ("OFF", False), key
    # The parameters are the limit the code applies, in every function.
    for function_id, function in of_type(cfn, "AWS::Lambda::Function").items():
        env = function["Properties"]["Environment"]["Variables"]
        assert env["NUMBRIDGE_RATE_PER_SECOND"] == {"Ref": "PlayerRatePerSecond"}, function_id
        assert env["NUMBRIDGE_RATE_BURST"] == {"Ref": "PlayerRateBurst"}, function_id
    # The moves carry most of the traffic; a connect or an unknown frame least of it.
    place, rooms = settings["place"]["ThrottlingRateLimit"], settings["rooms"][
        "ThrottlingRateLimit"]
    assert place > settings["sync"]["ThrottlingRateLimit"] > rooms > settings["$connect"][
        "ThrottlingRateLimit"]
    assert settings["accept"]["ThrottlingRateLimit"] < rooms


def test_the_access_log_is_json_without_the_query_string(raw: dict[str, Any]) -> None:
    stage = raw["Resources"]["WebSocketStage"]["Properties"]
    settings = stage["AccessLogSettings"]
    assert settings["DestinationArn"] == {"Fn::GetAtt": ["AccessLogGroup", "Arn"]}
    fields = json.loads(settings["Format"])
    assert {"requestId", "routeKey", "status", "connectionId", "integrationLatency"} <= set(
        fields)
    # The token travels in the query string: no variable that could carry it.
    text = settings["Format"].lower()
    for leak in ("querystring", "token", "$context.identity.user", "authorizer", "$input"):
        assert leak not in text, leak
    assert stage["DefaultRouteSettings"]["LoggingLevel"] == "OFF"
    assert stage["DefaultRouteSettings"]["DataTraceEnabled"] is False


def test_the_sweeps_failures_go_to_a_queue_only_lambda_sends_to(cfn: dict[str, Any]) -> None:
    (config,) = of_type(cfn, "AWS::Lambda::EventInvokeConfig").values()
    properties = config["Properties"]
    assert properties["FunctionName"] == {"Ref": "TimeoutFunction"}
    destination = properties["DestinationConfig"]["OnFailure"]["Destination"]
    assert destination == {"Fn::GetAtt": ["SweepFailureQueue", "Arn"]}
    (statement,) = [s for s in statements(cfn, "TimeoutFunction", SERVICE_POLICY)
                    if s["Sid"] == "AsyncFailures"]
    assert actions(statement) == ["sqs:SendMessage"] and statement["Resource"] == destination
    assert "SweepFailureQueue" not in json.dumps(statements(cfn, "TimeoutFunction"))
    for function_id in FUNCTIONS - {"TimeoutFunction"}:
        assert "SweepFailureQueue" not in json.dumps(role_of(cfn, function_id))


# AWS's managed policies that SAM attaches to a role it writes: each grants on "*".
BROAD = ("AWSLambdaBasicExecutionRole", "AWSXrayWriteOnlyAccess",
         "AWSLambdaSQSQueueExecutionRole", "AWSXRayDaemonWriteAccess")


def test_no_function_role_holds_a_broad_managed_policy(cfn: dict[str, Any]) -> None:
    """Each function's role is the template's own: AWS's policies for logs, X-Ray and
    the SQS poller (every resource) are replaced by statements on the function's log
    group and queue, and X-Ray's only when tracing is on."""
    tracing_only = {"Fn::If": ["TracingEnabled", [{"Ref": "TracingPolicy"}],
                               {"Ref": "AWS::NoValue"}]}
    for function_id in FUNCTIONS:
        role = role_of(cfn, function_id)
        assert role["ManagedPolicyArns"] == tracing_only, function_id
        assert {p["PolicyName"] for p in role["Policies"]} <= {"Code", SERVICE_POLICY}
    assert not any(b in json.dumps(cfn) for b in BROAD)
    policy = cfn["Resources"]["TracingPolicy"]
    assert policy["Condition"] == "TracingEnabled"
    (xray,) = as_list(policy["Properties"]["PolicyDocument"]["Statement"])
    # X-Ray's actions accept no resource but "*": the one "*" of the functions' roles.
    assert xray["Resource"] == "*" and all(a.startswith("xray:Put") or a.startswith(
        "xray:GetSampling") for a in actions(xray))


def test_what_lambda_does_with_a_role_is_scoped_to_the_functions_own(
        cfn: dict[str, Any]) -> None:
    """Logs: its own group, streams and events only (the group exists: no
    CreateLogGroup). The queue poller: receive, delete and attributes on the queue its
    event source reads. Nothing else but the sweep's failure queue."""
    # (each mapping invokes the function's alias "live")
    polled = {m["Properties"]["FunctionName"]["Ref"].removesuffix("Aliaslive"):
              m["Properties"]["EventSourceArn"]
              for m in of_type(cfn, "AWS::Lambda::EventSourceMapping").values()}
    assert set(polled) == {"TimeoutFunction", "BotFunction", "FanoutFunction", "ReviewFunction",
                           "TournamentFunction"}
    for function_id in FUNCTIONS:
        service = {s["Sid"]: s for s in statements(cfn, function_id, SERVICE_POLICY)}
        logs = service.pop("Logs")
        assert actions(logs) == ["logs:CreateLogStream", "logs:PutLogEvents"]
        assert logs["Resource"] == {"Fn::GetAtt": [log_group_of(cfn, function_id), "Arn"]}
        if function_id in polled:
            poll = service.pop("PollQueue")
            assert sorted(actions(poll)) == [
                "sqs:DeleteMessage", "sqs:GetQueueAttributes", "sqs:ReceiveMessage"]
            assert poll["Resource"] == polled[function_id]
        if function_id == "TimeoutFunction":
            service.pop("AsyncFailures")
        assert service == {}, function_id
        for statement in statements(cfn, function_id, SERVICE_POLICY):
            assert statement["Effect"] == "Allow" and "*" not in json.dumps(statement)


def test_the_clocks_and_bots_have_concurrency_of_their_own(raw: dict[str, Any]) -> None:
    resources = raw["Resources"]
    reserved = {k: v["Properties"]["ReservedConcurrentExecutions"] for k, v in resources.items()
                if "ReservedConcurrentExecutions" in v.get("Properties", {})}
    assert reserved == {"TimeoutFunction": {"Ref": "TimeoutConcurrency"},
                        "BotFunction": {"Ref": "BotConcurrency"},
                        "DealFunction": {"Ref": "DealConcurrency"}}
    # A queue's poller runs no more containers than are reserved (no throttled retries).
    scaling = resources["BotFunction"]["Properties"]["Events"]["Turn"]["Properties"]
    assert scaling["ScalingConfig"]["MaximumConcurrency"] == reserved["BotFunction"]


def test_the_sweep_always_has_a_container_the_timers_cannot_take(raw: dict[str, Any]) -> None:
    """The timer queue's poller may use one fewer container than the timeout function
    reserves: however many timers are due, the one-minute sweep is never throttled."""
    timer = raw["Resources"]["TimeoutFunction"]["Properties"]["Events"]["Timer"]["Properties"]
    assert timer["ScalingConfig"]["MaximumConcurrency"] == {
        "Fn::FindInMap": ["TimerQueuePollers", {"Ref": "TimeoutConcurrency"}, "Pollers"]}
    parameter = raw["Parameters"]["TimeoutConcurrency"]
    pollers = raw["Mappings"]["TimerQueuePollers"]
    assert sorted(int(k) for k in pollers) == sorted(parameter["AllowedValues"])
    assert parameter["Default"] in parameter["AllowedValues"]
    for reserved, row in pollers.items():
        # SQS event source mappings take at least 2 pollers.
        assert row == {"Pollers": int(reserved) - 1} and row["Pollers"] >= 2


def test_the_timer_and_bot_chains_are_allowed_to_be_as_long_as_a_game(
        raw: dict[str, Any], cfn: dict[str, Any]) -> None:
    """Lambda stops a function -> queue -> function chain after about 16 hops and
    dead-letters the message; a game's timers (and its bot's turns) are one chain as
    long as the game. Only the functions fed by a queue they send to are allowed."""
    looping = {k for k, v in raw["Resources"].items()
               if v.get("Properties", {}).get("RecursiveLoop") == "Allow"}
    # The fan-out sends to its own queue (the online count's next push); a tournament's
    # step sends its next one (an arena's end, the next round).
    assert looping == {"TimeoutFunction", "BotFunction", "FanoutFunction", "TournamentFunction"}
    for function_id in looping:
        assert cfn["Resources"][function_id]["Properties"]["RecursiveLoop"] == "Allow"
    for function_id, function in of_type(cfn, "AWS::Lambda::Function").items():
        if function_id not in looping:
            assert function["Properties"].get("RecursiveLoop", "Terminate") == "Terminate"


def test_the_table_cannot_be_deleted_by_accident(raw: dict[str, Any]) -> None:
    """Catches: a stack deleted, or an update that replaces the table, taking the club's
    table (every game, rating and account) with it."""
    table = raw["Resources"]["GameTable"]
    assert table["Properties"]["DeletionProtectionEnabled"] is True
    assert table["DeletionPolicy"] == table["UpdateReplacePolicy"] == "Retain"


def test_the_stack_hosts_the_club_page_privately_over_https(raw: dict[str, Any]) -> None:
    """web/ in a bucket nobody reads but this distribution (origin access control, TLS
    only), served over HTTPS with the local server's security headers, the page allowed
    to connect only to this stack's WebSocket API and sign-in; its address is managed
    login's callback."""
    from numbridge.local.apigateway.static import CONTENT_SECURITY_POLICY

    resources = raw["Resources"]
    assert raw["Parameters"]["HostClient"]["Default"] == "true"
    assert raw["Conditions"]["HostingWanted"] == {"Fn::Equals": [{"Ref": "HostClient"}, "true"]}
    bucket = resources["ClientBucket"]["Properties"]
    assert set(bucket["PublicAccessBlockConfiguration"].values()) == {True}
    assert bucket["OwnershipControls"]["Rules"] == [{"ObjectOwnership": "BucketOwnerEnforced"}]
    allow, deny = resources["ClientBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert allow["Principal"] == {"Service": "cloudfront.amazonaws.com"}
    assert allow["Action"] == "s3:GetObject"
    assert "${ClientDistribution}" in allow["Condition"]["StringEquals"]["AWS:SourceArn"]["Fn::Sub"]
    assert (deny["Effect"], deny["Condition"]) == (
        "Deny", {"Bool": {"aws:SecureTransport": "false"}})
    access = resources["ClientOriginAccess"]["Properties"]["OriginAccessControlConfig"]
    assert (access["SigningBehavior"], access["SigningProtocol"]) == ("always", "sigv4")
    config = resources["ClientDistribution"]["Properties"]["DistributionConfig"]
    [origin] = config["Origins"]
    assert origin["OriginAccessControlId"] == {"Fn::GetAtt": ["ClientOriginAccess", "Id"]}
    behaviour = config["DefaultCacheBehavior"]
    assert behaviour["ViewerProtocolPolicy"] == "redirect-to-https"
    assert behaviour["ResponseHeadersPolicyId"] == {"Ref": "ClientHeaders"}
    assert config["DefaultRootObject"] == "index.html"
    security = resources["ClientHeaders"]["Properties"]["ResponseHeadersPolicyConfig"][
        "SecurityHeadersConfig"]
    csp, origins = security["ContentSecurityPolicy"]["ContentSecurityPolicy"]["Fn::Sub"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["connect-src"] == (
        "'self' wss://${WebSocketApi}.execute-api.${AWS::Region}.${AWS::URLSuffix}"
        "${CognitoOrigins}")
    assert "CognitoOrigins" in origins
    local = dict(d.strip().split(" ", 1) for d in CONTENT_SECURITY_POLICY.split(";"))
    for name, value in local.items():
        if name != "connect-src":  # the local page speaks to its own server, ws: or wss:
            assert directives[name] == value, name
    assert security["StrictTransportSecurity"]["AccessControlMaxAgeSec"] >= 31536000
    assert security["FrameOptions"]["FrameOption"] == "DENY"
    assert set(security) >= {"ContentTypeOptions", "ReferrerPolicy"}
    client = resources["UserPoolClient"]["Properties"]
    hosted = [{"Fn::Sub": "https://${ClientDistribution.DomainName}/"}]
    for urls in (client["CallbackURLs"], client["LogoutURLs"]):
        assert urls == {"Fn::If": ["HostingWanted", hosted, {"Ref": "CognitoCallbackUrls"}]}
    assert raw["Outputs"]["ClientUrl"]["Value"] == hosted[0]
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "upload-web:" in make and "tools/upload_web.py" in make


def test_the_account_wide_logging_role_is_not_this_stacks(raw: dict[str, Any]) -> None:
    """API Gateway's logging role is one setting per account and region: a one-off
    stack of its own sets it, and the club's stack never touches it."""
    types = {v["Type"] for v in raw["Resources"].values()}
    assert "AWS::ApiGateway::Account" not in types
    assert not {p for p in raw["Parameters"] if "Role" in p}
    account = template_tables.load_template(ROOT / "account" / "api-gateway-logs-role.yaml")
    [setting] = [v for v in account["Resources"].values()
                 if v["Type"] == "AWS::ApiGateway::Account"]
    role_id = setting["Properties"]["CloudWatchRoleArn"]["Fn::GetAtt"][0]
    # Deleting the one-off stack leaves the account's setting naming a role that exists.
    for resource in (setting, account["Resources"][role_id]):
        assert resource["DeletionPolicy"] == "Retain"
    matches = cfnlint.api.lint_file(ROOT / "account" / "api-gateway-logs-role.yaml",
                                    config=cfnlint.api.ManualArgs(include_checks=["I"]))
    assert [str(m) for m in matches] == []


def test_every_checkov_skip_gives_its_reason(raw: dict[str, Any]) -> None:
    skipped = 0
    for logical_id, resource in raw["Resources"].items():
        for skip in resource.get("Metadata", {}).get("checkov", {}).get("skip", []):
            assert re.fullmatch(r"CKV_AWS_\d+", skip["id"]), logical_id
            assert len(skip["comment"].split()) >= 8, (logical_id, skip)
            skipped += 1
    assert skipped > 0


# ---------------------------------------------------------------- alarms and dashboard

PACKAGE = ROOT / "layers" / "numbridge" / "numbridge"


def emitted_metrics() -> set[str]:
    """Every metric name the code emits: the first argument of ``count``/``measure``
    where it is written, the names ``play._measure`` maps events to, and Powertools'
    ``ColdStart`` (handlers.entry asks for it)."""
    import ast

    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in {"count", "measure"} and node.args
                    and isinstance(node.args[0], ast.Constant)):
                names.add(str(node.args[0].value))
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
                    and [getattr(t, "id", None) for t in node.targets] == ["names"]):
                names.update(str(v.value) for v in node.value.values
                             if isinstance(v, ast.Constant))
    entry = (PACKAGE / "service" / "handlers" / "entry.py").read_text(encoding="utf-8")
    if "capture_cold_start_metric=" in entry:
        names.add("ColdStart")
    return names


def test_the_code_emits_the_metrics_that_are_read() -> None:
    assert {"Moves", "AckLatency", "TimerLag", "ColdStart", "DealLatency", "Connects",
            "Disconnects"} <= emitted_metrics()


def alarm_metrics(alarm: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(namespace, metric, first dimension's value) of each metric an alarm reads, on
    its own or in metric math."""
    metrics = ([alarm] if "MetricName" in alarm else
               [m["MetricStat"]["Metric"] for m in alarm["Metrics"] if "MetricStat" in m])
    return [(m["Namespace"], m["MetricName"], json.dumps(m["Dimensions"][0]["Value"]))
            for m in metrics]


def test_sign_up_refusals_are_not_errors_to_the_alarm(raw: dict[str, Any]) -> None:
    alarm = raw["Resources"]["SignUpErrorsAlarm"]["Properties"]
    by_id = {m["Id"]: m for m in alarm["Metrics"]}
    assert by_id["errors"]["MetricStat"]["Metric"]["MetricName"] == "Errors"
    assert by_id["refused"]["MetricStat"]["Metric"]["MetricName"] == "SignUpRefused"
    assert by_id["failures"]["Expression"] == "FILL(errors, 0) - FILL(refused, 0)"
    assert [m["Id"] for m in alarm["Metrics"] if m["ReturnData"]] == ["failures"]
    assert (alarm["Threshold"], alarm["ComparisonOperator"]) == (0, "GreaterThanThreshold")
    assert "SignUpRefused" in emitted_metrics()


def test_the_stage_timer_queue_and_deals_are_watched_before_players_notice(
        raw: dict[str, Any]) -> None:
    """Catches: an alarm missing or watching the wrong metric (refusals against frames, the
    timer queue's age, the deal's duration against its timeout), or one docs/aws.md does
    not name."""
    resources = raw["Resources"]
    rate = resources["StageClientErrorRateAlarm"]["Properties"]
    stats = {m["Id"]: m["MetricStat"]["Metric"]["MetricName"]
             for m in rate["Metrics"] if "MetricStat" in m}
    assert stats == {"refused": "ClientError", "frames": "MessageCount",
                     "connects": "ConnectCount"}
    [expression] = [m["Expression"] for m in rate["Metrics"] if m["ReturnData"]]
    assert "100 * FILL(refused, 0)" in expression and ">= 100" in expression
    assert rate["Threshold"] == 5
    age = resources["TimerQueueAgeAlarm"]["Properties"]
    assert (age["MetricName"], age["Dimensions"][0]["Value"]) == (
        "ApproximateAgeOfOldestMessage", {"Fn::GetAtt": ["TimerQueue", "QueueName"]})
    assert age["Threshold"] > 900  # a timer may wait SQS's longest delay by design
    deal = resources["DealDurationAlarm"]["Properties"]
    timeout_ms = resources["DealFunction"]["Properties"]["Timeout"] * 1000
    assert (deal["MetricName"], deal["Statistic"]) == ("Duration", "Maximum")
    assert 0.7 * timeout_ms <= deal["Threshold"] < timeout_ms
    documented = (ROOT / "docs" / "aws.md").read_text(encoding="utf-8")
    # Each alarm by name, but the <Fn>Errors/<Fn>Throttles pairs (one row for them all).
    per_function = re.compile(r"\w+(Errors|Throttles)Alarm")
    for alarm_id in [k for k, v in resources.items() if v["Type"] == "AWS::CloudWatch::Alarm"
                     and (not per_function.fullmatch(k) or k == "SignUpErrorsAlarm")]:
        assert f"`{alarm_id}`" in documented, alarm_id


def test_alarms_cover_queues_functions_timers_stage_and_table(raw: dict[str, Any]) -> None:
    alarms = {k: v["Properties"] for k, v in raw["Resources"].items()
              if v["Type"] == "AWS::CloudWatch::Alarm"}
    for alarm in alarms.values():
        assert alarm["AlarmActions"] == [{"Ref": "AlarmTopic"}]
        for namespace, name, _ in alarm_metrics(alarm):
            if namespace == "Numbridge":
                assert name in emitted_metrics(), name
    watched = {m for a in alarms.values() for m in alarm_metrics(a)}
    queues = [k for k, v in raw["Resources"].items() if v["Type"] == "AWS::SQS::Queue"
              and k not in {"TimerQueue", "BotQueue", "LobbyQueue", "ReviewQueue",
                            "TournamentQueue"}]
    for queue in queues:  # every dead-letter queue
        assert ("AWS/SQS", "ApproximateNumberOfMessagesVisible",
                json.dumps({"Fn::GetAtt": [queue, "QueueName"]})) in watched, queue
    for function_id in FUNCTIONS:
        for metric in ("Errors", "Throttles"):
            assert ("AWS/Lambda", metric, json.dumps({"Ref": function_id})) in watched
    lag = alarms["TimerLagAlarm"]
    # "p99 over 5 s": TimerLag is in milliseconds at high resolution
    # (test_metrics_emitted), so a period of 30 s is allowed; 2 of 3 of them.
    assert {k: lag[k] for k in ("MetricName", "ExtendedStatistic", "Period",
                                "EvaluationPeriods", "DatapointsToAlarm", "Threshold",
                                "ComparisonOperator", "TreatMissingData")} == {
        "MetricName": "TimerLag", "ExtendedStatistic": "p99", "Period": 30,
        "EvaluationPeriods": 3, "DatapointsToAlarm": 2, "Threshold": 5000,
        "ComparisonOperator": "GreaterThanThreshold", "TreatMissingData": "notBreaching"}
    assert "Statistic" not in lag
    assert {m for n, m, _ in watched if n == "AWS/ApiGateway"} == {
        "ExecutionError", "IntegrationError", "ClientError", "MessageCount", "ConnectCount"}
    assert {m for n, m, _ in watched if n == "AWS/DynamoDB"} == {
        "ReadThrottleEvents", "WriteThrottleEvents"}
    # Every index of the table is watched apart from it: its throttles are its own.
    indexes = [i["IndexName"] for i in
               raw["Resources"]["GameTable"]["Properties"]["GlobalSecondaryIndexes"]]
    assert indexes == ["gsi1"]
    for index in indexes:
        for metric in ("ReadThrottleEvents", "WriteThrottleEvents"):
            [alarm] = [a for a in alarms.values() if a.get("MetricName") == metric
                       and {"Name": "GlobalSecondaryIndexName", "Value": index}
                       in a["Dimensions"]]
            assert {"Name": "TableName", "Value": {"Ref": "GameTable"}} in alarm["Dimensions"]
            assert (alarm["Statistic"], alarm["Threshold"]) == ("Sum", 0)
    subscription = raw["Resources"]["AlarmSubscription"]
    assert subscription["Condition"] == "AlarmEmailGiven"
    assert subscription["Properties"]["Endpoint"] == {"Ref": "AlarmEmail"}


def test_the_dashboard_shows_what_the_code_emits(raw: dict[str, Any]) -> None:
    body = json.loads(raw["Resources"]["Dashboard"]["Properties"]["DashboardBody"]["Fn::Sub"])
    ours: set[str] = set()
    widgets = {}
    for widget in body["widgets"]:
        widgets[widget["properties"]["title"].split(":")[0]] = widget["properties"]
        for metric in widget["properties"]["metrics"]:
            if isinstance(metric[0], dict):
                ours.update(re.findall(r'MetricName="(\w+)"', metric[0]["expression"]))
            elif metric[0] == "Numbridge":
                ours.add(metric[1])
    assert ours == {"Moves", "AckLatency", "ColdStart", "TimerLag", "Connects", "Disconnects"}
    assert ours <= emitted_metrics()
    assert len(widgets) == 6
    # Actions a minute: every frame handled (one AckLatency value each), not only moves.
    actions = widgets["Actions a minute"]["metrics"]
    assert actions[0][:4] == ["Numbridge", "AckLatency", "service", "numbridge"]
    assert actions[0][4]["stat"] == "SampleCount"
    # Connections: those opened less those closed, summed over the window.
    connections = widgets["Connections"]["metrics"]
    ids = {m[4]["id"]: m[1] for m in connections if not isinstance(m[0], dict)}
    assert ids == {"opened": "Connects", "closed": "Disconnects"}
    [expression] = [m[0]["expression"] for m in connections if isinstance(m[0], dict)]
    assert expression == "RUNNING_SUM(FILL(opened, 0) - FILL(closed, 0))"
    assert widgets["Timer lag p99 (ms)"]["period"] == 30  # the alarm's


def test_libyaml_reads_the_template_as_pyyaml_does() -> None:
    """The template is read with libyaml where PyYAML has it (a tenth of the time)."""
    import yaml

    class PurePython(yaml.SafeLoader):
        pass

    PurePython.add_multi_constructor("!", template_tables._construct_intrinsic)
    assert yaml.__with_libyaml__, "the pinned PyYAML wheel comes with libyaml"
    assert issubclass(template_tables._CloudFormationLoader, yaml.CSafeLoader)
    with TEMPLATE.open(encoding="utf-8") as stream:
        assert template_tables.load_template(TEMPLATE) == yaml.load(stream, Loader=PurePython)
