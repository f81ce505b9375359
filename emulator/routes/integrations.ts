import { optionalString, requireEmailAddress, requireString } from '../auth/accounts';
import { authorize, creatorOf } from '../auth/caller';
import { DomainError, invalidInput } from '../core/errors';
import type { AppConfig } from '../core/types';
import { readNamedPayload, type NamedPayload } from '../http/body';
import { jsonReply, type Reply } from '../http/reply';
import type { Router, RouteRequest } from '../http/router';
import type { EmulatorContext } from '../instance/context';
import { fileUrl, privateFileUri, signPrivateFile, storeUpload } from './files';

/**
 * Integrations. UploadFile, UploadPrivateFile, CreateFileSignedUrl (files.ts) and SendEmail work
 * locally; every other Core endpoint and every installable package needs the hosted platform and
 * answers 501, saying so.
 */

const ENDPOINT_NAME = /^[A-Za-z0-9_-]{1,100}$/;

function notAvailable(what: string): DomainError {
  return new DomainError('not_available', 'not_available_locally', `${what} is not available in the local emulator`, {
    detail:
      'Only Core.UploadFile, Core.UploadPrivateFile, Core.CreateFileSignedUrl and Core.SendEmail run locally; everything else needs the hosted platform.',
  });
}

async function upload(
  context: EmulatorContext,
  app: AppConfig,
  createdBy: string | null,
  payload: NamedPayload,
  visibility: 'public' | 'private',
): Promise<Reply> {
  const stored = await storeUpload(context, app, createdBy, payload, visibility);
  if (visibility === 'private') return jsonReply(200, { file_uri: privateFileUri(stored) });
  return jsonReply(200, { file_url: fileUrl(context, stored) });
}

async function sendEmail(context: EmulatorContext, app: AppConfig, payload: NamedPayload): Promise<Reply> {
  const { fields } = payload;
  // A recipient is not an account: the service role's reserved address is a valid one to write to.
  const to = requireEmailAddress(fields.to, 'to');
  const subject = requireString(fields.subject, 'subject', 998);
  const body = requireString(fields.body, 'body', 1_000_000);
  const fromName = optionalString(fields.from_name, 'from_name', 200);
  const sent = await context.store.write((change) =>
    context.sendMail(
      change,
      app.id,
      { to, subject, body, ...(fromName === undefined ? {} : { from_name: fromName }) },
      'caller',
    ),
  );
  return jsonReply(200, { success: true, id: sent.id });
}

async function core(context: EmulatorContext, request: RouteRequest): Promise<Reply> {
  const { app, caller } = authorize(context, request.params.appId as string, request.headers);
  const endpoint = request.params.endpoint as string;
  if (!ENDPOINT_NAME.test(endpoint)) throw invalidInput('Invalid integration endpoint name', 'invalid_endpoint');
  const payload = await readNamedPayload(request.raw, context.bodyLimitBytes, `Integration ${endpoint}`);
  if (endpoint === 'UploadFile') return upload(context, app, creatorOf(caller), payload, 'public');
  if (endpoint === 'UploadPrivateFile') return upload(context, app, creatorOf(caller), payload, 'private');
  if (endpoint === 'CreateFileSignedUrl') return signPrivateFile(context, app, payload.fields);
  if (endpoint === 'SendEmail') return sendEmail(context, app, payload);
  throw notAvailable(`The integration Core.${endpoint}`);
}

async function installable(context: EmulatorContext, request: RouteRequest): Promise<Reply> {
  authorize(context, request.params.appId as string, request.headers);
  const packageName = request.params.package as string;
  const endpoint = request.params.endpoint as string;
  if (!ENDPOINT_NAME.test(packageName) || !ENDPOINT_NAME.test(endpoint)) {
    throw invalidInput('Invalid integration package or endpoint name', 'invalid_endpoint');
  }
  await readNamedPayload(request.raw, context.bodyLimitBytes, `Integration ${endpoint}`);
  throw notAvailable(`The installable integration ${packageName}.${endpoint}`);
}

export function registerIntegrationRoutes(router: Router, context: EmulatorContext): void {
  router.add('POST', '/api/apps/:appId/integration-endpoints/Core/:endpoint', (request) => core(context, request));
  // The spec's path, and the one the public @base44/sdk builds.
  router.add('POST', '/api/apps/:appId/installable/:package/integration-endpoints/:endpoint', (request) =>
    installable(context, request),
  );
  router.add(
    'POST',
    '/api/apps/:appId/integration-endpoints/installable/:package/integration-endpoints/:endpoint',
    (request) => installable(context, request),
  );
}
