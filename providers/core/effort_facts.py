"""Where a thinking effort goes on the OpenAI-compatible hosts that have their own ``reasoning_effort`` words (Groq,
Mistral): the SDK's values, the models each source names with the values it names for them, and the API's own 400
where one is recorded. The translator's data (openai_chat_hosts.HOST_EFFORTS) names these facts by id, and so does the
ledger. Read 2026-11-27 (docs/fact-audit.md, fifth pass).
"""

from __future__ import annotations

from .effort_words import GROQ_QWEN3_32B_400, MISTRAL_SMALL_400
from .fact_record import CITE_END, Fact
from .fact_values import RefusalWords

_VERIFIED = "2026-11-27"

# groq 1.7.0 types/chat/completion_create_params.py, CompletionCreateParams.reasoning_effort's docstring, whole
GROQ_DOC = ("qwen3 models support `none` to disable reasoning and `default` or null to use the model default. "
            "qwen/qwen3.8-27b additionally supports `low`, `medium`, and `high`. Its default is `medium`; `high` "
            "selects the model's native `xhigh` mode. openai/gpt-oss-20b and openai/gpt-oss-120b support 'low', "
            "'medium', or 'high'. 'medium' is the default value.")

EFFORT_FACTS: tuple[Fact, ...] = (
    Fact("groq.reasoning_effort", ("groq",),
         "a thinking effort goes out as reasoning_effort when it is one of Groq's words (none, low, medium, high; "
         "Groq's default has no neutral word, and minimal, xhigh and max are not Groq's: not sent, said). Groq's SDK "
         "names the values per model: gpt-oss-20b / -120b low, medium, high; qwen3 models none and default, "
         "qwen/qwen3.8-27b also low, medium, high. Another value on a named model is sent and said unstated, except "
         "on qwen/qwen3-32b, whose 400 is recorded (refused); a model the SDK does not name is sent and said unknown. "
         "No source states a conflict between reasoning_effort and tools or a forcing tool_choice",
         "groq 1.7.0 types/chat/completion_create_params.py (CompletionCreateParams 'reasoning_effort: "
         "Optional[Literal[\"none\", \"default\", \"low\", \"medium\", \"high\"]]'); the API's 400 for qwen/qwen3-32b, "
         f"earendil-works/pi#1745 (2026-03-03){CITE_END}'{GROQ_DOC}'; '{GROQ_QWEN3_32B_400}'", _VERIFIED,
         (RefusalWords("thinking.effort_refused", ("groq",), GROQ_QWEN3_32B_400, model=r"^qwen/qwen3-32b$"),)),
    Fact("mistral.reasoning_effort", ("mistral",),
         "a thinking effort goes out as reasoning_effort (mistralai's ReasoningEffort has all seven of the neutral "
         "words). Mistral's docs name mistral-small-latest (Mistral Small 4, mistral-small-2603) and "
         "mistral-medium-3-5 as taking it, with high and none; Mistral Small's 400 for another value is recorded "
         "(refused there); another value on mistral-medium-3-5 is sent and said unstated; any other model is sent "
         "and said unknown. No source states a conflict between reasoning_effort and tools or a forcing tool_choice",
         "mistralai 3.7.0 client/models/reasoningeffort.py (ReasoningEffort: 'Literal[\"none\", \"minimal\", \"low\", "
         "\"medium\", \"high\", \"xhigh\", \"max\"], UnrecognizedStr', an open enum) and client/models/chatcompletionrequest.py "
         "(ChatCompletionRequest.reasoning_effort); docs.mistral.ai/capabilities/reasoning/adjustable; the API's 400, "
         "architects-toolkit/SmartHopper#647 (2026-07-06, 'mistral-small model'; its body, whose type, code and "
         f"raw_status_code the mock's 400 carries){CITE_END}'Adjustable reasoning is "
         "available on mistral-small-latest and mistral-medium-3-5 via the reasoning_effort parameter'; "
         "'reasoning_effort = \"high\": The response includes a full thinking chunk before the final answer'; "
         "'reasoning_effort = \"none\": The model thinks minimally and the thinking chunk is omitted from the "
         f"response.'; '{MISTRAL_SMALL_400}'; '\"type\":\"invalid_request_invalid_args\",\"param\":null,"
         "\"code\":\"3051\",\"raw_status_code\":400' (SmartHopper#647)", _VERIFIED,
         # recorded for medium only: another value is answered with the ledger's line
         (RefusalWords("thinking.effort_refused", ("mistral",), MISTRAL_SMALL_400,
                       model=r"^mistral-small-(?:latest|2603)$", field=("reasoning_effort",), value="medium",
                       envelope=(("type", "invalid_request_invalid_args"), ("param", None), ("code", "3051"),
                                 ("raw_status_code", 400))),)),
)
