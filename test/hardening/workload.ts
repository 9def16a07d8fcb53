/**
 * The hardening workload: manifests for the demo workspace that touch every view
 * domain with every kind of write (creates, updates, a rename, pinned lists, prune
 * deletes), so that injected faults meet every endpoint. Kept here rather than read
 * from examples/, which other work changes.
 */

const HEADER =
  'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\nprune: true\nignore: ["Scratch *"]\n';

const recordingView = (name: string, extra: string): string =>
  `kind: RecordingView\nname: ${name}\n${extra}columns:\n  - {type: Default, columnId: title, width: 320}\n  - {type: Default, columnId: createdAt, width: 160}\nsort:\n  - {field: CreatedAt, order: Desc}\n`;

/** WORKLOAD_FILES is the workload as relative path → YAML text. */
export const WORKLOAD_FILES: Readonly<Record<string, string>> = {
  'workspace.yaml': HEADER,
  'recordings.yaml': [
    recordingView(
      'Customer calls',
      'viewId: rv_customer_calls\nicon: phone\nfilters:\n  sourceIn: [Call, Aircall, Ringover]\n',
    ),
    recordingView(
      'Zoom and Meet calls',
      'viewId: rv_video_meetings\nfilters:\n  sourceIn: [GoogleMeet, MsTeams, Zoom]\n  createdAfterRelative: 60\n',
    ),
    'kind: RecordingView\nname: Deals at risk\nviewId: rv_deals_at_risk\n',
    recordingView(
      'Team calls',
      'icon: busts_in_silhouette\nfilters:\n  teamIdIn: [team_ae]\n  recordingTypeIn: [Meeting]\n',
    ),
    recordingView('Escalations', 'icon: warning\nfilters:\n  stateIn: [Ready]\n'),
    recordingView('Renewal calls', 'filters:\n  createdAfterRelative: 14\n'),
  ].join('---\n'),
  'deals.yaml': [
    'kind: DealView\nname: Pipeline review\nviewId: dv_pipeline_review\nsort:\n  - {field: AmountValue, order: Desc}\n',
    'kind: DealView\nname: Won this quarter\nviewId: dv_won_recently\nfilters:\n  statusIn: [Won]\n  closedAfterRelative: 92\n',
    'kind: DealView\nname: Closing soon\nicon: hourglass\nfilters:\n  statusIn: [Open]\n',
    'kind: DealView\nname: Expansion\nfilters:\n  typeIn: [Renewal]\n  statusNotIn: [Lost]\n',
  ].join('---\n'),
  'companies.yaml': [
    'kind: CompanyView\nname: Customers\nviewId: cv_customers\nicon: null\n',
    'kind: CompanyView\nname: Open opportunities\nviewId: cv_open_opportunities\n',
    'kind: CompanyView\nname: Prospects\nfilters:\n  hasInteraction: false\n',
  ].join('---\n'),
  'contacts.yaml': [
    'kind: ContactView\nname: Champions and allies\nviewId: kv_champions\n',
    'kind: ContactView\nname: Decision makers\nviewId: kv_decision_makers\n',
    'kind: ContactView\nname: Buyers\nfilters:\n  externalities: [decision-maker]\n',
  ].join('---\n'),
  'pins.yaml': [
    'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings:\n  - {viewId: rv_mia_followups}\n  - Team calls\n  - Customer calls\n',
    'kind: PinnedViews\nuserEmail: adam.reyes@acme.test\nrecordings: [Escalations, Renewal calls, All recordings]\n',
    'kind: PinnedViews\nuserEmail: noah.patel@acme.test\ndeals:\n  - {viewId: dv_noah_focus}\n  - Closing soon\n  - All deals\n',
    'kind: PinnedViews\nuserEmail: lena.fischer@acme.test\ncompanies:\n  - {viewId: cv_lena_accounts}\n  - Prospects\n',
    'kind: PinnedViews\nuserEmail: sam.okafor@acme.test\ncontacts:\n  - {viewId: kv_sam_prospects}\n  - Buyers\n  - Champions and allies\n',
  ].join('---\n'),
};

/**
 * WORKLOAD_FLAGS are the apply flags the workload needs: its prune deletes more than
 * the default five views.
 */
export const WORKLOAD_FLAGS: readonly string[] = ['--auto-approve', '--max-deletes', '20'];

/**
 * workloadVariant is the workload with other values for the same views: other icons
 * and filters, created views with other content, pinned tabs in another order. Two
 * applies of the workload and its variant touch the same views.
 */
export function workloadVariant(): Record<string, string> {
  const swaps: [string, string][] = [
    ['icon: phone', 'icon: telephone_receiver'],
    ['createdAfterRelative: 60', 'createdAfterRelative: 45'],
    ['icon: warning', 'icon: star'],
    ['createdAfterRelative: 14', 'createdAfterRelative: 21'],
    ['statusIn: [Open]\n', 'statusIn: [Open, Won]\n'],
    ['hasInteraction: false', 'hasInteraction: true'],
    ['externalities: [decision-maker]', 'externalities: [champion, decision-maker]'],
    ['recordings: [Escalations, Renewal calls, All recordings]', 'recordings: [Renewal calls, Escalations]'],
  ];
  return Object.fromEntries(
    Object.entries(WORKLOAD_FILES).map(([path, text]) => [
      path,
      swaps.reduce((out, [from, to]) => out.split(from).join(to), text),
    ]),
  );
}
