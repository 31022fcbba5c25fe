"""The dated facts of mid-conversation tool changes: Anthropic's ``tool_addition`` / ``tool_removal`` blocks in a
``role: "system"`` message (beta ``mid-conversation-tool-changes-2026-07-01``), which ``loop.narrow: allowed``
renders on Anthropic when the scenario opts in with the beta (providers/anthropic_tool_changes.py), and Bedrock
Converse's own ``toolAddition`` / ``toolRemoval`` blocks, which toolchoice does not render yet. core/facts.py holds
them with the other facts."""

from __future__ import annotations

from .fact_record import CITE_END, Fact

_PRESERVED = "platform.claude.com/docs/en/build-with-claude/preserved-thinking"

TOOL_CHANGE_FACTS: tuple[Fact, ...] = (
    Fact("anthropic.tool_changes", ("anthropic",),
         "a tool is taken away or offered again mid-conversation by a role: system message in messages whose content "
         "holds tool_removal / tool_addition blocks, each {type, tool: {type: tool_reference, name}} naming a tool "
         "declared in tools, from that point in the conversation on; the request carries anthropic-beta: "
         "mid-conversation-tool-changes-2026-07-01. Removal is a hint: the model can still call a withdrawn tool",
         "anthropic 2.14.0 types/beta/beta_system_message_param.py BetaSystemMessageParam, "
         "types/beta/beta_request_tool_removal_block_param.py, types/beta/beta_request_tool_addition_block_param.py, "
         "types/beta/beta_tool_change_tool_reference_param.py, types/anthropic_beta_param.py, "
         f"lib/tools/_beta_runner.py{CITE_END}'role: Required[Literal[\"system\"]]' and 'ContentBlock: TypeAlias = "
         "Union[BetaTextBlockParam, BetaRequestToolAdditionBlockParam, BetaRequestToolRemovalBlockParam]'; "
         "'\"\"\"Mid-conversation directive to withdraw a tool.' ... 'It is no longer offered to the model from this "
         "point in the conversation onward.' and 'type: Required[Literal[\"tool_removal\"]]'; '\"\"\"Mid-conversation "
         "directive to make a tool available.' ... 'type: Required[Literal[\"tool_addition\"]]'; "
         "'name: Required[str]' ... 'type: Required[Literal[\"tool_reference\"]]'; AnthropicBetaParam lists "
         "'\"mid-conversation-tool-changes-2026-07-01\",'; the SDK's tool runner: 'Removal is only a hint to the "
         "model, which can still emit a `tool_use` for a withdrawn tool'", "2026-11-27"),
    Fact("anthropic.tool_changes_thinking", ("anthropic", "bedrock"),
         "changing tools between requests invalidates the thinking after the change (preserved thinking's prefix "
         "check); mid-conversation tool changes are the documented replacement: tools stays fixed for the session "
         "and the changes are appended as a role: system message, after the tool_result user message in a tool loop; "
         "the same beta names apply on Amazon Bedrock and Google Cloud",
         f"{_PRESERVED} (the English page as stored, read 2026-11-27){CITE_END}'Add, remove, rename, or edit a tool "
         "in `tools` | Invalid'; 'Top-level `system` and `tools` are fixed for the session. Changes go in `role: "
         "\"system\"` messages and `tool_addition` / `tool_removal` blocks.'; 'Mid-conversation tool changes "
         "(`tool_addition`, `tool_removal`) | Editing the `tools` array | Beta | "
         "`mid-conversation-tool-changes-2026-07-01`'; 'In a tool loop, place it after the `tool_result` user "
         "message, never between an assistant `tool_use` and its `tool_result`'; 'The same beta names apply on "
         "Amazon Bedrock and Google Cloud.'", "2026-11-27"),
    Fact("bedrock.tool_changes", ("bedrock",),
         "Bedrock Converse has its own mid-conversation tool changes: toolAddition / toolRemoval content blocks, "
         "{tool: {type, name, serverName}}, in a message of role system; the service model gives no values for "
         "the reference's type, so toolchoice does not render them (loop.narrow: allowed on Bedrock sends only the "
         "step's tools)",
         "botocore 1.44.8 data/bedrock-runtime/2023-09-30/service-2.json ToolRemovalBlock, ToolAdditionBlock, "
         f"ToolReference, ConversationRole{CITE_END}'A content block for removing a tool from the available tool "
         "set mid-conversation. Each block references a single tool via its tool field. Use within a "
         "system role message to remove a tool without re-sending the full tool configuration.'; "
         "ConversationRole: '\"enum\": [\"user\", \"assistant\", \"system\"]'; ToolReference's type: 'The "
         "type of tool reference.', a ToolReferenceTypeString: '{\"type\": \"string\", \"max\": 64, \"min\": 1}'",
         "2026-11-27"),
)
