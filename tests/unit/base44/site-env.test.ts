import { vendorSiteEnv, vendorSiteHost } from '@/support/base44-cli/site-env';

// What `base44 dev` passes to the site's serveCommand (createServeCommandRunner in the vendor CLI).
const FROM_BASE44_DEV = { VITE_BASE44_APP_ID: 'app_123', VITE_BASE44_APP_BASE_URL: 'http://localhost:4400' };

describe('vendorSiteEnv', () => {
  it('is null without the variables, so npm run dev starts the emulator as before', () => {
    expect(vendorSiteEnv({})).toBeNull();
    expect(vendorSiteEnv({ VITE_BASE44_APP_ID: ' ', VITE_BASE44_APP_BASE_URL: '' })).toBeNull();
  });

  it('points server, login page and app id at the backend base44 dev names', () => {
    const site = vendorSiteEnv(FROM_BASE44_DEV);
    expect(site?.nextPublic).toEqual({
      NEXT_PUBLIC_PLATFORM_SERVER_URL: 'http://localhost:4400',
      NEXT_PUBLIC_PLATFORM_APP_BASE_URL: 'http://localhost:4400',
      NEXT_PUBLIC_PLATFORM_APP_ID: 'app_123',
    });
  });

  it('names the missing variable when only one is set', () => {
    expect(() => vendorSiteEnv({ VITE_BASE44_APP_ID: 'app_123' })).toThrow(
      /VITE_BASE44_APP_ID is set but VITE_BASE44_APP_BASE_URL is not/,
    );
    expect(() => vendorSiteEnv({ VITE_BASE44_APP_BASE_URL: 'http://localhost:4400' })).toThrow(
      /VITE_BASE44_APP_BASE_URL is set but VITE_BASE44_APP_ID is not/,
    );
  });

  it('refuses an app id or URL the site would refuse anyway', () => {
    expect(() => vendorSiteEnv({ ...FROM_BASE44_DEV, VITE_BASE44_APP_ID: '../admin' })).toThrow(/is not an app id/);
    expect(() => vendorSiteEnv({ ...FROM_BASE44_DEV, VITE_BASE44_APP_BASE_URL: 'localhost:4400' })).toThrow(
      /not an absolute http\(s\) URL/,
    );
    expect(() =>
      vendorSiteEnv({ ...FROM_BASE44_DEV, VITE_BASE44_APP_BASE_URL: 'http://user:pw@localhost:4400' }),
    ).toThrow(/not an absolute/);
  });
});

describe('vendorSiteHost', () => {
  it('serves on localhost for a local backend (its CORS allows only localhost pages), unless HOST says otherwise', () => {
    const local = vendorSiteEnv(FROM_BASE44_DEV)!;
    expect(vendorSiteHost(local, undefined)).toBe('localhost');
    expect(vendorSiteHost(local, '0.0.0.0')).toBe('0.0.0.0');
    const remote = vendorSiteEnv({ ...FROM_BASE44_DEV, VITE_BASE44_APP_BASE_URL: 'https://my-app.base44.app' })!;
    expect(vendorSiteHost(remote, undefined)).toBe('127.0.0.1');
  });
});
