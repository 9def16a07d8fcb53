import { loadManifests } from '../../src/manifest/load.js';
import { hasErrors } from '../../src/manifest/problems.js';
import { memoryManifestSource } from '../../src/manifest/source.js';

/** viewDocument is one realistic recording or deal view manifest. */
function viewDocument(index: number): string {
  if (index % 2 === 1) {
    return [
      'kind: DealView',
      `name: Deal view ${index}`,
      'icon: moneybag',
      'columns: [{type: Default, columnId: amount}, {type: AiSection, fieldId: fld_risk, title: Risk}]',
      `filters: {statusIn: [Open], amountValue: {gte: ${index}}, stageIn: [s1, s2]}`,
      'sort: [{field: AmountCurrency, order: Desc}]',
    ].join('\n');
  }
  return [
    'kind: RecordingView',
    `name: Recording view ${index}`,
    'columns:',
    '  - {type: Default, columnId: title}',
    '  - {type: AiSection, fieldId: fld_next_steps, title: Next steps}',
    'filters:',
    '  sourceIn: [Call, Zoom, GoogleMeet]',
    `  createdAfterRelative: ${index % 90}`,
    '  authorIdIn: [{type: User, userId: u_1}]',
    '  insights: [{type: select, fieldId: fld_stage, selectFilter: {in: [Won]}}]',
    'sort:',
    '  - {field: CreatedAt, order: Desc}',
  ].join('\n');
}

/**
 * benchValidate generates `count` views in memory (100 per file) and loads and
 * validates them, returning the elapsed time. It prints nothing; the caller reports.
 * The target is under 2 s for 5,000 views.
 */
export async function benchValidate(count = 5000): Promise<{ ms: number; views: number }> {
  const files: Record<string, string> = {};
  for (let start = 0; start < count; start += 100) {
    const documents: string[] = [];
    for (let index = start; index < Math.min(count, start + 100); index += 1) documents.push(viewDocument(index));
    files[`views/part-${String(start / 100).padStart(3, '0')}.yaml`] = `${documents.join('\n---\n')}\n`;
  }
  const began = performance.now();
  const result = await loadManifests(['views'], memoryManifestSource(files));
  const ms = performance.now() - began;
  if (hasErrors(result.problems)) throw new Error(`bench manifests are invalid: ${result.problems[0]?.message ?? ''}`);
  return { ms, views: result.documents.length };
}
