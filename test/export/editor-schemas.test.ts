import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, scratchDir } from '../support/cli.js';

/**
 * What an editor sees in an exported folder: yaml-language-server (the engine of the
 * YAML extensions of VS Code, Neovim and others), driven over its language-server
 * protocol on stdio, loads the schema an exported file's modeline points at, offers
 * its completions and flags a typo. Every wait is bounded.
 */

const SERVER = new URL('../../node_modules/yaml-language-server/bin/yaml-language-server', import.meta.url);
const WAIT_MS = 15_000;

/** LspClient speaks Content-Length framed JSON-RPC to a language server. */
class LspClient {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (result: unknown) => void>();
  private readonly notifications: { method: string; params: unknown }[] = [];
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    this.send({ jsonrpc: '2.0', id, method, params });
    return bounded(new Promise((resolve) => this.pending.set(id, resolve)), `${method} answered`);
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** notification waits for the first notification of `method` whose params pass `test`. */
  async notification(method: string, test: (params: unknown) => boolean): Promise<unknown> {
    for (;;) {
      const found = this.notifications.find((note) => note.method === method && test(note.params));
      if (found !== undefined) return found.params;
      await bounded(new Promise<void>((resolve) => this.waiters.push(resolve)), `${method} sent`);
    }
  }

  private send(message: unknown): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.byteLength}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
      if (this.buffer.byteLength < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as {
        id?: number;
        method?: string;
        params?: unknown;
        result?: unknown;
      };
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      if (message.method !== undefined && message.id !== undefined) {
        // A request from the server (configuration, capability registration): answer it plainly.
        this.send({
          jsonrpc: '2.0',
          id: message.id,
          result:
            message.method === 'workspace/configuration' ? [{ validate: true, completion: true, hover: true }] : null,
        });
      } else if (message.method !== undefined) {
        this.notifications.push({ method: message.method, params: message.params });
        for (const wake of this.waiters.splice(0)) wake();
      } else if (message.id !== undefined) {
        this.pending.get(message.id)?.(message.result);
        this.pending.delete(message.id);
      }
    }
  }
}

function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`yaml-language-server: nothing ${what} within ${WAIT_MS} ms`)), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let folder: { dir: string; cleanup(): Promise<void> };
let child: ChildProcessWithoutNullStreams;
let lsp: LspClient;
let viewFile: string;

beforeAll(async () => {
  folder = await scratchDir();
  const exported = await runInProcess(['export', '--emulator', '--out', 'manifests'], { cwd: folder.dir });
  expect(exported.code, exported.stderr).toBe(0);
  const recordings = join(folder.dir, 'manifests', 'recordings');
  viewFile = join(recordings, readdirSync(recordings).sort()[0] ?? '');
  child = spawn(process.execPath, [SERVER.pathname, '--stdio'], { stdio: 'pipe' });
  lsp = new LspClient(child);
  await lsp.request('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(join(folder.dir, 'manifests')).href,
    capabilities: {},
  });
  lsp.notify('initialized', {});
  lsp.notify('workspace/didChangeConfiguration', {
    settings: { yaml: { validate: true, completion: true, hover: true } },
  });
}, 60_000);

afterAll(async () => {
  child?.kill();
  await folder?.cleanup();
});

describe('an exported file in an editor', () => {
  it('points at the schemas copied beside it, which the loader never reads as manifests', async () => {
    const text = readFileSync(viewFile, 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../.viewctl/schemas/recording-view.schema.json');
    const validated = await runInProcess(['validate', join(folder.dir, 'manifests')]);
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
  });

  it('gets completions from the schema and a typo flagged', async () => {
    const uri = pathToFileURL(viewFile).href;
    // The exported file with its icon removed, a typo in an enum value and a misspelt attribute added.
    const exported = readFileSync(viewFile, 'utf8');
    expect(exported).toMatch(/order: Desc\}/);
    const text = `${exported.replace(/^icon: .*\n/m, '').replace('order: Desc}', 'order: Descending}')}fliters: {}\n`;
    lsp.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const diagnostics = (await lsp.notification('textDocument/publishDiagnostics', (params) => {
      const { uri: about, diagnostics: found } = params as { uri: string; diagnostics: unknown[] };
      return about === uri && found.length > 0;
    })) as { diagnostics: { message: string }[] };
    const messages = diagnostics.diagnostics.map((diagnostic) => diagnostic.message).join('\n');
    expect(messages).toMatch(/Value is not accepted|allowed values|Descending/i);
    expect(messages).toMatch(/fliters/);

    // Completion on an empty line at the top level offers the schema's attributes.
    const lines = text.split('\n');
    const completion = (await lsp.request('textDocument/completion', {
      textDocument: { uri },
      position: { line: lines.length - 1, character: 0 },
    })) as { items: { label: string }[] } | { label: string }[];
    const labels = (Array.isArray(completion) ? completion : completion.items).map((item) => item.label);
    expect(labels).toEqual(expect.arrayContaining(['icon']));
  });
});
