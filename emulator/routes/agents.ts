import { optionalString } from '../auth/accounts';
import {
  authorize,
  conversationOwnerId,
  creatorOf,
  maySeeConversation,
  requireSignedIn,
  type Caller,
} from '../auth/caller';
import { invalidInput, notFound } from '../core/errors';
import { checkStoredJson } from '../core/json-guard';
import type { AgentConversation, AgentMessage, AppConfig, StoredConversation } from '../core/types';
import { readJsonObject } from '../http/body';
import { escapeHtml, htmlReply, jsonReply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { parseListQuery, runListQuery } from '../query/list-query';
import { newId } from '../store/store';
import { isJsonObject } from '../util/json-object';

/**
 * Agent conversations. Users see their own, admins and the service role all of them. A stored user
 * message is broadcast to the conversation's room, then the pluggable responder may answer; its
 * reply is stored and broadcast the same way, after the HTTP answer (like the platform's streaming).
 */

const AGENT_NAME = /^[A-Za-z0-9_-]{1,100}$/;

function findConversation(context: EmulatorContext, app: AppConfig, caller: Caller, id: string): StoredConversation {
  const conversation = context.store.findConversation(app.id, id);
  // A conversation of someone else is reported as missing, not as forbidden: ids stay private.
  if (!conversation || !maySeeConversation(caller, conversation))
    throw notFound(`Conversation ${id.slice(0, 100)} not found`, 'conversation_not_found');
  return conversation;
}

function parseMessage(body: Record<string, unknown>, caller: Caller, nowIso: string): AgentMessage {
  const role = body.role ?? 'user';
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    throw invalidInput('role must be "user", "assistant" or "system"', 'invalid_role');
  }
  if (role !== 'user' && caller.kind !== 'service') {
    throw invalidInput('Only the service role may add assistant or system messages', 'invalid_role');
  }
  const content = body.content ?? '';
  if (typeof content !== 'string' || content.length > 100_000) {
    throw invalidInput('content must be a string of at most 100000 characters', 'invalid_content');
  }
  const fileUrls = body.file_urls;
  if (fileUrls !== undefined && (!Array.isArray(fileUrls) || !fileUrls.every((url) => typeof url === 'string'))) {
    throw invalidInput('file_urls must be a list of strings', 'invalid_file_urls');
  }
  if (content.trim() === '' && (fileUrls === undefined || fileUrls.length === 0)) {
    throw invalidInput('A message needs content or file_urls', 'empty_message');
  }
  const message: AgentMessage = {
    id: newId(),
    role,
    content,
    ...(fileUrls === undefined ? {} : { file_urls: fileUrls as string[] }),
    created_date: nowIso,
  };
  checkStoredJson(message, 'The message');
  return message;
}

/**
 * Stores a message (refused whole, 400 or 413, when the conversation is full), then, once durable,
 * broadcasts it with the conversation as it now is.
 */
async function appendMessage(
  context: EmulatorContext,
  app: AppConfig,
  conversationId: string,
  message: AgentMessage,
): Promise<void> {
  await context.store.write((change) => {
    change.appendMessage(app.id, conversationId, message);
    change.afterCommit(() =>
      context.realtime.conversationChanged(
        context.store.findConversation(app.id, conversationId) as StoredConversation,
        message,
      ),
    );
  });
}

function respondInBackground(
  context: EmulatorContext,
  app: AppConfig,
  conversation: StoredConversation,
  message: AgentMessage,
): void {
  context.runInBackground(async () => {
    const reply = await context.responder({
      appId: app.id,
      // A copy of its own: the responder may change it freely.
      conversation: structuredClone(conversation) as AgentConversation,
      message: { ...message },
    });
    if (reply === null) return;
    if (typeof reply.content !== 'string')
      throw new Error('the agent responder returned a reply without string content');
    await appendMessage(context, app, conversation.id, {
      id: newId(),
      role: 'assistant',
      content: reply.content,
      created_date: context.nowIso(),
    });
  });
}

async function addMessage(context: EmulatorContext, request: RouteRequest) {
  const { app, caller } = authorize(context, request.params.appId as string, request.headers);
  requireSignedIn(caller);
  const conversation = findConversation(context, app, caller, request.params.id as string);
  const message = parseMessage(await readJsonObject(request.raw, context.bodyLimitBytes), caller, context.nowIso());
  await appendMessage(context, app, conversation.id, message);
  const stored = context.store.findConversation(app.id, conversation.id) as StoredConversation;
  if (message.role === 'user') respondInBackground(context, app, stored, message);
  return jsonReply(201, message);
}

function notAvailablePage(context: EmulatorContext, request: RouteRequest, channel: string) {
  const app = context.apps.get(request.params.appId as string);
  const agent = request.params.agent as string;
  const title = `${channel} is not available locally`;
  const text = app
    ? `Connecting the agent "${agent}" of ${app.name} to ${channel} needs the hosted platform. The local emulator does not offer it.`
    : 'This app does not exist in the local emulator.';
  return htmlReply(
    app ? 501 : 404,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`,
    { 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'" },
  );
}

export function registerAgentRoutes(router: Router, context: EmulatorContext): void {
  const base = '/api/apps/:appId/agents/conversations';

  router.add('GET', base, (request) => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    requireSignedIn(caller);
    const visible = context.store
      .conversationsOf(app.id)
      .filter((conversation) => maySeeConversation(caller, conversation));
    return jsonReply(
      200,
      runListQuery(visible as unknown as Record<string, unknown>[], parseListQuery(request.url.searchParams)),
    );
  });

  router.add('POST', base, async (request) => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    requireSignedIn(caller);
    const body = await readJsonObject(request.raw, context.bodyLimitBytes);
    const agentName = optionalString(body.agent_name, 'agent_name', 100);
    if (agentName === undefined || !AGENT_NAME.test(agentName)) {
      throw invalidInput('agent_name is required (letters, digits, "-" and "_")', 'invalid_agent_name');
    }
    if (body.metadata !== undefined && !isJsonObject(body.metadata))
      throw invalidInput('metadata must be an object', 'invalid_metadata');
    // Same limits as a record: too deep a value would break every later write of this app's conversations.
    if (body.metadata !== undefined) checkStoredJson(body.metadata, 'metadata');
    const now = context.nowIso();
    const conversation: AgentConversation = {
      id: newId(),
      agent_name: agentName,
      messages: [],
      ...(body.metadata === undefined ? {} : { metadata: body.metadata as Record<string, unknown> }),
      created_by: creatorOf(caller) ?? 'service',
      created_by_id: conversationOwnerId(caller),
      created_date: now,
      updated_date: now,
    };
    await context.store.write((change) => change.startConversation(app.id, conversation));
    return jsonReply(201, conversation);
  });

  router.add('GET', `${base}/:id`, (request) => {
    const { app, caller } = authorize(context, request.params.appId as string, request.headers);
    requireSignedIn(caller);
    return jsonReply(200, findConversation(context, app, caller, request.params.id as string));
  });

  // The spec's path, and the `v2` one the public @base44/sdk posts to.
  router.add('POST', `${base}/:id/messages`, (request) => addMessage(context, request));
  router.add('POST', `${base}/v2/:id/messages`, (request) => addMessage(context, request));

  router.add('GET', '/api/apps/:appId/agents/:agent/whatsapp', (request) =>
    notAvailablePage(context, request, 'WhatsApp'),
  );
  router.add('GET', '/api/apps/:appId/agents/:agent/telegram', (request) =>
    notAvailablePage(context, request, 'Telegram'),
  );
}
