import { describe, expect, it } from 'vitest';
import { jsonReport, textReport } from '../../src/render/pull-report.js';

describe('what pull prints', () => {
  const at = { file: 'views/calls.yaml', line: 3, column: 1 };

  it('lists each value written as file:line, target, old -> new, the files added and what it left, with why', () => {
    const text = textReport({
      written: [
        { at, target: 'RecordingView "Customer calls"', what: 'name', before: 'Customer calls', after: 'Team calls' },
      ],
      files: ['views/calls.yaml'],
      added: [{ path: 'pins/mia.yaml', target: 'pins of mia@acme.test: companies' }],
      schemaCopies: 2,
      notPulled: [
        {
          target: 'RecordingView "New"',
          reason: 'nothing to pull: no live view has this name',
          source: { file: 'views/new.yaml', line: 1, column: 1 },
        },
      ],
    });
    expect(text).toBe(
      [
        'written in place, 1 value in 1 file:',
        '  views/calls.yaml:3  RecordingView "Customer calls"  name: "Customer calls" -> "Team calls"',
        'added, 1 new file:',
        '  pins/mia.yaml  pins of mia@acme.test: companies',
        'not pulled (1):',
        '  RecordingView "New"  views/new.yaml:1: nothing to pull: no live view has this name',
        '2 manifests written (and 2 JSON Schema copies into .viewctl/schemas/), every other byte kept; nothing was changed in the workspace',
        '',
      ].join('\n'),
    );
  });

  it('says so when there is nothing to pull, and escapes what the service named', () => {
    const empty = { written: [], files: [], added: [], schemaCopies: 0, notPulled: [] };
    expect(textReport(empty)).toMatch(
      /^nothing to pull: the manifests already say what the workspace has for the selected targets\n0 manifests written/,
    );
    const text = textReport({
      ...empty,
      files: ['a.yaml'],
      written: [{ at, target: 'RecordingView "evil\u001b[31m"', what: 'name', before: 'x', after: 'y' }],
    });
    expect(text).not.toContain('\u001b[31m');
    expect(jsonReport(empty)).toEqual({ written: [], added: [], notPulled: [] });
  });
  it('never says the manifests already match when a selected target was left unpulled', () => {
    const left = {
      written: [],
      files: [],
      added: [],
      schemaCopies: 0,
      notPulled: [{ target: 'pins/ann@acme.com (deals)', reason: 'reached by the group "Sales"' }],
    };
    const text = textReport(left);
    expect(text).not.toContain('already say');
    expect(text).toContain('nothing was pulled: each target above says why\n0 manifests written');
  });
});
