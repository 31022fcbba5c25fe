// Records what the Vercel AI SDK sends for each toolChoice, per provider package, against `toolchoice mock`.
// Each target starts its own `toolchoice mock -p ID --format jsonl --save DIR`, points the provider's baseURL at it,
// runs one generateText (streamText for the openai chat target) per case, and writes
//   tests/data/peers/vercel/<target>/sample-NNN.{request,response,reply}.json  (the mock's --save files)
//   tests/data/peers/vercel/<target>/cases.json  (case → toolChoice given, sample number, what the SDK returned)
// Usage (from this folder, after `npm ci`): TOOLCHOICE=/path/to/toolchoice node record.mjs [target ...]
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { generateText, streamText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createGroq } from '@ai-sdk/groq';
import { createCohere } from '@ai-sdk/cohere';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAzure } from '@ai-sdk/azure';
import { createTogetherAI } from '@ai-sdk/togetherai';
import { createFireworks } from '@ai-sdk/fireworks';
import { createCerebras } from '@ai-sdk/cerebras';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = process.env.VERCEL_OUT || join(HERE, '..', '..', 'data', 'peers', 'vercel');
// the targets marked `options` (providerOptions for parallel calls and thinking, read by tests/test_vercel_dialect.py)
// go to their own folder, recorded only when named or with the word `options`: `node record.mjs options`
const OPTIONS_OUT = process.env.VERCEL_OPTIONS_OUT || join(HERE, '..', '..', 'data', 'peers', 'vercel-options');
const TOOLCHOICE = process.env.TOOLCHOICE || 'toolchoice';
const KEY = 'unused-placeholder-key';

const tools = {
  get_weather: tool({ description: 'Weather for a city', inputSchema: z.object({ city: z.string() }) }),
  get_time: tool({ description: 'Local time in a timezone', inputSchema: z.object({ timezone: z.string() }) }),
};
// the same tools with execute, for the agent-loop cases (stopWhen: stepCountIs(steps))
const executing = {
  get_weather: tool({ ...tools.get_weather, execute: async ({ city }) => ({ city, forecast: 'sunny, 21 C' }) }),
  get_time: tool({ ...tools.get_time, execute: async ({ timezone }) => ({ timezone, time: '12:00' }) }),
};
const prompt = 'What is the weather in Paris?';

// toolChoice cases: `choice` is what generateText is given (undefined: not given).
const CASES = [
  { name: 'unset' },
  { name: 'auto', choice: 'auto' },
  { name: 'none', choice: 'none' },
  { name: 'required', choice: 'required' },
  { name: 'tool-get_time', choice: { type: 'tool', toolName: 'get_time' } },
  { name: 'activeTools-get_time-required', choice: 'required', activeTools: ['get_time'] },
  // an agent loop of at most 3 steps: the same toolChoice is sent on every step
  { name: 'loop-auto', choice: 'auto', steps: 3 },
  { name: 'loop-required', choice: 'required', steps: 3 },
];

const STREAMED = ['required', 'tool-get_time'];

// target name → the mock's provider id, the model as a function of the mock's printed base URL, extra cases.
const TARGETS = {
  'openai-chat': { mock: 'openai', model: (u) => createOpenAI({ baseURL: u, apiKey: KEY }).chat('gpt-5.4-mini'),
  },
  'openai-responses': { mock: 'openai-responses', model: (u) => createOpenAI({ baseURL: u, apiKey: KEY }).responses('gpt-5.4-mini'),
    // the Responses model's own allowed-tools option ("When set, this overrides the request-level `toolChoice`")
    extra: [{ name: 'allowedTools-get_time-required', choice: 'required',
      providerOptions: { openai: { allowedTools: { toolNames: ['get_time'], mode: 'required' } } } }] },
  anthropic: { mock: 'anthropic', model: (u) => createAnthropic({ baseURL: `${u}/v1`, apiKey: KEY })('claude-sonnet-5') },
  // thinking {type: enabled}: the package sends 'auto' for a forcing choice (rejectsForcedToolUse || thinkingType === "enabled")
  'anthropic-thinking': { mock: 'anthropic', model: (u) => createAnthropic({ baseURL: `${u}/v1`, apiKey: KEY })('claude-sonnet-4-6'),
    only: ['required', 'tool-get_time'], providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } } },
  // claude-sonnet-5-5: the package's getModelCapabilities says rejectsForcedToolUse
  'anthropic-sonnet-5-5': { mock: 'anthropic', model: (u) => createAnthropic({ baseURL: `${u}/v1`, apiKey: KEY })('claude-sonnet-5-5'),
    only: ['required', 'tool-get_time'] },
  // generateId: the ids the package gives Gemini's calls (it sends them back in functionCall / functionResponse),
  // numbered instead of random so that a re-recording is byte for byte the same
  google: { mock: 'gemini', model: (u) => createGoogleGenerativeAI({ baseURL: `${u}/v1beta`, apiKey: KEY,
    generateId: numbered('gemini-call') })('gemini-3.5-flash') },
  mistral: { mock: 'mistral', model: (u) => createMistral({ baseURL: u, apiKey: KEY })('mistral-small-latest') },
  groq: { mock: 'groq', model: (u) => createGroq({ baseURL: u, apiKey: KEY })('openai/gpt-oss-120b') },
  cohere: { mock: 'cohere', model: (u) => createCohere({ baseURL: `${u}/v2`, apiKey: KEY })('command-a-03-2025') },
  deepseek: { mock: 'deepseek', model: (u) => createDeepSeek({ baseURL: u, apiKey: KEY })('deepseek-v4-flash'),
    // deepseek-v4-* think by default (the package's isDeepSeekV4Model); the same forcing choices with thinking off:
    extra: [{ name: 'required-thinking-disabled', choice: 'required',
      providerOptions: { deepseek: { thinking: { type: 'disabled' } } } },
    { name: 'tool-get_time-thinking-disabled', choice: { type: 'tool', toolName: 'get_time' },
      providerOptions: { deepseek: { thinking: { type: 'disabled' } } } }] },
  'openai-compatible': { mock: 'vllm', model: (u) => createOpenAICompatible({ name: 'local', baseURL: u, apiKey: KEY })('local-model') },
  'amazon-bedrock': { mock: 'bedrock', model: bedrock },
  // Azure: azure(id) is the Responses model; the chat model on a deployment URL is the request toolchoice's azure row
  // builds (POST {endpoint}/openai/deployments/{deployment}/chat/completions?api-version=...)
  azure: { mock: 'azure', model: azure },
  togetherai: { mock: 'together', model: together },
  fireworks: { mock: 'fireworks', model: fireworks },
  cerebras: { mock: 'cerebras', model: cerebras },
  // the hosts with no @ai-sdk package of their own for chat completions, through @ai-sdk/openai-compatible
  'openai-compatible-openrouter': { mock: 'openrouter', model: (u) => createOpenAICompatible({ name: 'openrouter', baseURL: u, apiKey: KEY })('openai/gpt-5.4-mini') },
  'openai-compatible-sambanova': { mock: 'sambanova', model: (u) => createOpenAICompatible({ name: 'sambanova', baseURL: u, apiKey: KEY })('Meta-Llama-3.3-70B-Instruct') },
  'openai-compatible-huggingface': { mock: 'huggingface', model: (u) => createOpenAICompatible({ name: 'huggingface', baseURL: u, apiKey: KEY })('openai/gpt-oss-120b') },
  // @ai-sdk/xai 5 (ai 7) has only the Responses model (`const provider = (modelId) => createResponsesLanguageModel(modelId)`);
  // toolchoice's xai row is chat completions
  'openai-compatible-xai': { mock: 'xai', model: (u) => createOpenAICompatible({ name: 'xai', baseURL: u, apiKey: KEY })('grok-4.3') },
  // providerOptions for parallel tool calls (`cases` replaces CASES), into OPTIONS_OUT
  'openai-chat-parallel': { options: true, mock: 'openai', model: (u) => createOpenAI({ baseURL: u, apiKey: KEY }).chat('gpt-5.4-mini'),
    cases: parallel('openai', 'parallelToolCalls') },
  'openai-responses-parallel': { options: true, mock: 'openai-responses',
    model: (u) => createOpenAI({ baseURL: u, apiKey: KEY }).responses('gpt-5.4-mini'), cases: parallel('openai', 'parallelToolCalls') },
  'groq-parallel': { options: true, mock: 'groq', model: (u) => createGroq({ baseURL: u, apiKey: KEY })('openai/gpt-oss-120b'),
    cases: parallel('groq', 'parallelToolCalls') },
  'mistral-parallel': { options: true, mock: 'mistral', model: (u) => createMistral({ baseURL: u, apiKey: KEY })('mistral-small-latest'),
    cases: parallel('mistral', 'parallelToolCalls') },
  'anthropic-parallel': { options: true, mock: 'anthropic', model: (u) => createAnthropic({ baseURL: `${u}/v1`, apiKey: KEY })('claude-sonnet-5'),
    cases: parallel('anthropic', 'disableParallelToolUse') },
  'amazon-bedrock-parallel': { options: true, mock: 'bedrock', model: bedrock, cases: parallel('anthropic', 'disableParallelToolUse') },
  'azure-parallel': { options: true, mock: 'azure', model: azure, cases: parallel('openai', 'parallelToolCalls') },
  // @ai-sdk/openai-compatible (and the host packages built on it) has no parallel option of its own: the keys of
  // providerOptions[name] it does not know go into the body as given
  'openai-compatible-parallel': { options: true, mock: 'vllm', model: (u) => createOpenAICompatible({ name: 'vllm', baseURL: u, apiKey: KEY })('local-model'),
    cases: parallel('vllm', 'parallel_tool_calls') },
  'togetherai-parallel': { options: true, mock: 'together', model: together, cases: parallel('togetherai', 'parallel_tool_calls') },
  'fireworks-parallel': { options: true, mock: 'fireworks', model: fireworks, cases: parallel('fireworks', 'parallel_tool_calls') },
  'cerebras-parallel': { options: true, mock: 'cerebras', model: cerebras, cases: parallel('cerebras', 'parallel_tool_calls') },
  // adaptive thinking: the package's rejectsForcedToolUse looks only at thinkingType === "enabled"
  'anthropic-adaptive': { options: true, mock: 'anthropic', model: (u) => createAnthropic({ baseURL: `${u}/v1`, apiKey: KEY })('claude-sonnet-4-6'),
    only: ['auto', 'required', 'tool-get_time'], providerOptions: { anthropic: { thinking: { type: 'adaptive' } } } },
};

function bedrock(u) {
  return createAmazonBedrock({ baseURL: u, region: 'us-east-1', accessKeyId: 'AKIAPLACEHOLDER00000',
    secretAccessKey: 'placeholder-secret' })('anthropic.claude-sonnet-4-6');
}

function azure(u) {
  return createAzure({ baseURL: `${new URL(u).origin}/openai`, apiKey: KEY, useDeploymentBasedUrls: true,
    apiVersion: '2024-10-21' }).chat('gpt-5.4-mini');
}
function together(u) { return createTogetherAI({ baseURL: u, apiKey: KEY })('zai-org/GLM-5.1'); }
function fireworks(u) { return createFireworks({ baseURL: u, apiKey: KEY })('accounts/fireworks/models/llama-v3p1-70b-instruct'); }
function cerebras(u) { return createCerebras({ baseURL: u, apiKey: KEY })('gpt-oss-120b'); }

// each choice with the package's parallel-calls option on and off (`key`: parallelToolCalls or disableParallelToolUse)
function parallel(space, key) {
  const choices = [['unset'], ['auto', 'auto'], ['none', 'none'], ['required', 'required'],
    ['tool-get_time', { type: 'tool', toolName: 'get_time' }]];
  return choices.flatMap(([name, choice]) => [true, false].map((value) => ({
    name: `${name}-${key}-${value}`, ...(choice !== undefined ? { choice } : {}),
    providerOptions: { [space]: { [key]: value } } })));
}

function numbered(prefix) {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

// What changes from run to run and says nothing of the request: the mock's port, SigV4's x-amz-date.
function steady(dir) {
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.request.json'))) {
    const saved = JSON.parse(readFileSync(join(dir, name)));
    if (saved.headers.host) saved.headers.host = '127.0.0.1:PORT';
    if (saved.headers['x-amz-date']) saved.headers['x-amz-date'] = '[varies per run]';
    writeFileSync(join(dir, name), JSON.stringify(saved, null, 2) + '\n');
  }
}

function startMock(provider, dir) {
  const child = spawn(TOOLCHOICE, ['mock', '-p', provider, '--format', 'jsonl', '--save', dir],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  let resolveUrl;
  const url = new Promise((r) => { resolveUrl = r; });
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (lines.length === 0 && !line.startsWith('{')) { lines.push(line); resolveUrl(line.trim()); return; }
    lines.push(JSON.parse(line));
  });
  return { child, url, lines };
}

async function waitFor(lines, count) {
  for (let i = 0; i < 200 && lines.length < count; i++) await new Promise((r) => setTimeout(r, 25));
}

async function record(name, target) {
  const dir = join(target.options ? OPTIONS_OUT : OUT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const mock = startMock(target.mock, dir);
  const base = await mock.url;
  const model = target.model(base);
  const cases = [];
  const runs = (target.cases || [...CASES, ...(target.extra || [])]).filter((c) => !target.only || target.only.includes(c.name))
    .map((c) => ({ ...c, mode: 'generateText' }))
    .map((c) => (target.providerOptions ? { ...c, providerOptions: target.providerOptions } : c));
  // streamText: the same request streamed, read back by the package's stream parser
  for (const s of target.only || target.cases ? [] : STREAMED) runs.push({ ...CASES.find((c) => c.name === s), mode: 'streamText' });
  for (const c of runs) {
    const before = mock.lines.length;
    const args = { model, tools: c.steps ? executing : tools, prompt, maxRetries: 0,
      ...(c.steps ? { stopWhen: stepCountIs(c.steps) } : {}),
      ...(c.choice !== undefined ? { toolChoice: c.choice } : {}), ...(c.activeTools ? { activeTools: c.activeTools } : {}),
      ...(c.providerOptions ? { providerOptions: c.providerOptions } : {}) };
    const row = { case: c.name, call: c.mode, toolChoice: c.choice ?? null, activeTools: c.activeTools ?? null,
      ...(c.providerOptions ? { providerOptions: c.providerOptions } : {}) };
    try {
      let result;
      if (c.mode === 'streamText') {
        let streamError = null;
        const s = streamText({ ...args, onError: ({ error }) => { streamError = error; } });
        for await (const _ of s.fullStream) { /* drain */ }
        if (streamError) throw streamError;
        result = { toolCalls: await s.toolCalls, text: await s.text, finishReason: await s.finishReason, warnings: await s.warnings };
      } else {
        result = await generateText(args);
      }
      row.toolCalls = result.toolCalls.map((t) => ({ toolName: t.toolName, input: t.input }));
      row.text = result.text;
      row.finishReason = result.finishReason;
      if (result.steps) row.steps = result.steps.length;
      row.warnings = result.warnings ?? [];
    } catch (e) {
      row.error = { name: e.name, message: String(e.message).slice(0, 400), statusCode: e.statusCode ?? null };
    }
    await waitFor(mock.lines, before + (row.steps ?? 1));
    row.samples = mock.lines.slice(before).map((l) => l.n);
    cases.push(row);
  }
  mock.child.kill('SIGTERM');
  await new Promise((r) => mock.child.on('exit', r));
  steady(dir);
  writeFileSync(join(dir, 'cases.json'), JSON.stringify({ target: name, mock_provider: target.mock, cases }, null, 2) + '\n');
  console.log(`${name}: ${cases.length} cases, ${readdirSync(dir).filter((f) => f.endsWith('.request.json')).length} requests`);
}

const versions = Object.fromEntries(['ai', ...Object.keys(JSON.parse(readFileSync(join(HERE, 'package.json'))).dependencies)
  .filter((p) => p.startsWith('@ai-sdk/'))].map((p) => [p, JSON.parse(readFileSync(join(HERE, 'node_modules', p, 'package.json'))).version]));
const named = process.argv.slice(2).flatMap((a) => (a === 'options'
  ? Object.keys(TARGETS).filter((t) => TARGETS[t].options) : [a]));
const wanted = named.length ? named : Object.keys(TARGETS).filter((t) => !TARGETS[t].options);
for (const name of wanted) await record(name, TARGETS[name]);
for (const out of new Set(wanted.map((t) => (TARGETS[t].options ? OPTIONS_OUT : OUT)))) {
  writeFileSync(join(out, 'versions.json'), JSON.stringify({ node: process.version, packages: versions }, null, 2) + '\n');
}
