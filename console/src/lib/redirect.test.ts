import { describe, expect, it } from 'vitest';
import { HOME_PATH, safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it('keeps a same-origin path with its query and hash', () => {
    expect(safeRedirect('/managements/about')).toBe('/managements/about');
    expect(safeRedirect('/tower_control/list/3?tkt=12#c4')).toBe('/tower_control/list/3?tkt=12#c4');
  });

  it.each([
    ['missing', undefined],
    ['not a string', 42],
    ['empty', ''],
    ['relative', 'about'],
    ['absolute URL', 'https://evil.example/about'],
    ['protocol-relative', '//evil.example/about'],
    ['backslash trick', '/\\evil.example'],
    ['javascript URL', 'javascript:alert(1)'],
    ['control character', '/ab\tout'],
    ['the sign-in page itself', '/signin?redirect=/about'],
  ])('falls back to the home page when the redirect is %s', (_, value) => {
    expect(safeRedirect(value)).toBe(HOME_PATH);
  });

  it('normalises dot segments without leaving the site', () => {
    expect(safeRedirect('/a/../../about')).toBe('/about');
  });
});
