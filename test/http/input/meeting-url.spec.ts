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

describe('platformOfMeetingUrl: the real URL forms of the research note (real-platforms.md 2.1, 3.1, 4.1)', () => {
  const forms: Array<[string, Platform]> = [
    ['https://meet.google.com/abc-defg-hij', 'mt'],
    ['https://meet.google.com/abc-defg-hij?hl=en', 'mt'],
    ['https://teams.microsoft.com/l/meetup-join/19%3ameeting_NzQ%40thread.v2/0?context={"Tid":"t-1","Oid":"o-1"}', 'tm'],
    ['https://teams.microsoft.com/l/meeting/19%3ameeting_NzQ%40thread.v2/0', 'tm'],
    ['https://teams.microsoft.com/meet/12345678901?p=AbCdEf', 'tm'],
    ['https://teams.live.com/meet/9876543210?p=XyZ', 'tm'],
    ['https://teams.microsoft.com/dl/launcher/launcher.html?url=%2F_%23%2Fl%2Fmeetup-join', 'tm'],
    ['https://teams.microsoft.com/light-meetings/launch?coords=eyJ9&anon=true', 'tm'],
    ['https://teams.microsoft.com/_#/l/meetup-join/19%3ameeting_NzQ%40thread.v2/0', 'tm'],
    ['https://teams.microsoft.com/v2/?meetingjoin=true#/l/meetup-join/19%3ameeting_NzQ%40thread.v2/0?anon=true', 'tm'],
    ['https://teams.cloud.microsoft/meet/12345678901?p=AbCdEf', 'tm'],
    ['https://zoom.us/j/85612345678?pwd=abc', 'vc'],
    ['https://zoom.us/s/85612345678', 'vc'],
    ['https://app.zoom.us/wc/85612345678/join?pwd=abc', 'vc'],
    ['https://zoom.us/wc/join/85612345678', 'vc'],
    ['https://us06web.zoom.us/w/85612345678?tk=registrant-token', 'vc'],
    ['https://events.zoom.us/ev/AbCdEf', 'vc'],
    ['https://acme.zoom.us/j/85612345678', 'vc'],
  ];
  for (const [url, platform] of forms) {
    it(`${url} -> ${platform}`, () => assert.equal(platformOfMeetingUrl(url, { sandboxHosts: false }), platform));
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
