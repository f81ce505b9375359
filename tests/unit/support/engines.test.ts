/** @jest-environment node */
import { ENGINES, parseEngineArgs } from '../../../support/engines';

describe('parseEngineArgs (npm run test:engines)', () => {
  it('runs every engine when none is named, and passes other arguments to Playwright', () => {
    expect(parseEngineArgs(['tests/cross-engine/frame.spec.ts', '-g', 'frame'])).toEqual({
      engines: [...ENGINES],
      rest: ['tests/cross-engine/frame.spec.ts', '-g', 'frame'],
    });
  });

  it('takes --engine X and --engine=X, repeatable', () => {
    expect(parseEngineArgs(['--engine', 'firefox', '--engine=webkit', '--headed'])).toEqual({
      engines: ['firefox', 'webkit'],
      rest: ['--headed'],
    });
  });

  it('refuses an unknown or missing engine with the list of engines', () => {
    expect(() => parseEngineArgs(['--engine', 'safari'])).toThrow(/chromium, firefox, webkit; got safari/);
    expect(() => parseEngineArgs(['--engine'])).toThrow(/got nothing/);
    expect(() => parseEngineArgs(['--engine=__proto__'])).toThrow(/got __proto__/);
  });
});
