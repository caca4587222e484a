# Two commands on a fresh machine with only Python (3.11+), make and bash:
#   make serve   — set everything up and run the local server (ws://127.0.0.1:8080)
#   make test    — set everything up and run lint, types, the whole test suite (the
#                  browser tests of web/ too) and the web client's Node tests (make test-js)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The Lambda layer, resolved for python3.13 arm64 (tools/layer_check.py): again only
# when its requirements change; the wheels stay in $(VENV)/layer-wheels.
LAYER_CHECKED := $(VENV)/.layer-checked

# checkov in a venv of its own (tools/checkov-requirements.txt pins it): every check of
# template.yaml passes or is skipped with its reason in the template's Metadata.
CHECKOV_VENV := $(VENV)/checkov
CHECKOV_STAMP := $(CHECKOV_VENV)/.installed

# sam build as it runs before a deploy: SAM CLI in a venv of its own (its pins are not
# the dev tools'), python3.13 first on PATH (tools/python313.sh: PATH, else pyenv).
SAM_CLI_VERSION := 1.170.0
SAM_VENV := .venv-sam
SAM_STAMP := $(SAM_VENV)/.installed-$(SAM_CLI_VERSION)

.PHONY: setup serve test suite lint layer-check bench clean test-web test-js sam-build chromium test-iam checkov asyncapi-check asyncapi-deps upload-web

# Python's bytecode cache stays on for make's commands even where the environment turns it
# off (PYTHONDONTWRITEBYTECODE=1, as on the machines this was measured on): else every worker
# rewrites every test module's asserts, and every `numbridge serve` a test starts compiles
# its imports again (collecting the suite took 10 s per worker without the cache, 5 with).
# The caches are git-ignored (__pycache__/).
unexport PYTHONDONTWRITEBYTECODE

# uv installs what pip would (the same pins), in a seventh of the time: on a fresh clone
# the dev venv took 33 s with pip, 4 s with uv; checkov's 38 s, 7 s. pip stays in the
# venv for tools/layer_check.py (pip download for another platform).
UV_VERSION := 0.13.9
UV_INSTALL := $(BIN)/uv pip install --quiet

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(UV_INSTALL) --python $(BIN)/python pip==26.3 -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

serve: $(STAMP)
	$(BIN)/numbridge serve $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

layer-check: $(LAYER_CHECKED)

$(LAYER_CHECKED): layers/numbridge/requirements.txt layers/numbridge/build_layer.py tools/layer_check.py | $(STAMP)
	$(BIN)/python tools/layer_check.py --cache $(VENV)/layer-wheels
	touch $@

# The checks run beside the suite, each one's output printed whole when it ends (-O):
# the suite leaves a core idle while its browser and server tests wait.
test: $(STAMP) chromium
	@$(MAKE) --no-print-directory -j 5 -O lint checkov layer-check test-js asyncapi-check suite

suite: $(STAMP) chromium asyncapi-deps
	@if test -x $(CHROMIUM); then NUMBRIDGE_WEB_TESTS=1 $(BIN)/pytest; else \
		echo "browser tests (tests/web): skipped — no Chromium at $(CHROMIUM) and apt-get could not install it"; \
		$(BIN)/pytest; fi

# Least privilege with every statement of every function taken away in turn (make test
# takes away one of each kind): tests/integration/test_least_privilege.py.
test-iam: $(STAMP)
	NUMBRIDGE_IAM_EVERY_STATEMENT=1 $(BIN)/pytest tests/integration/test_least_privilege.py

$(CHECKOV_STAMP): tools/checkov-requirements.txt | $(STAMP)
	rm -rf $(CHECKOV_VENV)
	$(PYTHON) -m venv $(CHECKOV_VENV)
	$(UV_INSTALL) --python $(CHECKOV_VENV)/bin/python -r tools/checkov-requirements.txt
	touch $@

# --skip-download: nothing fetched from Prisma Cloud (guidelines, severities).
checkov: $(CHECKOV_STAMP)
	$(CHECKOV_VENV)/bin/checkov -f template.yaml --framework cloudformation --compact \
		--quiet --skip-download

# The web client's pure modules (reducer, geometry, …) with Node's own test runner:
# no npm packages. Skipped, saying so, on a machine without Node.
# docs/asyncapi.json read by the AsyncAPI initiative's own parser (@asyncapi/parser 3.6.6,
# pinned with its dependencies in tools/asyncapi/package-lock.json): 0 errors. Installed
# from the npm registry once per change of the lock (node_modules is git-ignored).
ASYNCAPI_STAMP := tools/asyncapi/node_modules/.installed

$(ASYNCAPI_STAMP): tools/asyncapi/package-lock.json
	cd tools/asyncapi && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Installed before the suite too: its test of check.mjs needs the parser, and under -j it
# would otherwise find it half installed.
asyncapi-deps:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(ASYNCAPI_STAMP); fi

asyncapi-check: asyncapi-deps
	@if command -v npm >/dev/null 2>&1; then node tools/asyncapi/check.mjs docs/asyncapi.json; \
	else echo "asyncapi-check: skipped — no node/npm on this machine"; fi

test-js:
	@if command -v node >/dev/null 2>&1; then node --test web/test/*.test.js; \
	else echo "test-js: skipped — no node on this machine (the web client's Node tests did not run)"; fi

# The browser tests of web/ (tests/web, part of `make test`): Playwright (a dev extra)
# driving Debian's Chromium, installed from Debian's packages when missing (as root, or
# with sudo that asks no password). Where it cannot be, `make test` says so and runs the
# rest; `make test-web` runs the browser tests alone.
CHROMIUM := /usr/bin/chromium
chromium:
	@test -x $(CHROMIUM) || { echo "installing chromium (Debian packages)"; \
		sudo=$$(test "$$(id -u)" = 0 || echo "sudo -n"); \
		{ $$sudo apt-get update -qq && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
		>/dev/null 2>&1 || echo "chromium: could not be installed from Debian's packages"; }

test-web: $(STAMP) chromium
	NUMBRIDGE_WEB_TESTS=1 $(BIN)/pytest tests/web

$(SAM_STAMP):
	rm -rf $(SAM_VENV)
	$(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/python -m pip install --quiet aws-sam-cli==$(SAM_CLI_VERSION)
	touch $@

# Not part of `make test`: needs python3.13 and PyPI (the layer's wheels).
sam-build: $(SAM_STAMP) $(STAMP)
	@python313="$$(tools/python313.sh)" && echo "python3.13: $$python313/python3.13" && \
	export PATH="$$python313:$$PATH" SAM_CLI_TELEMETRY=0 && \
	$(SAM_VENV)/bin/sam --version && $(SAM_VENV)/bin/sam build && \
	$(BIN)/python tools/sam_build_check.py

# The club's page (web/) into the stack's bucket behind CloudFront (HostClient, on by
# default): `make upload-web STACK=numbridge` after each deploy that changed web/.
upload-web: $(STAMP)
	$(BIN)/python tools/upload_web.py --stack $(or $(STACK),numbridge) $(if $(REGION),--region $(REGION))

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) $(SAM_VENV) .aws-sam
