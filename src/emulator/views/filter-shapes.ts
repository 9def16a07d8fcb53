import { BOOLEAN, either, listOf, number, object, oneOf, STRINGS, tagged, text, type Shape } from './shape.js';

/**
 * The filter shapes every view domain shares, as the service describes them
 * ("Shared filter shapes", "RecordingViewInsightFilter"): attribute -> shape.
 */

/** NUMERIC is a ViewNumericFilter: every attribute optional; `gte` and `lte` together make a range. */
export const NUMERIC = object({ exists: BOOLEAN, gte: number(), is: number(), isNot: number(), lte: number() });

/** BETWEEN is a ViewNumericBetweenFilter: `gte`, `lte`, at least one set. */
export const BETWEEN = object({ gte: number(), lte: number() }, [], { oneRequiredOf: ['gte', 'lte'] });

/** TEXT_FILTER is a ViewStringFilter. */
export const TEXT_FILTER = object({
  contains: text(),
  containsNot: text(),
  is: text(),
  isNot: text(),
  exists: BOOLEAN,
});

/** ME is the `{type: Me}` entry: whoever views the table (the service's rule 7). */
const ME = object({});

/** AUTHOR is a ViewAuthorFilter: a workspace user, or `Me`. */
export const AUTHOR = tagged('type', {
  User: object({ userId: text() }, ['userId']),
  Me: ME,
});

/** PERSON is a ViewPeopleFilter: a workspace user, a CRM contact, or `Me`. */
export const PERSON = tagged('type', {
  User: object({ userId: text(), name: text(), email: text() }, ['userId', 'name']),
  Contact: object({ name: text(), email: text() }, ['name']),
  Me: ME,
});

/**
 * OWNER is a deal owner entry: an email address, or `{type: Me}` (the deal owner is
 * one of the filters rule 7 names). The service does not show the entries further;
 * an empty string names nobody and is refused.
 */
export const OWNER = either(text({ minLength: 1 }), tagged('type', { Me: ME }));

/**
 * INSIGHT is a RecordingViewInsightFilter, told apart by `type`; each needs `fieldId`
 * and the one attribute its type names.
 */
export const INSIGHT = tagged('type', {
  boolean: object({ fieldId: text(), boolFilter: object({ is: BOOLEAN }, ['is']) }, ['fieldId', 'boolFilter']),
  date: object({ fieldId: text(), dateFilter: BETWEEN }, ['fieldId', 'dateFilter']),
  exists: object({ fieldId: text(), existsFilter: BOOLEAN }, ['fieldId', 'existsFilter']),
  number: object({ fieldId: text(), numFilter: NUMERIC }, ['fieldId', 'numFilter']),
  select: object({ fieldId: text(), selectFilter: object({ in: STRINGS, notIn: STRINGS }) }, [
    'fieldId',
    'selectFilter',
  ]),
  string: object({ fieldId: text(), strFilter: TEXT_FILTER }, ['fieldId', 'strFilter']),
});

/** DAYS is a count of days back from now (`...Relative` filters): a number, not negative. */
export const DAYS = number(0);

/** inNotIn is the pair `<name>In` and `<name>NotIn`, both of the shape `list` (a list of strings unless said). */
export function inNotIn(name: string, list: Shape = STRINGS): Record<string, Shape> {
  return { [`${name}In`]: list, [`${name}NotIn`]: list };
}

/** enumList is a list of strings among `values`. */
export function enumList(values: readonly string[]): Shape {
  return listOf(oneOf(values));
}
