import type { AttributeChecker, BodyProblem } from './body.js';
import { shapeIssues, type ShapeIssue } from './shape-check.js';
import { VIEW_SHAPES } from './view-shapes.js';

/**
 * ruleChecker checks `columns`, `filters` and `sort` against the emulator's own
 * tables of the service's view shapes (view-shapes.ts). Of all that is wrong, the
 * deepest problem is reported, the first of those found: it is the one a client can
 * act on. The reported `path` is dotted and stops at the attribute that holds the bad
 * value (`filters.sourceIn`, `columns`); the message names the exact place
 * (`filters.sourceIn[0]`).
 */
export const ruleChecker: AttributeChecker = (domain, attribute, value) => {
  const issues = shapeIssues(VIEW_SHAPES[domain][attribute], value);
  const deepest = issues.reduce<ShapeIssue | undefined>(
    (best, issue) => (best === undefined || issue.segments.length > best.segments.length ? issue : best),
    undefined,
  );
  return deepest === undefined ? undefined : describe(attribute, deepest);
};

function describe(attribute: string, issue: ShapeIssue): BodyProblem {
  const isIndex = (segment: string): boolean => /^[0-9]+$/.test(segment);
  const firstIndex = issue.segments.findIndex(isIndex);
  const pathSegments = firstIndex < 0 ? issue.segments : issue.segments.slice(0, firstIndex);
  const path = [attribute, ...pathSegments].join('.');
  const place =
    attribute + issue.segments.map((segment) => (isIndex(segment) ? `[${segment}]` : `.${segment}`)).join('');
  return { path, message: `${place} ${issue.message}` };
}
