import type { JsonObject } from '../domain/api-types.js';
import { ViewctlError } from '../errors.js';
import type { ServiceRequest } from '../service/types.js';
import { createdKey, type StoredStep } from './kind.js';

/**
 * sentPinnedList is the PUT of a pinned list whose tabs name views this run creates
 * (`Kind.sent` of the pinned views): each such tab, stored as null at its index in
 * `viewIds`, takes the id its create answered. A tab whose create did not land cannot
 * be sent, and a list still holding a null is never sent either.
 */
export function sentPinnedList(
  { request, newViewTabs, subject }: StoredStep,
  createdIds: ReadonlyMap<string, string>,
): ServiceRequest {
  if (request.body === undefined) return request;
  const viewIds = [...((request.body as JsonObject).viewIds as (string | null)[])];
  for (const tab of newViewTabs) {
    const id = subject.domain === undefined ? undefined : createdIds.get(createdKey(subject.domain, tab.name));
    if (id === undefined) {
      throw new ViewctlError(
        'apply.unresolved-tab',
        `the pinned tab "${tab.name}" names a view this run did not create`,
        {
          hint: 'run plan again: the create it depends on did not land',
        },
      );
    }
    viewIds[tab.index] = id;
  }
  if (viewIds.some((id) => id === null)) {
    throw new ViewctlError('apply.unresolved-tab', `a pinned tab of ${subject.name} has no view id`, {
      hint: 'run viewctl plan again to get a plan apply can carry out',
    });
  }
  return { ...request, body: { viewIds: viewIds as string[] } };
}
