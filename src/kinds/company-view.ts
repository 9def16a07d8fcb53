import { defineViewKind } from './view-kind.js';

/** COMPANY_VIEW is the `CompanyView` kind (the service's "Company view filters"). */
export const COMPANY_VIEW = defineViewKind({
  kind: 'CompanyView',
  domain: 'companies',
  setAttributes: ['contactIdIn', 'contactIdNotIn', 'dealIdIn', 'dealIdNotIn', 'dealStatusIn', 'dealStatusNotIn'],
});
