import { isJsonObject, type JsonObject, type ViewCreateBody, type ViewPatchBody } from '../../domain/api-types.js';
import type { Domain } from '../../domain/domains.js';
import { VIEW_ATTRIBUTES, type ViewAttribute } from './view-shapes.js';

/**
 * Validation of view bodies (the service's "Views"): the attribute set, the types
 * of `name`, `icon` and `creatorEmail`, and the shapes of `columns`, `filters` and
 * `sort` through an injected per-domain checker (the emulator's own tables by
 * default: rule-checker.ts).
 */

/** BodyProblem is the first thing wrong with a body: a dotted `path` and a message. */
export interface BodyProblem {
  path: string | undefined;
  message: string;
}

/**
 * AttributeChecker checks the value of one domain-specific attribute against the
 * API's shape; it returns the problem, with a path relative to the body, or undefined.
 */
export type AttributeChecker = (domain: Domain, attribute: ViewAttribute, value: unknown) => BodyProblem | undefined;

/**
 * RESPONSE_ONLY_FILTERS are filter attributes the service returns but never accepts:
 * a body carrying one is refused, and an update keeps the stored value (rule 6,
 * "internal filter attributes ... keep their stored values").
 */
export const RESPONSE_ONLY_FILTERS: Record<Domain, readonly string[]> = {
  recordings: [],
  deals: ['dealAgeRange'],
  companies: [],
  contacts: [],
};

const CREATE_ATTRIBUTES = ['creatorEmail', 'name', 'icon', 'columns', 'filters', 'sort'];
const PATCH_ATTRIBUTES = ['name', 'icon', 'columns', 'filters', 'sort'];

type Checked<T> = { ok: true; body: T } | { ok: false; problem: BodyProblem };

/** checkCreateBody validates a POST body; `creatorEmail` membership is checked by the caller. */
export function checkCreateBody(domain: Domain, body: unknown, checker: AttributeChecker): Checked<ViewCreateBody> {
  const problem =
    checkObject(body, CREATE_ATTRIBUTES) ??
    checkCreateRequired(body as Record<string, unknown>) ??
    checkCommon(domain, body as Record<string, unknown>, checker, false);
  return problem === undefined ? { ok: true, body: body as ViewCreateBody } : { ok: false, problem };
}

/** checkPatchBody validates a PATCH body: every attribute optional, `icon: null` allowed. */
export function checkPatchBody(domain: Domain, body: unknown, checker: AttributeChecker): Checked<ViewPatchBody> {
  const problem =
    checkObject(body, PATCH_ATTRIBUTES) ?? checkCommon(domain, body as Record<string, unknown>, checker, true);
  return problem === undefined ? { ok: true, body: body as ViewPatchBody } : { ok: false, problem };
}

function checkObject(body: unknown, allowed: string[]): BodyProblem | undefined {
  if (!isJsonObject(body)) return { path: undefined, message: 'the body must be a JSON object' };
  const unknown = Object.keys(body).find((key) => !allowed.includes(key));
  return unknown === undefined
    ? undefined
    : { path: unknown, message: `unknown attribute "${unknown}"; allowed: ${allowed.join(', ')}` };
}

function checkCreateRequired(body: Record<string, unknown>): BodyProblem | undefined {
  if (!Object.hasOwn(body, 'creatorEmail')) return { path: 'creatorEmail', message: 'creatorEmail is required' };
  if (typeof body.creatorEmail !== 'string') return { path: 'creatorEmail', message: 'creatorEmail must be a string' };
  if (!Object.hasOwn(body, 'name')) return { path: 'name', message: 'name is required' };
  return undefined;
}

function checkCommon(
  domain: Domain,
  body: Record<string, unknown>,
  checker: AttributeChecker,
  iconMayBeNull: boolean,
): BodyProblem | undefined {
  if (Object.hasOwn(body, 'name') && (typeof body.name !== 'string' || body.name.trim() === '')) {
    return { path: 'name', message: 'name must be a non-empty string' };
  }
  if (Object.hasOwn(body, 'icon')) {
    const icon = body.icon;
    const nullOk = iconMayBeNull && icon === null;
    if (!nullOk && (typeof icon !== 'string' || icon === '')) {
      return {
        path: 'icon',
        message: iconMayBeNull
          ? 'icon must be a non-empty string, or null to remove it'
          : 'icon must be a non-empty string',
      };
    }
  }
  for (const attribute of VIEW_ATTRIBUTES) {
    if (!Object.hasOwn(body, attribute)) continue;
    const value = body[attribute];
    const problem =
      checkStructure(attribute, value) ?? responseOnly(domain, attribute, value) ?? checker(domain, attribute, value);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

// The structure every domain shares, checked before the domain's shapes so a wrong
// container type gets a plain message.
function checkStructure(attribute: ViewAttribute, value: unknown): BodyProblem | undefined {
  if (attribute === 'filters') {
    return isJsonObject(value) ? undefined : { path: 'filters', message: 'filters must be an object' };
  }
  if (!Array.isArray(value)) return { path: attribute, message: `${attribute} must be an array` };
  const index = value.findIndex((entry) => !isJsonObject(entry));
  return index < 0 ? undefined : { path: attribute, message: `${attribute}[${index}] must be an object` };
}

function responseOnly(domain: Domain, attribute: ViewAttribute, value: unknown): BodyProblem | undefined {
  if (attribute !== 'filters' || !isJsonObject(value)) return undefined;
  const found = RESPONSE_ONLY_FILTERS[domain].find((name) => Object.hasOwn(value, name));
  return found === undefined
    ? undefined
    : { path: `filters.${found}`, message: `filters.${found} appears in responses only and cannot be sent` };
}

/**
 * storedSort is a checked `sort` as the service keeps it: `insight` is "required when
 * `field` is `Insight`, ignored otherwise" (the service's RecordingViewSortDimension),
 * so an ignored one is dropped, not stored and echoed back.
 */
export function storedSort(sort: readonly JsonObject[]): JsonObject[] {
  return sort.map((entry) => {
    if (entry.field === 'Insight' || !Object.hasOwn(entry, 'insight')) return entry;
    const { insight: _ignored, ...kept } = entry;
    return kept;
  });
}
