import { defineViewKind } from './view-kind.js';

/**
 * CONTACT_VIEW is the `ContactView` kind (the service's "Contact view filters").
 * `externalities` is a set although its name has no `In` suffix.
 */
export const CONTACT_VIEW = defineViewKind({
  kind: 'ContactView',
  domain: 'contacts',
  setAttributes: ['companyIdIn', 'companyIdNotIn', 'externalities'],
});
