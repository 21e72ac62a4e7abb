/** The platform plumbing of the bot that needs no browser: driver choice, URL forms, replica routing, chat parts. */
import assert from 'node:assert/strict';
import { hostResolverRules, parseReplicaAddress, replicaSettingFromEnv } from '../../bot-runtime/browser/replica-routing';
import { familyForUrl, replicaHosts } from '../../bot-runtime/drivers/families';
import { googleMeetFamily } from '../../bot-runtime/drivers/google-meet/family';
import { lightMeetingCoordinates, teamsNavigationUrl } from '../../bot-runtime/drivers/microsoft-teams/teams-links';
import { zoomFamily } from '../../bot-runtime/drivers/zoom/family';
import { chatParts } from '../../bot-runtime/meeting/chat-sender';
import { checkMeetingUrl } from '../../bot-runtime/meeting-url';
import { replicaHostNames } from '../../sandbox/replicas';

describe('bot-runtime platform parts', () => {
  it('chooses the driver family by the meeting URL host; none for look-alike hosts', () => {
    assert.equal(familyForUrl('https://mt.localhost:8443/abc-defg-hij')?.name, 'sandbox');
    assert.equal(familyForUrl('https://vc.localhost:8443/j/123456789')?.name, 'sandbox');
    assert.equal(familyForUrl('https://meet.google.com/abc-defg-hij')?.name, 'google-meet');
    assert.equal(familyForUrl('https://MEET.google.com./abc-defg-hij')?.name, 'google-meet');
    for (const host of ['teams.microsoft.com', 'teams.live.com', 'teams.cloud.microsoft']) assert.equal(familyForUrl(`https://${host}/meet/1234567890123?p=x`)?.name, 'microsoft-teams', host);
    assert.equal(familyForUrl('https://zoom.us/j/85612345678')?.name, 'zoom');
    assert.equal(familyForUrl('https://us05web.zoom.us/j/85612345678')?.name, 'zoom');
    assert.equal(familyForUrl('https://zoom.us.evil.example/j/85612345678'), null);
    assert.equal(familyForUrl('https://notzoom.us/j/85612345678'), null);
    assert.equal(familyForUrl('https://teams.microsoft.com.evil.example/meet/1234567890123?p=x'), null);
    assert.equal(familyForUrl('https://meet.google.com.evil.example/abc-defg-hij'), null);
  });

  it('pins the Meet page language unless the URL sets one', () => {
    assert.equal(googleMeetFamily.navigationUrl('https://meet.google.com/abc-defg-hij'), 'https://meet.google.com/abc-defg-hij?hl=en');
    assert.equal(googleMeetFamily.navigationUrl('https://meet.google.com/abc-defg-hij?hl=de'), 'https://meet.google.com/abc-defg-hij?hl=de');
  });

  it("opens Teams links as MB does: meetup-join and light-meetings in the web client as a guest, short links as they are (passcode kept)", () => {
    const thread = '19%3ameeting_NzQ1%40thread.v2';
    const context = '%7b%22Tid%22%3a%22t-1%22%2c%22Oid%22%3a%22o-1%22%7d';
    const v2 = `https://teams.microsoft.com/v2/?meetingjoin=true#/l/meetup-join/19%3Ameeting_NzQ1%40thread.v2/0?context=${encodeURIComponent('{"Tid":"t-1","Oid":"o-1"}')}&anon=true`;
    assert.equal(teamsNavigationUrl(`https://teams.microsoft.com/l/meetup-join/${thread}/0?context=${context}`), v2);
    assert.equal(
      teamsNavigationUrl(`https://teams.cloud.microsoft/l/meetup-join/${thread}/0`),
      'https://teams.cloud.microsoft/v2/?meetingjoin=true#/l/meetup-join/19%3Ameeting_NzQ1%40thread.v2/0?anon=true',
      'the same on teams.cloud.microsoft, without a context',
    );
    const coords = Buffer.from(JSON.stringify({ conversationId: '19:meeting_NzQ1@thread.v2', tenantId: 't-1', messageId: '0', organizerId: 'o-1' })).toString('base64');
    assert.equal(teamsNavigationUrl(`https://teams.microsoft.com/light-meetings/launch?anon=true&coords=${encodeURIComponent(coords)}`), v2, 'light-meetings coords decoded');
    for (const unchanged of [
      'https://teams.live.com/meet/9876543210?p=XyZ',
      'https://teams.microsoft.com/meet/12345678901?p=AbCdEf',
      `https://teams.live.com/l/meetup-join/${thread}/0`,
      'https://teams.microsoft.com/light-meetings/launch?coords=bm90IGpzb24',
      'https://teams.microsoft.com/_#/l/meetup-join/19%3ameeting_NzQ%40thread.v2/0',
    ]) assert.equal(teamsNavigationUrl(unchanged), unchanged);
    assert.deepEqual(lightMeetingCoordinates(coords), { conversationId: '19:meeting_NzQ1@thread.v2', tenantId: 't-1', messageId: '0', organizerId: 'o-1' });
    assert.equal(lightMeetingCoordinates(Buffer.from('{"tenantId":"t"}').toString('base64')), null);
  });

  it('sends Zoom links to the web client with their pwd (4.1); web-client, webinar and events links stay as they are', () => {
    const nav = zoomFamily.navigationUrl;
    assert.equal(nav('https://zoom.us/j/85612345678?pwd=AbC.1'), 'https://app.zoom.us/wc/85612345678/join?pwd=AbC.1');
    assert.equal(nav('https://us05web.zoom.us/j/85612345678?pwd=AbC.1&uname=x'), 'https://app.zoom.us/wc/85612345678/join?pwd=AbC.1', 'only pwd is kept');
    assert.equal(nav('https://zoom.us/s/85612345678'), 'https://app.zoom.us/wc/85612345678/join');
    for (const unchanged of [
      'https://zoom.us/j/85612345678?pwd=AbC.1&tk=registrant',
      'https://us06web.zoom.us/w/85612345678?tk=t',
      'https://zoom.us/wc/join/85612345678?pwd=x',
      'https://app.zoom.us/wc/85612345678/join?pwd=x',
      'https://events.zoom.us/j/85612345678',
    ]) {
      assert.equal(nav(unchanged), unchanged, unchanged);
    }
    assert.equal(checkMeetingUrl('https://zoom.us/j/').ok, false, 'a truncated /j/ is no meeting');
  });

  it('routes exactly the hosts the sandbox replicas serve (and the certificate covers)', () => {
    assert.deepEqual([...replicaHosts()].sort(), [...replicaHostNames()].sort());
    assert.equal(
      hostResolverRules(['meet.google.com', 'accounts.google.com'], { host: '127.0.0.1', port: 8443 }),
      'MAP meet.google.com 127.0.0.1:8443, MAP accounts.google.com 127.0.0.1:8443',
    );
  });

  it('takes SANDBOX_REPLICAS as <host>:<port>, and never in production', () => {
    assert.deepEqual(parseReplicaAddress('127.0.0.1:8443'), { host: '127.0.0.1', port: 8443 });
    assert.deepEqual(parseReplicaAddress('[::1]:9'), { host: '[::1]', port: 9 });
    for (const bad of ['127.0.0.1', ':8443', '127.0.0.1:0', '127.0.0.1:70000', 'a b:1']) assert.equal(parseReplicaAddress(bad), null, bad);
    assert.deepEqual(replicaSettingFromEnv({}), { ok: true, address: null });
    assert.deepEqual(replicaSettingFromEnv({ SANDBOX_REPLICAS: 'localhost:8443' }), { ok: true, address: { host: 'localhost', port: 8443 } });
    const production = replicaSettingFromEnv({ SANDBOX_REPLICAS: '127.0.0.1:8443', NODE_ENV: 'production' });
    assert.equal(production.ok, false);
    assert.equal(replicaSettingFromEnv({ SANDBOX_REPLICAS: 'nonsense' }).ok, false);
  });

  it('knows the real URL forms of the research note (2.1, 3.1, 4.1)', () => {
    const platformOf = (url: string) => {
      const r = checkMeetingUrl(url);
      return r.ok ? r.meeting.platform : r.reason;
    };
    for (const url of [
      'https://teams.microsoft.com/l/meeting/19%3ameeting_NzQ%40thread.v2/0',
      'https://teams.microsoft.com/meet/12345678901?p=AbCdEf',
      'https://teams.live.com/meet/9876543210?p=XyZ',
      'https://teams.microsoft.com/dl/launcher/launcher.html?url=%2F_%23%2Fl%2Fmeetup-join',
      'https://teams.microsoft.com/light-meetings/launch?coords=eyJ9',
      'https://teams.microsoft.com/_#/l/meetup-join/19%3ameeting_NzQ%40thread.v2/0',
      'https://teams.microsoft.com/v2/?meetingjoin=true#/l/meetup-join/19%3ameeting_NzQ%40thread.v2/0',
      'https://teams.cloud.microsoft/meet/12345678901?p=AbCdEf',
    ]) assert.equal(platformOf(url), 'tm', url);
    for (const url of ['https://zoom.us/s/85612345678', 'https://app.zoom.us/wc/85612345678/join?pwd=x', 'https://us06web.zoom.us/w/85612345678?tk=t']) {
      assert.equal(platformOf(url), 'vc', url);
    }
    assert.equal(platformOf('https://meet.google.com/abc-defg-hij?hl=en'), 'mt');
  });

  it('cuts long chat messages into parts the platform takes, never inside a character', () => {
    assert.deepEqual(chatParts('abcdef', 4), ['abcd', 'ef']);
    assert.deepEqual(chatParts('short', 500), ['short']);
    assert.deepEqual(chatParts('😀😀😀', 2), ['😀😀', '😀']);
    assert.equal(chatParts('x'.repeat(1200), 500).length, 3);
  });
});
