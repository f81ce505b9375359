import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { hasFormat } from '@/emulator/entities/formats';
import { parseEntityDefinition } from '@/emulator/entities/parse';
import { openProjectFolder, readEntityDefinitions } from '@/emulator/entities/project';
import { EntityRegistry, watchEntityFiles } from '@/emulator/entities/registry';
import { startTestEmulator, testSeed } from '@/tests/support/emulator';

import { apiClient } from '../api';

/** The loader of base44/entities: file format, project folder, app link, lookup and reload. */

const REPO = path.resolve(__dirname, '../../../..');
const TODO = `// a comment, as in the CLI's templates
{
  "name": "Todo",
  "type": "object",
  "properties": {
    "title": { "type": "string" },
    "done": { "type": "boolean", "default": false, "rls": { "read": true, "write": null } },
  },
  "required": ["title"],
  "rls": { "read": { "created_by": "{{user.email}}" }, "update": "" },
}`;

let dirs: string[] = [];
function tempProject(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'entities-'));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(root, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return root;
}

afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('an entity file', () => {
  it('reads JSONC into a definition with Maps for properties, and leaves unset rules out', () => {
    const definition = parseEntityDefinition(TODO, 'todo.jsonc');
    expect(definition.name).toBe('Todo');
    expect(definition.required).toEqual(['title']);
    expect([...definition.properties.keys()]).toEqual(['title', 'done']);
    expect(definition.properties.get('done')).toEqual({ type: 'boolean', default: false, rls: { read: true } });
    expect(definition.rls).toEqual({ read: { created_by: '{{user.email}}' } });
  });

  it.each([
    ['not JSON', '{ name: ', /todo\.jsonc: not valid JSON\/JSONC/],
    ['a list', '[]', /holds one object/],
    ['a name with a dash', '{ "name": "To-do" }', /"name" must be the entity name/],
    ['a name starting with a digit', '{ "name": "1Todo" }', /"name" must be the entity name/],
    [
      'an unknown format',
      '{ "name": "T", "properties": { "a": { "type": "string", "format": "color" } } }',
      /format "color" is not one/,
    ],
    [
      'a lookahead pattern',
      '{ "name": "T", "properties": { "a": { "type": "string", "pattern": "(?=a)" } } }',
      /not a valid regular expression for RE2/,
    ],
    ['another type', '{ "name": "T", "type": "array" }', /"type" must be "object"/],
    [
      'an unknown field type',
      '{ "name": "T", "properties": { "a": { "type": "date" } } }',
      /properties\.a\.type must be one of/,
    ],
    ['a field without type', '{ "name": "T", "properties": { "a": {} } }', /properties\.a\.type must be one of/],
    ['a built-in field', '{ "name": "T", "properties": { "created_by": { "type": "string" } } }', /built-in field/],
    ['a reserved name', '{ "name": "T", "properties": { "constructor": { "type": "string" } } }', /reserved name/],
    ['an unknown required field', '{ "name": "T", "properties": {}, "required": ["a"] }', /required names "a"/],
    [
      'a bad pattern',
      '{ "name": "T", "properties": { "a": { "type": "string", "pattern": "(" } } }',
      /not a valid regular/,
    ],
    ['an empty enum', '{ "name": "T", "properties": { "a": { "type": "string", "enum": [] } } }', /enum must be/],
    ['a bad rule', '{ "name": "T", "rls": { "read": 1 } }', /rls\.read must be true, false or a condition/],
    [
      'a create rule on User, which no create through the entity API could meet',
      '{ "name": "User", "rls": { "create": true } }',
      /todo\.jsonc: rls\.create: users join by registration, login or invitation/,
    ],
  ])('refuses %s, naming the file', (_label, text, message) => {
    expect(() => parseEntityDefinition(text, 'todo.jsonc')).toThrow(message);
  });

  it('keeps "__proto__" from a file out of every prototype', () => {
    expect(() =>
      parseEntityDefinition('{ "name": "T", "properties": { "__proto__": { "type": "string" } } }', 'x.json'),
    ).toThrow(/reserved name "__proto__"/);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});

describe('string formats', () => {
  it.each<[string, string, boolean]>([
    ['date', '2024-02-29', true],
    ['date', '2026-02-29', false],
    ['date-time', '2026-11-25T10:00:00Z', true],
    ['date-time', '2026-11-25T10:00:00.5+01:00', true],
    // Without an offset: what a datetime-local input gives, and what the vendor's backend writes itself.
    ['date-time', '2026-11-25T10:00', true],
    ['date-time', '2026-11-25T10:00:00', true],
    ['date-time', '2026-11-27T21:44:37.622000', true],
    ['date-time', '2026-11-25T25:00', false],
    ['date-time', '2026-02-30T10:00', false],
    ['date-time', '2026-11-25 10:00', false],
    ['date-time', '2026-11-25', false],
    ['time', '10:00:00', true],
    ['time', '10:00:00+02:00', true],
    ['time', '25:00:00', false],
    ['email', 'a@example.com', true],
    ['email', 'a@', false],
    ['uri', 'https://example.com/a?b', true],
    ['uri', 'mailto:a@example.com', true],
    ['uri', '/relative/path', false],
    ['hostname', 'example.com', true],
    ['hostname', '-bad-.com', false],
    ['ipv4', '192.168.0.1', true],
    ['ipv4', '192.168.0.256', false],
    ['ipv6', '::1', true],
    ['ipv6', '1.2.3.4', false],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid', '123e4567', false],
  ])('%s: %j is %s', (format, value, expected) => {
    expect(hasFormat(format, value)).toBe(expected);
  });
});

describe('the project folder', () => {
  it('reads the repository: base44/entities holds Todo, no app is linked', async () => {
    const project = await openProjectFolder(REPO);
    expect(project).toMatchObject({ name: 'Coming Soon', linkedAppId: null });
    expect([...(await readEntityDefinitions(project.entitiesDir)).keys()]).toEqual(['Todo']);
  });

  it('follows entitiesDir and the app link, reads .json and .jsonc, ignores other files', async () => {
    const root = tempProject({
      'base44/config.jsonc': '{ "name": "Demo", "entitiesDir": "schemas", }',
      'base44/.app.jsonc': '// linked\n{ "id": "demo-app" }',
      'base44/schemas/todo.jsonc': TODO,
      'base44/schemas/note.json': '{ "name": "Note", "properties": { "text": { "type": "string" } } }',
      'base44/schemas/README.md': 'not an entity',
    });
    const project = await openProjectFolder(root);
    expect(project).toMatchObject({
      name: 'Demo',
      linkedAppId: 'demo-app',
      entitiesDir: path.join(root, 'base44/schemas'),
    });
    expect([...(await readEntityDefinitions(project.entitiesDir)).keys()].sort()).toEqual(['Note', 'Todo']);
  });

  it('refuses a folder without base44/, a bad link, and names every broken or duplicate file', async () => {
    await expect(openProjectFolder(tempProject({ 'x.txt': '' }))).rejects.toThrow(/is not a Base44 project/);
    await expect(openProjectFolder(tempProject({ 'base44/.app.jsonc': '{ "id": "" }' }))).rejects.toThrow(
      /app link must be/,
    );
    const root = tempProject({
      'base44/entities/todo.jsonc': TODO,
      'base44/entities/todo-copy.jsonc': TODO,
      'base44/entities/broken.jsonc': '{',
    });
    const failure = readEntityDefinitions(path.join(root, 'base44/entities'));
    await expect(failure).rejects.toThrow(/broken\.jsonc: not valid JSON/);
    await expect(failure).rejects.toThrow(/todo\.jsonc: defines "Todo" again \(already in todo-copy\.jsonc\)/);
  });
});

describe('lookup', () => {
  const todo = parseEntityDefinition(TODO, 'todo.jsonc');
  const registry = new EntityRegistry({
    initial: new Map([['Todo', todo]]),
    projectApps: new Set(['linked', 'tests']),
    schemalessApps: new Set(['tests']),
  });

  it('answers defined, missing or schemaless per app; User is built in', () => {
    expect(registry.lookup('linked', 'Todo')).toEqual({ kind: 'defined', definition: todo });
    expect(registry.lookup('linked', 'Note')).toEqual({ kind: 'missing' });
    expect(registry.lookup('linked', 'User')).toEqual({ kind: 'schemaless' });
    expect(registry.lookup('tests', 'Todo')).toEqual({ kind: 'defined', definition: todo });
    expect(registry.lookup('tests', 'Note')).toEqual({ kind: 'schemaless' });
    expect(registry.lookup('other', 'Todo')).toEqual({ kind: 'missing' });
    expect(registry.lookup('linked', 'constructor')).toEqual({ kind: 'missing' });
  });
});

describe('reloading', () => {
  it('takes changed files after they settle, and keeps the last good definitions when a file breaks', async () => {
    const root = tempProject({ 'base44/entities/todo.jsonc': TODO });
    const project = await openProjectFolder(root);
    const registry = new EntityRegistry({
      initial: await readEntityDefinitions(project.entitiesDir),
      projectApps: new Set(['app']),
      schemalessApps: new Set(),
    });
    const messages: string[] = [];
    const record = (message: string) => messages.push(message);
    const watcher = watchEntityFiles(project, registry, { info: record, problem: record }, 20);
    const settle = async (change: () => void) => {
      change();
      // fs.watch reports asynchronously: wait for the event, then for the reload it scheduled.
      for (let tries = 0; tries < 100 && messages.length === seen; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await watcher.settled();
      }
      seen = messages.length;
    };
    let seen = 0;
    try {
      await settle(() =>
        writeFileSync(path.join(root, 'base44/entities/note.jsonc'), '{ "name": "Note", "properties": {} }'),
      );
      expect(registry.names()).toEqual(['Note', 'Todo']);
      expect(messages.at(-1)).toBe('entities reloaded: Note, Todo');

      await settle(() => writeFileSync(path.join(root, 'base44/entities/note.jsonc'), '{ "name": "Note", '));
      expect(registry.names()).toEqual(['Note', 'Todo']);
      expect(messages.at(-1)).toMatch(
        /note\.jsonc: not valid JSON[\s\S]*keeping the last good definitions: Note, Todo/,
      );

      await settle(() => rmSync(path.join(root, 'base44/entities/note.jsonc')));
      expect(registry.names()).toEqual(['Todo']);
      expect(registry.lookup('app', 'Note')).toEqual({ kind: 'missing' });
    } finally {
      watcher.close();
    }
  });
});

describe('the emulator with a project', () => {
  it('serves the linked app next to the seeded ones, with the seed settings of its first app', async () => {
    const root = tempProject({
      'base44/config.jsonc': '{ "name": "Linked Demo" }',
      'base44/.app.jsonc': '{ "id": "linked-demo" }',
      'base44/entities/todo.jsonc': TODO,
    });
    const emulator = await startTestEmulator({ projectDir: root });
    const api = apiClient(emulator);
    try {
      expect(emulator.seed.apps.map((app) => app.id)).toEqual([
        'coming-soon',
        'members-only',
        'invite-only',
        'linked-demo',
      ]);
      expect(emulator.seed.apps.at(-1)).toMatchObject({ name: 'Linked Demo', access: 'public' });
      expect(emulator.entityNames()).toEqual(['Todo']);
      // The linked app and the seeded ones share the project's entities (validated even here, where
      // the test seed makes the apps schemaless for other names).
      for (const app of ['linked-demo', 'coming-soon']) {
        const refused = await api('POST', `/apps/${app}/entities/Todo`, { token: `service-token-${app}`, json: {} });
        expect(refused.status).toBe(422);
      }
      const settings = await api('GET', '/apps/public/prod/public-settings/by-id/linked-demo');
      expect(settings.status).toBe(200);
    } finally {
      await emulator.close();
    }
  });

  it('reloads while running: a new file defines an entity, a broken one keeps the last good set', async () => {
    const root = tempProject({ 'base44/entities/todo.jsonc': TODO });
    const seed = testSeed();
    for (const app of seed.apps) app.schemaless = false;
    const logs: string[] = [];
    // Quiet, as in tests: a broken file is still reported, on stderr.
    const log = jest.spyOn(console, 'error').mockImplementation((message: string) => logs.push(message));
    const emulator = await startTestEmulator({ projectDir: root, seed });
    const api = apiClient(emulator);
    const service = { token: 'service-token-coming-soon' };
    const waitFor = async (check: () => boolean | Promise<boolean>) => {
      for (let tries = 0; tries < 300 && !(await check()); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      const note = () => api('POST', '/apps/coming-soon/entities/Note', { ...service, json: { text: 'hi', x: 1 } });
      expect((await note()).status).toBe(404);

      const file = path.join(root, 'base44/entities/note.jsonc');
      writeFileSync(file, '{ "name": "Note", "properties": { "text": { "type": "string" } }, "required": ["text"] }');
      await waitFor(() => emulator.entityNames().includes('Note'));
      const created = await note();
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('x');

      writeFileSync(file, '{ "name": "Note", "properties": ');
      await waitFor(() => logs.some((line) => line.includes('keeping the last good definitions')));
      expect(logs.find((line) => line.includes('keeping the last good'))).toMatch(
        /\[emulator\] Invalid entity definitions:\n {2}\S*note\.jsonc: not valid JSON/,
      );
      expect((await note()).status).toBe(201);
      const refused = await api('POST', '/apps/coming-soon/entities/Note', { ...service, json: {} });
      expect(refused.status).toBe(422);
    } finally {
      await emulator.close();
      log.mockRestore();
    }
  });

  it('refuses to start on a broken entity file, naming it', async () => {
    const root = tempProject({ 'base44/entities/todo.jsonc': '{ "name": 1 }' });
    await expect(startTestEmulator({ projectDir: root, seed: testSeed() })).rejects.toThrow(
      /todo\.jsonc: "name" must be the entity name/,
    );
  });
});
