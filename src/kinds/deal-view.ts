import { defineViewKind } from './view-kind.js';

/**
 * DEAL_VIEW is the `DealView` kind (the service's "Deal view"). `dealAgeRange`
 * appears in responses only and the service rejects it in a PATCH,
 * so it is never compared and never sent.
 */
export const DEAL_VIEW = defineViewKind({
  kind: 'DealView',
  domain: 'deals',
  setAttributes: [
    'aiStatusIn', 'aiStatusNotIn', 'amountCurrencyIn', 'amountCurrencyNotIn',
    'companyIdIn', 'companyIdNotIn', 'contactIdIn', 'ownerEmailIn', 'ownerEmailNotIn',
    'pipelineIdIn', 'pipelineIdNotIn', 'stageIn', 'stageNotIn', 'statusIn', 'statusNotIn',
    'typeIn', 'typeNotIn', 'userGroupIn', 'userGroupNotIn',
  ],
  responseOnlyFilters: ['dealAgeRange'],
});
