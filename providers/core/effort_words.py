"""The APIs' own 400 words for a reasoning_effort a model does not take, as recorded (the dated facts quoting them and
their sources: core/effort_facts.py). Plain strings, no imports: openai_chat_hosts reads them on `render`'s start-up
path, where the facts' value types are not loaded."""

# Groq's 400 for qwen/qwen3-32b with reasoning_effort high or medium (earendil-works/pi#1745, 2026-03-03)
GROQ_QWEN3_32B_400 = "reasoning_effort must be one of none or default"
# Mistral's 400 for reasoning_effort medium on Mistral Small (architects-toolkit/SmartHopper#647, 2026-07-06)
MISTRAL_SMALL_400 = ("reasoning_effort='medium' is not supported for this model. Must be one of "
                     "(<ReasoningEffort.none: 'none'>, <ReasoningEffort.high: 'high'>)")
