/**
 * The page shapes every replica flavour can take (issue 22, docs/research/real-platforms.md "Page
 * structure"), as settings of a create request, checked like the flavours' own (400 naming the field):
 *
 * - `state_container`: where the waiting screen and the end pages render: in the page (`page`), in a
 *   same-origin child frame (`frame`), or in a closed shadow root (`closed_shadow_root`), which page
 *   scripts cannot read;
 * - `end_redirect`: when the meeting ends or the participant is removed, the page navigates to the
 *   platform's sign-in page (`sign_in`), its landing page (`landing`) or its product site (`product`)
 *   instead of showing its end page;
 * - `quotes`: the apostrophes of every text the page shows, typographic (`curly`, live copy) or
 *   `straight`;
 * - `lookalikes`: the page also shows texts that look like another state (a sign-in upsell mentioning
 *   waiting, a notice in the call mentioning the waiting room or a removal).
 */
import { flag, oneOf } from './replica-settings';

export const stateContainers = ['page', 'frame', 'closed_shadow_root'] as const;
export type StateContainer = (typeof stateContainers)[number];

export const endRedirects = ['none', 'sign_in', 'landing', 'product'] as const;
export type EndRedirect = (typeof endRedirects)[number];

export const quoteStyles = ['curly', 'straight'] as const;
export type QuoteStyle = (typeof quoteStyles)[number];

export interface ShapeSettings {
  readonly state_container: StateContainer;
  readonly end_redirect: EndRedirect;
  readonly quotes: QuoteStyle;
  readonly lookalikes: boolean;
}

export const parseShapeSettings = (body: Readonly<Record<string, unknown>>): ShapeSettings => ({
  state_container: body.state_container === undefined ? 'page' : oneOf(body.state_container, stateContainers, 'state_container'),
  end_redirect: body.end_redirect === undefined ? 'none' : oneOf(body.end_redirect, endRedirects, 'end_redirect'),
  quotes: body.quotes === undefined ? 'curly' : oneOf(body.quotes, quoteStyles, 'quotes'),
  lookalikes: flag(body.lookalikes, 'lookalikes', false),
});

/** Where a flavour's redirects go: its sign-in page, landing page and product site. */
export interface RedirectTargets {
  readonly sign_in: string;
  readonly landing: string;
  readonly product: string;
}

/** Every string of `texts` (nested records and arrays too) with straight apostrophes when `quotes` says so. */
export const withQuotes = <T>(texts: T, quotes: QuoteStyle): T => {
  if (quotes === 'curly') return texts;
  const straighten = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"');
    if (Array.isArray(value)) return value.map(straighten);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, straighten(v)]));
    return value;
  };
  return straighten(texts) as T;
};

/** The page's part of the shape settings (what its script reads as `cfg.shape`). */
export const shapeConfig = (settings: ShapeSettings, redirects: RedirectTargets) => ({
  state_container: settings.state_container,
  end_redirect: settings.end_redirect,
  lookalikes: settings.lookalikes,
  redirects,
});
