"""The page's name check (web/js/account-rules.js) never refuses a name the server takes:
the page is the laxer of the two, so a player whose name the club accepts can always type
it. Names are drawn from the three scripts the club speaks, with their accents, signs and
odd characters besides; every one the server's rule (numbridge.names) takes is handed to
the page's ``checkedName`` in Node, which must give back the same name, in NFC."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numbridge.names import BadName, check_player_name

RULES = Path(__file__).resolve().parents[2] / "web" / "js" / "account-rules.js"

# Letters of each script (both cases, the accented ones precomposed), combining accents,
# the signs a name may hold, and a few characters no name may: the server decides.
LETTERS = {
    "Latin": [chr(c) for c in range(0x41, 0x5B)] + [chr(c) for c in range(0x61, 0x7B)]
    + [chr(c) for c in range(0xC0, 0x250) if chr(c).isalpha()],
    "Greek": [chr(c) for c in range(0x370, 0x400) if chr(c).isalpha()],
    "Cyrillic": [chr(c) for c in range(0x400, 0x530) if chr(c).isalpha()],
}
EXTRA = [*"0123456789_.-", "\u0301", "\u0308", "\u0300", " ", "@", "\u00b7", "\uff41"]

names = st.sampled_from(sorted(LETTERS)).flatmap(
    lambda script: st.lists(st.sampled_from(LETTERS[script] + EXTRA), min_size=1, max_size=40)
).map("".join)


def page_reads(candidates: list[str]) -> list[str | None]:
    """What ``checkedName`` gives for each name, run in Node on the page's own module."""
    node = shutil.which("node")
    assert node, "Node (make test's test-js) runs the page's modules"
    script = (f"import {{ checkedName }} from {json.dumps(RULES.as_uri())};"
              "let text = ''; process.stdin.on('data', (d) => { text += d; });"
              "process.stdin.on('end', () => { process.stdout.write(JSON.stringify("
              "JSON.parse(text).map((n) => checkedName(n)))); });")
    done = subprocess.run([node, "--input-type=module", "-e", script], check=True,
                          input=json.dumps(candidates), capture_output=True, text=True)
    return list(json.loads(done.stdout))


def test_every_name_the_server_takes_the_page_takes_as_the_same_name() -> None:
    """Catches a page that refuses a name the club accepts (a Greek or Cyrillic letter, an
    accent typed apart, a name counted in UTF-16 units), or sends it in another form."""
    taken: dict[str, str] = {}

    @settings(max_examples=600, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(name=names)
    def one(name: str) -> None:
        with contextlib.suppress(BadName):
            taken[name] = check_player_name(name)

    one()
    assert len(taken) >= 100, f"too few names the server takes were drawn: {len(taken)}"
    sent = sorted(taken)
    read = page_reads(sent)
    differ = {name: (page, taken[name]) for name, page in zip(sent, read, strict=True)
              if page != taken[name]}
    assert differ == {}, f"the page reads these names otherwise than the server: {differ}"
