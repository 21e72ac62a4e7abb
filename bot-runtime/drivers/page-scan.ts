/**
 * Scanning a whole meeting page for its screen: the main document, every child frame (some clients
 * render a state, or the whole app, inside one: ScreenApp's `iframe#webclient` on Zoom, 1.5 of the
 * research note) and every closed shadow root, which page scripts cannot reach: they are found
 * through the DevTools protocol (`DOM.getDocument` with `pierce: true`) and scanned through
 * `Runtime.callFunctionOn` on the root itself. Open shadow roots are read by the in-page scan. Every
 * scan runs in an isolated world of its frame (bot-realm.ts), never in the page's own.
 *
 * Each place is scanned with the same ordered rules; the lowest rule that holds anywhere wins, so the
 * ordering (denial, wall, waiting, admitted) holds across frames and roots too. The result says where
 * it was found, and which frame holds the app (the readers of tiles and chat look there).
 */
import type { CDPSession, Frame, Page } from 'puppeteer-core';
import { stateScanFunction, type RuleVerdict, type ScanConfig, type ScanContext, type ScanResult } from './in-page/state-scan';
import { botRealm } from './bot-realm';

/** A scan of one place of the page. */
export interface PlaceScan extends ScanResult {
  /** `main document`, `frame <url>`, `closed shadow root of <host>` */
  readonly where: string;
}

export interface PageScan {
  /** the winner, its evidence saying where it was found when that is not the main document */
  readonly result: ScanResult;
  /** the frame the winner was found in (the main frame for closed shadow roots and for nothing found) */
  readonly frame: Frame;
  /** every place scanned, for diagnostics */
  readonly places: PlaceScan[];
}

interface ClosedRoot {
  readonly objectId: string;
  readonly where: string;
}

/** The isolated world closed roots are read from (page-scan's own: the page's scripts never see the scan run). */
const SCAN_WORLD = 'meeting-bot-scan';

/**
 * Searching the document for closed shadow roots costs (the whole tree through the protocol: some
 * 200 ms for 9000 nodes), so found roots are reused for a while, and the document is searched again
 * at once when what the frames show changes (a new state may have come with a new root) or nothing
 * is recognised, at most every `CLOSED_ROOTS_MIN_MS`.
 */
const CLOSED_ROOTS_TTL_MS = 5000;
const CLOSED_ROOTS_MIN_MS = 300;
const OBJECT_GROUP = 'meeting-bot-closed-roots';

const scanExpression = (config: ScanConfig, context: ScanContext) => `(${stateScanFunction})(${JSON.stringify(config)}, ${JSON.stringify(context)}, null)`;

/** how long a child frame may take to answer; one that does not (a hidden frame that never gets a context) is left alone a while */
const CHILD_FRAME_LIMIT_MS = 1000;
const STALLED_FRAME_PAUSE_MS = 10_000;
const stalledUntil = new WeakMap<Frame, number>();

/** An evaluation in a child frame, bounded: undefined when the frame did not answer in time (it is then skipped for a while). */
export const evaluateInChildFrame = async <T>(frame: Frame, evaluate: () => Promise<T>): Promise<T | undefined> => {
  if ((stalledUntil.get(frame) ?? 0) > Date.now()) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), CHILD_FRAME_LIMIT_MS)));
  try {
    const result = await Promise.race([evaluate(), late]);
    if (result === 'late') {
      stalledUntil.set(frame, Date.now() + STALLED_FRAME_PAUSE_MS);
      return undefined;
    }
    return result as T;
  } finally {
    clearTimeout(timer);
  }
};

/** The page's frames, the main one first, without detached ones. */
export const framesOf = (page: Page): Frame[] => {
  const main = page.mainFrame();
  return [main, ...page.frames().filter((f) => f !== main && !f.detached)];
};

const shortUrl = (url: string) => url.split(/[?#]/)[0]!.slice(0, 120);

interface DomNode {
  readonly nodeName?: string;
  readonly backendNodeId: number;
  /** the frame a frame owner element (an iframe) holds */
  readonly frameId?: string;
  readonly attributes?: string[];
  readonly children?: DomNode[];
  readonly shadowRoots?: (DomNode & { readonly shadowRootType?: string })[];
  readonly contentDocument?: DomNode;
}

const hostName = (node: DomNode): string => {
  const attrs = node.attributes ?? [];
  const id = attrs[attrs.indexOf('id') + 1];
  return `${(node.nodeName ?? '?').toLowerCase()}${attrs.includes('id') && id ? `#${id}` : ''}`;
};

export class PageScanner {
  private session: CDPSession | null = null;
  private closedRoots: ClosedRoot[] = [];
  private foundAt = 0;
  /** what the frames showed at the last scan */
  private framesScreen: string | null = null;

  constructor(private readonly page: Page) {
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.foundAt = 0;
    });
  }

  /** Scans every place of the page with `config`; the lowest rule that holds wins. */
  async scan(config: ScanConfig, context: ScanContext): Promise<PageScan> {
    const places: (PlaceScan & { frame: Frame })[] = [];
    const frames = framesOf(this.page);
    const expression = scanExpression(config, context);
    for (const frame of frames) {
      const main = frame === frames[0];
      try {
        const evaluate = () => botRealm(frame).evaluate(expression) as Promise<ScanResult>;
        const result = main ? await evaluate() : await evaluateInChildFrame(frame, evaluate);
        if (result) places.push({ ...result, where: main ? 'main document' : `frame ${shortUrl(frame.url())}`, frame });
      } catch (err) {
        // the main document navigating away is the caller's to see; a child frame going is nothing
        if (main) throw err;
      }
    }
    const framesBest = places.reduce<(typeof places)[number] | null>((a, b) => (a === null || b.ruleIndex < a.ruleIndex ? b : a), null);
    const framesScreen = framesBest?.screen ?? 'unknown';
    const changed = framesScreen !== this.framesScreen || framesScreen === 'unknown';
    this.framesScreen = framesScreen;
    for (const root of await this.closedShadowRoots(changed)) {
      const result = await this.scanClosedRoot(root, config, context);
      if (result) places.push({ ...result, where: root.where, frame: frames[0]! });
    }
    const best = places.reduce<(typeof places)[number] | null>((a, b) => (a === null || b.ruleIndex < a.ruleIndex ? b : a), null);
    const result: ScanResult =
      best && best.screen !== 'unknown'
        ? { ...best, evidence: best.where === 'main document' ? best.evidence : `${best.evidence} (in ${best.where})`, verdicts: undefined }
        : { screen: 'unknown', wall: null, evidence: null, notice: null, ruleIndex: config.rules.length };
    return { result, frame: best?.screen !== 'unknown' ? best!.frame : frames[0]!, places: places.map(({ frame: _frame, ...p }) => p) };
  }

  /** Each place's verdict on every rule (for an unrecognised page's diagnostic). */
  async explain(config: ScanConfig, context: Omit<ScanContext, 'explain'>): Promise<{ where: string; verdicts: RuleVerdict[] }[]> {
    const scan = await this.scan(config, { ...context, explain: true });
    return scan.places.map((p) => ({ where: p.where, verdicts: p.verdicts ?? [] }));
  }

  /** How many closed shadow roots the page has (as last found). */
  get closedRootCount(): number {
    return this.closedRoots.length;
  }

  private async cdp(): Promise<CDPSession> {
    if (!this.session || this.session.detached) this.session = await this.page.createCDPSession();
    return this.session;
  }

  /** The page's closed shadow roots, searched again when the last search is old, or sooner when the page `changed`. */
  private async closedShadowRoots(changed: boolean): Promise<ClosedRoot[]> {
    const age = Date.now() - this.foundAt;
    if (age < (changed ? CLOSED_ROOTS_MIN_MS : CLOSED_ROOTS_TTL_MS)) return this.closedRoots;
    this.foundAt = Date.now();
    try {
      const session = await this.cdp();
      await session.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch(() => undefined);
      const { root } = (await session.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
      const { frameTree } = await session.send('Page.getFrameTree');
      const found: { backendNodeId: number; where: string; frameId: string }[] = [];
      const walk = (node: DomNode, frame: string, frameId: string) => {
        for (const shadow of node.shadowRoots ?? []) {
          if (shadow.shadowRootType === 'closed') found.push({ backendNodeId: shadow.backendNodeId, where: `closed shadow root of ${hostName(node)}${frame}`, frameId });
          walk(shadow, frame, frameId);
        }
        for (const child of node.children ?? []) walk(child, frame, frameId);
        if (node.contentDocument) walk(node.contentDocument, ' in a frame', node.frameId ?? frameId);
      };
      walk(root, '', frameTree.frame.id);
      const roots: ClosedRoot[] = [];
      const worlds = new Map<string, number>();
      for (const f of found) {
        if (!worlds.has(f.frameId)) {
          const { executionContextId } = await session.send('Page.createIsolatedWorld', { frameId: f.frameId, worldName: SCAN_WORLD });
          worlds.set(f.frameId, executionContextId);
        }
        const { object } = (await session.send('DOM.resolveNode', { backendNodeId: f.backendNodeId, objectGroup: OBJECT_GROUP, executionContextId: worlds.get(f.frameId) })) as {
          object: { objectId?: string };
        };
        if (object.objectId) roots.push({ objectId: object.objectId, where: f.where });
      }
      // the DOM agent would otherwise report every change of the page from now on
      await session.send('DOM.disable').catch(() => undefined);
      this.closedRoots = roots;
    } catch {
      this.closedRoots = [];
    }
    return this.closedRoots;
  }

  private async scanClosedRoot(root: ClosedRoot, config: ScanConfig, context: ScanContext): Promise<ScanResult | null> {
    try {
      const session = await this.cdp();
      const reply = (await session.send('Runtime.callFunctionOn', {
        objectId: root.objectId,
        functionDeclaration: `function (config, context) { return (${stateScanFunction})(config, context, [this]); }`,
        arguments: [{ value: config }, { value: context }],
        returnByValue: true,
      })) as { result: { value?: ScanResult }; exceptionDetails?: unknown };
      if (reply.exceptionDetails || !reply.result.value) return null;
      return reply.result.value;
    } catch {
      // the root's document went away: search again next time
      this.foundAt = 0;
      return null;
    }
  }
}
