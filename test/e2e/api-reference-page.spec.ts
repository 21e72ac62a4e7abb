import assert from 'node:assert/strict';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from '../../bot-runtime/browser/launch-browser';
import { startTestService, type TestService } from '../support/test-service';

/** The reference page GET /docs in real Chromium: it loads from the service alone, lists every operation, shows a request example. */
describe('the API reference page (GET /docs) in Chromium', function () {
  this.timeout(120_000);
  let t: TestService;
  let browser: Browser;
  let page: Page;
  const elsewhere: string[] = [];

  before(async () => {
    t = await startTestService();
    browser = await launchBrowser();
    page = await browser.newPage();
    // Nothing but the service: a request to any other origin is recorded and refused.
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (request.url().startsWith(t.url) || request.url().startsWith('data:')) return void request.continue();
      elsewhere.push(request.url());
      return void request.abort();
    });
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('loads from the service alone and lists every operation of the document', async () => {
    const response = await page.goto(`${t.url}/docs`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200);
    const openapi = (await (await fetch(`${t.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    const operationIds = Object.values(openapi.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    await page.waitForFunction((n: number) => document.querySelectorAll('.opblock-tag-section .opblock').length >= n, { timeout: 60_000 }, operationIds.length);
    const shown = await page.$$eval('.opblock', (blocks) => blocks.map((b) => b.id));
    const missing = operationIds.filter((id) => !shown.some((element) => element.endsWith(`-${id}`)));
    assert.deepEqual(missing, [], 'every operation has its block');
    assert.deepEqual(elsewhere, [], 'no request left the service');
  });

  it('shows a request example when an operation is opened', async () => {
    const block = await page.waitForSelector('.opblock[id$="-createBot"]');
    await (await block!.$('.opblock-summary'))!.click();
    await page.waitForFunction(
      () => Array.from(document.querySelectorAll('.opblock[id$="-createBot"] .opblock-body')).some((b) => b.textContent?.includes('https://meet.google.com/abc-defg-hij')),
      { timeout: 30_000 },
    );
    const text = await page.$eval('.opblock[id$="-createBot"] .opblock-body', (b) => b.textContent ?? '');
    assert.match(text, /"bot_name": "Notetaker"/);
    assert.match(text, /FST_ERR_INSUFFICIENT_TOKENS/, 'its errors are listed with their codes');
    assert.deepEqual(elsewhere, [], 'no request left the service');
  });
});
