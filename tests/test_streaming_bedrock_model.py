"""Bedrock ConverseStream against botocore's own service model (bedrock-runtime service-2.json): the
rendered --stream path is the operation's URI, and every exception the stream union declares becomes
the reply's error under its own name."""

from __future__ import annotations

import pytest
from botocore.loaders import Loader

from streams import bedrock_event, bedrock_exception
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario_text
from toolchoice.providers.core.streaming import assemble_bytes

MODEL = Loader().load_service_model("bedrock-runtime", "service-2")
STREAM_MEMBERS = MODEL["shapes"]["ConverseStreamOutput"]["members"]
EXCEPTIONS = sorted(name for name, member in STREAM_MEMBERS.items()
                    if MODEL["shapes"][member["shape"]].get("exception"))


def test_stream_path_is_the_converse_stream_operation():
    uri = MODEL["operations"]["ConverseStream"]["http"]["requestUri"]  # /model/{modelId}/converse-stream
    scenario = load_scenario_text("messages:\n  - {role: user, content: hi}\n")
    url = translate("bedrock", scenario, RenderOptions(stream=True)).request.url
    assert url.endswith(uri.split("}", 1)[1])
    assert not translate("bedrock", scenario).request.url.endswith("-stream")


def test_every_event_of_the_union_is_known_or_an_exception():
    assembled = {"messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop",
                 "metadata"}
    assert set(STREAM_MEMBERS) == assembled | set(EXCEPTIONS)


@pytest.mark.parametrize("name", EXCEPTIONS)
def test_each_declared_exception_is_the_reply_error(name):
    data = bedrock_event("messageStart", {"role": "assistant"}) + bedrock_exception(name, f"{name} happened")
    result = assemble_bytes("bedrock", data)
    assert result.reply.error.type == name
    assert result.reply.error.message == f"{name} happened"
    assert [f.code for f in result.findings] == ["stream.error_event"]
