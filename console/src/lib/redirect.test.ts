import { describe, expect, it } from 'vitest';
import { afterSignInPath, HOME_PATH, isOpenPath, rewriteTmsPath, safeRedirect } from './redirect';

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

describe('afterSignInPath', () => {
  it('goes to the master warning page, with do_redirect when a page was requested', () => {
    expect(HOME_PATH).toBe('/flightdeck/cockpit/master_warning');
    expect(afterSignInPath(undefined)).toBe(HOME_PATH);
    expect(afterSignInPath('/about')).toBe(`${HOME_PATH}?do_redirect=/about`);
    expect(afterSignInPath('/about?range=today')).toBe(`${HOME_PATH}?do_redirect=/about%3Frange%3Dtoday`);
  });

  it('drops a redirect to another site', () => {
    expect(afterSignInPath('https://evil.example/')).toBe(HOME_PATH);
  });
});

describe('open pages and /tms/', () => {
  it('opens only the sign-in, sign-up and legal pages and what lies below sign-in and sign-up', () => {
    for (const path of [
      '/signin',
      '/signup',
      '/signup/verify',
      '/signin/recovery/password',
      '/terms',
      '/privacy',
    ]) {
      expect(isOpenPath(path), path).toBe(true);
    }
    for (const path of ['/', '/about', '/signinx', '/managements/about'])
      expect(isOpenPath(path), path).toBe(false);
  });

  it('rewrites every /tms/ segment to /ground_control/', () => {
    expect(rewriteTmsPath('/tms/space/1')).toBe('/ground_control/space/1');
    expect(rewriteTmsPath('/a/tms/b/tms/c')).toBe('/a/ground_control/b/ground_control/c');
    expect(rewriteTmsPath('/tmsx/space')).toBeUndefined();
  });
});
