import { randomUUID } from 'node:crypto';
import { recordingResponse } from './records/details.js';
import { notFound, success, validationError, type RouteContext, type RouteResult } from './route-result.js';
import type { WebhookDispatcher } from './webhooks.js';
import { isJsonObject } from '../domain/api-types.js';

/** WEBHOOK_EVENT_TYPES are the event kinds a trigger may name. */
const WEBHOOK_EVENT_TYPES = ['recording_added', 'recording_updated'] as const;

/**
 * triggerWebhook handles `POST /v1/webhooks/{webhookId}/trigger` with body
 * `{type, recordingId}`: it answers `{ok: true}` at once and delivers in the
 * background. A private recording fires nothing (the call still succeeds, as the
 * service acknowledges the trigger without telling who may see the recording).
 */
export function triggerWebhook(ctx: RouteContext, dispatcher: WebhookDispatcher): RouteResult {
  const webhookId = ctx.params.webhookId ?? '';
  const webhook = ctx.data.webhooks.find((candidate) => candidate.id === webhookId);
  if (webhook === undefined) return notFound(`no webhook with id "${webhookId}"`);
  const body = ctx.body;
  if (!isJsonObject(body)) return validationError(undefined, 'the body must be a JSON object {"type", "recordingId"}');
  const unknown = Object.keys(body).find((key) => key !== 'type' && key !== 'recordingId');
  if (unknown !== undefined)
    return validationError(unknown, `unknown attribute "${unknown}"; allowed: type, recordingId`);
  const type = body.type;
  if (typeof type !== 'string' || !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
    return validationError('type', `type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  const recordingId = body.recordingId;
  if (typeof recordingId !== 'string') return validationError('recordingId', 'recordingId must be a string');
  const recording = ctx.data.recordings.find((candidate) => candidate.id === recordingId);
  if (recording === undefined) return notFound(`no recording with id "${recordingId}"`);
  if (recording.isPrivate) return success({ ok: true });
  // The payload is the recording as its details endpoint shows it; a private one sent nothing above, whatever the key.
  const payload = recordingResponse(ctx.data, recording, ctx);
  dispatcher.dispatch({ webhook, eventId: `evt_${randomUUID()}`, event: { type, recording: payload } });
  return success({ ok: true });
}
