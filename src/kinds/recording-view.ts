import type { JsonValue } from '../domain/api-types.js';
import { isJsonObject, sortedSet } from './canonical.js';
import { defineViewKind, normalizeNestedSets } from './view-kind.js';

/**
 * RECORDING_VIEW is the `RecordingView` kind (the service's "Recording view filters").
 * `recordingTypeIn` and `stateIn` are named explicitly although the suffix rule covers
 * them. `insights` is a set too: "all entries must match", so order carries no
 * meaning; inside a `select` insight filter, `in` and `notIn` are sets of options.
 * `dealAgeRange` is a real filter here (unlike deal views, where it is response-only).
 */
export const RECORDING_VIEW = defineViewKind({
  kind: 'RecordingView',
  domain: 'recordings',
  setAttributes: [
    'authorIdIn', 'authorIdNotIn', 'companyIdIn', 'companyIdNotIn',
    'dealAiStatusIn', 'dealAiStatusNotIn', 'dealAmountCurrencyIn', 'dealAmountCurrencyNotIn',
    'dealIdIn', 'dealIdNotIn', 'dealOwnerNameIn', 'dealOwnerNameNotIn',
    'dealPipelineIdIn', 'dealPipelineIdNotIn', 'dealStageIn', 'dealStageNotIn',
    'dealStatusIn', 'dealStatusNotIn', 'dealTypeIn', 'dealTypeNotIn',
    'insights', 'labelIdIn', 'labelIdNotIn', 'langIso2In', 'langIso2NotIn',
    'peopleIn', 'peopleNotIn', 'recordingIdIn', 'recordingIdNotIn', 'recordingTypeIn',
    'sourceIn', 'sourceNotIn', 'stateIn', 'teamIdIn', 'teamIdNotIn',
    'topicIdIn', 'topicIdNotIn', 'userGroupIn', 'userGroupNotIn',
  ],
  normalizeFilterValue(attribute, value) {
    if (attribute !== 'insights' || !Array.isArray(value)) return value;
    return sortedSet(value.map(normalizeInsightFilter));
  },
});

function normalizeInsightFilter(entry: JsonValue): JsonValue {
  if (!isJsonObject(entry)) return entry;
  const select = entry['selectFilter'];
  if (select === undefined) return entry;
  return { ...entry, selectFilter: normalizeNestedSets(select, ['in', 'notIn']) };
}
