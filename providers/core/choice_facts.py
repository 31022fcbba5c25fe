"""What each host's primary source says of several choices in one request (OpenAI Chat's ``n``, Gemini's
``generationConfig.candidateCount``): dated facts, read 2026-11-27. ``core/choice_count.py`` holds the rules some of
them bring (Groq refuses n other than 1; others a warning); a host whose source says it takes ``n`` has a fact and no
rule. Hosts no source was read for say nothing here (Ollama): nothing is refused or warned of there. Re-read
2026-11-27 (docs/fact-audit.md): Groq's n below 1 (refused, as its docs and SDK say), DeepSeek's n (a warning)."""

from __future__ import annotations

from .fact_record import CITE_END, Fact
from .fact_values import ChoiceCount

CHOICE_FACTS: tuple[Fact, ...] = (
    Fact("groq.choice_count", ("groq",),
         "Groq's chat API refuses n other than 1 with 400 invalid_request_error, n below 1 included (until 2026-11-27 "
         "only n over 1 was refused; an n of 0 was sent with no word): render and send refuse it (choices.unsupported), "
         "a warning at a base URL that replaces api.groq.com; the mock answers n over 1 in the recorded 400's words "
         "and n below 1 in the docs' sentence (no 400 body for it is recorded)",
         "console.groq.com/docs/openai (Currently Unsupported OpenAI Features); groq 1.7.0 types/chat/"
         "completion_create_params.py; the 400's words: llamastack/llama-stack tests/integration/inference/"
         f"test_openai_completion.py (skip_if_doesnt_support_n){CITE_END}'The following fields are currently not "
         "supported and will result in a 400 error (yikes) if they are supplied: ... If `N` is supplied, it must be "
         "equal to 1.'; n: 'How many chat completion choices to generate for each input message. Note that the current "
         "moment, only n=1 is supported. Other values will result in a 400 response.'; 'Error code: 400 - {'error': "
         "{'message': \"'n' : number must be at most 1\", 'type': 'invalid_request_error'}}' (the same words in "
         "public ragas users' reports of Groq, n=3)", "2026-11-27",
         ChoiceCount("error", 1, "'n' : number must be at most 1", below="If `N` is supplied, it must be equal to 1.")),
    Fact("deepseek.choice_count", ("deepseek",),
         "DeepSeek's API was recorded refusing n other than 1 with 400 invalid_request_error, on deepseek-chat "
         "(2024-2025) and on deepseek-v4-pro (2026-08, 2026-09); no DeepSeek page read states it (its API reference "
         "was not readable here, and the guides name no n): n over 1 is a warning (choices.unsupported), the request "
         "sent (until 2026-11-27 nothing was said)",
         "the API's recorded 400: SakanaAI/AI-Scientist#177 (2025-01-14), deepseek-ai/DeepSeek-V3#291 (2025-01-16), "
         f"deepseek-v4-pro in 2026{CITE_END}AI-Scientist#177 ('I'm using deepseek's API'): 'Error code: 400 - "
         "{'error': {'message': 'Invalid n value (currently only n = 1 is supported)', 'type': 'invalid_request_error', "
         "'param': None, 'code': 'invalid_request_error'}}'; DeepSeek-V3#291, a user in DeepSeek's repository: "
         "'在调用api时发现n只能设为1' (calling the API, n can only be set to 1); public code recording deepseek-v4-pro's "
         "answer to n=3 and n=2 in 2026-08 and 2026-09 (found by the code index): the same words; in 2024 the same words "
         "under 'detail' (vibrantlabsai/ragas#1072, base_url https://api.deepseek.com/v1)", "2026-11-27",
         ChoiceCount("warning", 1, "Invalid n value (currently only n = 1 is supported)")),
    Fact("huggingface.choice_count", ("huggingface",),
         "the Inference API's chat input marks n UNUSED: a request with n > 1 may get one choice back (a warning, "
         "choices.unsupported; the request is sent)",
         f"huggingface_hub 2.4.0 inference/_generated/types/chat_completion.py ChatCompletionInput.n{CITE_END}"
         "'n: int | None = None' 'UNUSED How many chat completion choices to generate for each input message.'",
         "2026-11-27",
         ChoiceCount("warning", 1, "UNUSED How many chat completion choices to generate for each input message.")),
    Fact("fireworks.choice_count", ("fireworks",),
         "Fireworks documents n in the range 1 to 128: more than 128 is a warning (choices.unsupported; no recorded "
         "400 says the API refuses it)",
         f"fireworks-ai 1.2.30 types/chat/completion_create_params.py n{CITE_END}'How many completions to generate for "
         "each prompt.' 'Required range: `1 <= x <= 128`'", "2026-11-27",
         ChoiceCount("warning", 128, "Required range: `1 <= x <= 128`")),
    Fact("cerebras.choice_count", ("cerebras",),
         "the Cerebras SDK documents n as OpenAI does, and a recorded 400 says the API refused n > 1: a warning "
         "(choices.unsupported; the request is sent, as no Cerebras source says it refuses today)",
         "cerebras-cloud-sdk 1.91.0 types/chat/completion_create_params.py n; llamastack/llama-stack tests/integration/"
         f"inference/test_openai_completion.py (skip_if_doesnt_support_n, remote::cerebras){CITE_END}'How many chat "
         "completion choices to generate for each input message.'; 'Error code 400 - {'message': '\"n\" > 1 is not "
         "currently supported', 'type': 'invalid_request_error', 'param': 'n', 'code': 'wrong_api_format'}'",
         "2026-11-27",
         ChoiceCount("warning", 1, '"n" > 1 is not currently supported')),
    Fact("together.choice_count", ("together",),
         "Together documents n; a recorded error says n > 1 is refused with stream: a streamed request with n > 1 is a "
         "warning (choices.unsupported; the request is sent)",
         "together 3.1.1 types/chat/completion_create_params.py n; llamastack/llama-stack tests/integration/inference/"
         f"test_openai_completion.py (skip_if_doesnt_support_n, remote::together){CITE_END}'The number of completions "
         "to generate for each prompt.'; '`n` > 1 is not supported when streaming tokens. Please disable `stream`'",
         "2026-11-27",
         ChoiceCount("warning", 1, "`n` > 1 is not supported when streaming tokens. Please disable `stream`",
                     stream_only=True)),
    Fact("gemini.candidate_count", ("gemini",),
         "generationConfig.candidateCount asks for several candidates; recorded 400s say some models take only one: "
         "more than one is a warning (choices.unsupported; the request is sent, as the refusal is the model's)",
         "google-genai 3.6.1 types.py GenerationConfig.candidate_count; llamastack/llama-stack tests/integration/"
         f"inference/test_openai_completion.py (skip_if_doesnt_support_n, remote::gemini and remote::vertexai)"
         f"{CITE_END}'Number of response variations to return.'; "
         "'Error code: 400 - [{'error': {'code': 400, 'message': "
         "'Only one candidate can be specified in the current model', 'status': 'INVALID_ARGUMENT'}}]'; Vertex AI: "
         "'Unable to submit request because candidateCount must be 1 but the entered value was 2. Update the "
         "candidateCount value and try again.'", "2026-11-27",
         ChoiceCount("warning", 1, "Only one candidate can be specified in the current model")),
    Fact("openai.choice_count", ("openai",),
         "Chat Completions takes n (each choice billed): nothing is refused or warned of",
         f"openai 3.57.0 types/chat/completion_create_params.py n{CITE_END}'How many chat completion choices to "
         "generate for each input message. Note that you will be charged based on the number of generated tokens "
         "across all of the choices. Keep `n` as `1` to minimize costs.'", "2026-11-27"),
    Fact("mistral.choice_count", ("mistral",),
         "Mistral's chat API takes n: nothing is refused or warned of",
         f"mistralai 3.7.0 client/models/chatcompletionrequest.py n{CITE_END}'Number of completions to return for "
         "each request, input tokens are only billed once.'", "2026-11-27"),
    Fact("sambanova.choice_count", ("sambanova",),
         "SambaNova's chat API documents n: nothing is refused or warned of",
         f"sambanova 1.13.0 types/chat/completion_create_params.py n{CITE_END}'How many completions to generate for "
         "each prompt. **Note:** Because this parameter generates many completions, it can quickly consume your token "
         "quota.'", "2026-11-27"),
    Fact("llamacpp.choice_count", ("llamacpp",),
         "older llama-server refused n other than 1 (500, 'Only one completion choice is allowed'); the stored copy at "
         "006639c has no such check in oaicompat_chat_params_parse and passes n on: nothing is refused or warned of",
         "ggml-org/llama.cpp tools/server/server-common.cpp (stored copy at 006639c) oaicompat_chat_params_parse; "
         f"older copies of the same function{CITE_END}'// Handle \"n\" field int n_choices = json_value(body, \"n\", 1); "
         "if (n_choices != 1) { throw std::runtime_error(\"Only one completion choice is allowed\"); }' (absent at "
         "006639c)", "2026-11-27"),
    Fact("azure.choice_count", ("azure",),
         "Azure OpenAI's inference spec bounds n to 1..128: more than 128 is a warning (choices.unsupported; the request "
         "is sent, as no recorded 400 says the API refuses it)",
         "Azure/azure-rest-api-specs specification/cognitiveservices/data-plane/AzureOpenAI/inference/stable/2024-10-21/"
         f"inference.json (the newest stable; stored copy at 132b90d) createChatCompletionRequest.n{CITE_END}"
         "'\"n\": { \"type\": \"integer\", \"minimum\": 1, \"maximum\": 128, \"default\": 1, ... \"description\": \"How many "
         "chat completion choices to generate for each input message. Note that you will be charged based on the number "
         "of generated tokens across all of the choices. Keep `n` as `1` to minimize costs.\"'", "2026-11-27",
         ChoiceCount("warning", 128, '"n": { "type": "integer", "minimum": 1, "maximum": 128')),
    Fact("xai.choice_count", ("xai",),
         "xAI's REST API documents n (at least 1, no maximum; one choice per n): nothing is refused or warned of",
         "xai-org/xai-sdk-ts spec/openapi.json ('xAI's REST API', stored copy at 41e766a) ChatRequest.n and "
         f"ChatResponse.choices; xai-sdk 1.21.0 xai_sdk/chat.py BaseChat._make_request{CITE_END}'How many chat "
         "completion choices to generate for each input message. Note that you will be charged based on the number of "
         "generated tokens across all of the choices. Keep n as 1 to minimize costs.' '\"default\":1,\"example\":1,"
         "\"minimum\":1'; 'A list of response choices from the model. The length corresponds to the `n` in request body "
         "(default to 1).'; 'n: Number of completions to generate.'", "2026-11-27"),
    Fact("openrouter.choice_count", ("openrouter",),
         "no OpenRouter page read says whether n is passed on or ignored, and its own SDK's chat request has no n: "
         "nothing is refused or warned of (users reported one choice back for n=5 in 2024; not OpenRouter's word)",
         "openrouter 1.3.84 (OpenRouterTeam/python-sdk) components/chatrequest.py ChatRequest (42 fields, no n; "
         "components/imagegenerationrequest.py has 'n: Optional[int] = None'); OpenRouterArchived/openrouter-runner#99 "
         f"(a user, 2024-08-25){CITE_END}'set the parameter `n=5` but only get a chat completion choices' 'Response "
         "count: 1'", "2026-11-27"),
    Fact("vllm.choice_count", ("vllm",),
         "vLLM's OpenAI-compatible server takes n and hands it to its sampler: nothing is refused or warned of",
         "vllm-project/vllm vllm/entrypoints/openai/chat_completion/protocol.py (stored copy at d5dba2d) "
         f"ChatCompletionRequest{CITE_END}'n: int | None = 1'; to_sampling_params: 'return SamplingParams.from_optional("
         "n=self.n,'", "2026-11-27"),
)
