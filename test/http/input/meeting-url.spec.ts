import assert from 'node:assert/strict';
import { normaliseMeetingUrl, platformOfMeetingUrl, type Platform } from '../../../src/domain/meeting-url';

describe('platformOfMeetingUrl', () => {
  const production = { sandboxHosts: false };
  const sandbox = { sandboxHosts: true };
  const cases: Array<[string, Platform | null, Platform | null]> = [
    // url, without sandbox hosts, with sandbox hosts
    ['https://zoom.us/j/123456789', 'vc', 'vc'],
    ['https://us02web.zoom.us/j/123456789?pwd=abc', 'vc', 'vc'],
    ['https://ACME.Zoom.US/j/1', 'vc', 'vc'],
    ['https://zoom.us./j/1', 'vc', 'vc'],
    ['https://teams.microsoft.com/l/meetup-join/abc', 'tm', 'tm'],
    ['https://teams.live.com/meet/123', 'tm', 'tm'],
    ['https://meet.google.com/abc-defg-hij', 'mt', 'mt'],
    ['https://vc.localhost:8443/j/123456789', null, 'vc'],
    ['https://tm.localhost:8443/l/meetup-join/x', null, 'tm'],
    ['https://mt.localhost:8443/abc-defg-hij', null, 'mt'],
    ['https://localhost:8443/j/1', null, null],
    ['https://notzoom.us/j/1', null, null],
    ['https://zoom.us.evil.example/j/1', null, null],
    ['https://sub.teams.microsoft.com/l/x', null, null],
    ['https://meet.google.com.evil.example/abc', null, null],
    ['https://zoom.us@evil.example/j/1', null, null],
    ['ftp://zoom.us/j/1', null, null],
    ['not a url', null, null],
    ['', null, null],
  ];
  for (const [url, withoutSandbox, withSandbox] of cases) {
    it(`${JSON.stringify(url)} -> ${withoutSandbox} / sandbox ${withSandbox}`, () => {
      assert.equal(platformOfMeetingUrl(url, production), withoutSandbox);
      assert.equal(platformOfMeetingUrl(url, sandbox), withSandbox);
    });
  }
});

describe('normaliseMeetingUrl', () => {
  const same: Array<[string, string]> = [
    ['https://ZOOM.us/j/123', 'https://zoom.us/j/123'],
    ['https://zoom.us:443/j/123', 'https://zoom.us/j/123'],
    ['https://zoom.us/j/123/', 'https://zoom.us/j/123'],
    ['https://zoom.us/j/123#success', 'https://zoom.us/j/123'],
    ['https://zoom.us/j/123?pwd=x&a=1', 'https://zoom.us/j/123?a=1&pwd=x'],
    ['  https://zoom.us/j/123  ', 'https://zoom.us/j/123'],
    ['HTTPS://zoom.us./j/123?', 'https://zoom.us/j/123'],
    ['https://user:pw@zoom.us/j/123', 'https://zoom.us/j/123'],
  ];
  for (const [input, expected] of same) {
    it(`${input} -> ${expected}`, () => assert.equal(normaliseMeetingUrl(input), expected));
  }

  it('keeps path case, query values and a non-default port', () => {
    assert.equal(normaliseMeetingUrl('https://vc.localhost:8443/J/AbC?pwd=XyZ'), 'https://vc.localhost:8443/J/AbC?pwd=XyZ');
  });

  it('keeps different meetings different', () => {
    assert.notEqual(normaliseMeetingUrl('https://zoom.us/j/1'), normaliseMeetingUrl('https://zoom.us/j/2'));
    assert.notEqual(normaliseMeetingUrl('https://zoom.us/j/1?pwd=a'), normaliseMeetingUrl('https://zoom.us/j/1?pwd=b'));
  });

  it('is total: text that does not parse comes back trimmed', () => {
    assert.equal(normaliseMeetingUrl(' not a url '), 'not a url');
  });

  it('is idempotent', () => {
    const once = normaliseMeetingUrl('https://Zoom.us:443/j/9/?b=2&a=1#x');
    assert.equal(normaliseMeetingUrl(once), once);
  });
});
